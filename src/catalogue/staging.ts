/**
 * Temporary staging tables (one per collection, dropped at the end of the import transaction)
 * and the batched, parameterized inserts that fill them while the document streams in.
 * A batch is one `INSERT … SELECT … FROM unnest($1::text[], …)`: one text array per column,
 * cast to the column type in SQL, so a batch costs one round trip whatever its size.
 */
import type pg from 'pg';
import { COLLECTIONS, type Collection } from './document.js';
import { COMMON_COLUMNS, STAGE, type Cell, type SqlType } from './rows.js';

function columnsOf(collection: Collection): ReadonlyArray<readonly [string, SqlType]> {
  return [...COMMON_COLUMNS, ...STAGE[collection].columns];
}

export async function createStaging(client: pg.PoolClient): Promise<void> {
  for (const collection of COLLECTIONS) {
    const cols = columnsOf(collection).map(([name, type]) => `${name} ${type}`);
    await client.query(`CREATE TEMP TABLE ${STAGE[collection].table} (${cols.join(', ')}) ON COMMIT DROP`);
  }
  // pg_timezone_names reads the zone files on every scan: materialize it once.
  await client.query(`CREATE TEMP TABLE stage_zones ON COMMIT DROP AS SELECT name FROM pg_timezone_names`);
}

/** After loading: index the publicIds and give the planner statistics (temp tables get none). */
export async function finishStaging(client: pg.PoolClient): Promise<void> {
  for (const collection of COLLECTIONS) {
    const table = STAGE[collection].table;
    await client.query(`CREATE INDEX ON ${table} (public_id)`);
    await client.query(`ANALYZE ${table}`);
  }
  await client.query(`ANALYZE stage_zones`);
}

const insertSql = new Map<Collection, string>();

function insertStatement(collection: Collection): string {
  let sql = insertSql.get(collection);
  if (!sql) {
    const cols = columnsOf(collection);
    const names = cols.map(([n]) => n).join(', ');
    const casts = cols.map(([n, t]) => (t === 'text' ? `u.${n}` : `u.${n}::${t}`)).join(', ');
    const params = cols.map((_, i) => `$${i + 1}::text[]`).join(', ');
    sql = `INSERT INTO ${STAGE[collection].table} (${names}) SELECT ${casts} FROM unnest(${params}) AS u(${names})`;
    insertSql.set(collection, sql);
  }
  return sql;
}

/** Inserts rows (cells in column order) into the staging table of `collection`. */
export async function insertStaged(client: pg.PoolClient, collection: Collection, rows: Cell[][]): Promise<void> {
  if (rows.length === 0) return;
  const width = columnsOf(collection).length;
  const columns: Cell[][] = Array.from({ length: width }, () => new Array<Cell>(rows.length));
  rows.forEach((row, r) => {
    for (let c = 0; c < width; c++) columns[c]![r] = row[c] ?? null;
  });
  await client.query(insertStatement(collection), columns);
}
