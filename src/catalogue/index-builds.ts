/**
 * A first import's secondary indexes, built after its COMMIT on several connections (migration
 * 019). The import's transaction drops them (bulk-load.ts), loads the rows, and records each one
 * here with its definition; once it has committed, `finishIndexBuilds` builds them, each index in
 * a transaction of its own that also deletes its row, on up to `INDEX_BUILD_CONNECTIONS`
 * connections at once. PostgreSQL 15 builds a GIN or GiST index on one process (its btree builds
 * take parallel workers), so inside the import's one transaction the builds ran one after another
 * on one backend (≈ 50 s at 1,000,000 Events) while the other cores idled.
 *
 * What readers see: the rows of the import, all of them, from its COMMIT (the catalogue's
 * one-transaction guarantee is about rows: nothing is written when a document is rejected); until
 * the builds end, a read that needs a missing index is slow (a first import only: the tables were
 * empty before). A build takes a SHARE lock, which readers do not wait for.
 *
 * An importer stopped between its COMMIT and the end of the builds leaves rows here: the next
 * import (after its own COMMIT) or `lineup migrate` (before it applies anything) builds them (an
 * index already built by hand from its recorded definition only loses its row).
 * Two processes finishing at once each take free rows (`SKIP LOCKED`), then wait for the rows the
 * other holds, so neither returns before every recorded index exists, and none is built twice.
 */
import type pg from 'pg';
import type { Database } from '../db/database.js';

const BUILDS = 'catalogue_index_builds';

/**
 * Connections building at once (the import's own and the rest from the pool). Two: the machine
 * the targets are set on has two cores, and each btree build brings its own parallel workers.
 */
export const INDEX_BUILD_CONNECTIONS = 2;

export interface IndexBuild {
  /** regclass text of the index */
  readonly name: string;
  /** regclass text of its table */
  readonly table: string;
  /** access method (btree, gin, gist…) */
  readonly method: string;
  /** pg_get_indexdef() */
  readonly definition: string;
}

/** Records dropped indexes to be built after COMMIT (inside the import's transaction). */
export async function recordIndexBuilds(client: pg.PoolClient, builds: readonly IndexBuild[]): Promise<void> {
  if (builds.length === 0) return;
  await client.query(
    `INSERT INTO ${BUILDS} (name, table_name, method, definition)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])`,
    [builds.map((b) => b.name), builds.map((b) => b.table), builds.map((b) => b.method), builds.map((b) => b.definition)],
  );
}

/**
 * The next build, the longest first as far as it can be told (longest-processing-time order keeps
 * the connections busy to the end): GIN, then GiST (both build on one process; at 1,000,000 Events
 * the two name trigram GINs take ≈ 10 s each, the GiST ≈ 5 s), then btree (parallel workers), each
 * by its table's size. `SKIP LOCKED`: the next one no other transaction holds; without it, the
 * next one, waiting for a held row's transaction to end (built and deleted: the next row; rolled
 * back: that one, free again).
 */
const next = (skipLocked: boolean) => `SELECT name, definition, to_regclass(name) IS NOT NULL AS present FROM ${BUILDS}
  ORDER BY CASE method WHEN 'gin' THEN 0 WHEN 'gist' THEN 1 ELSE 2 END,
           coalesce(pg_relation_size(to_regclass(table_name)), 0) DESC, name
  LIMIT 1 FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}`;
const NEXT_FREE = next(true);
const NEXT_WAITING = next(false);

async function inTransaction<T>(client: pg.PoolClient, db: Database, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    if (db.engine === 'postgres') {
      // an index build of a large table outlasts the API's limits; waiting for another build's row too
      await client.query('SET LOCAL statement_timeout = 0');
      await client.query('SET LOCAL lock_timeout = 0');
      await client.query(`SET LOCAL maintenance_work_mem = '128MB'`);
    }
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/**
 * Builds recorded indexes on `client`, one transaction each, until `statement` finds none;
 * returns how many it built. A row is built by the transaction that locked it, never handed on:
 * two finishers that each locked rows only to wait and release them could trade them for ever.
 */
async function buildAll(client: pg.PoolClient, db: Database, statement: string): Promise<number> {
  let built = 0;
  for (;;) {
    const done = await inTransaction(client, db, async () => {
      const { rows } = await client.query<{ name: string; definition: string; present: boolean }>(statement);
      const row = rows[0];
      if (row === undefined) return false;
      // an operator may have run a listed definition by hand: the index is there, the row goes
      if (!row.present) await client.query(row.definition);
      await client.query(`DELETE FROM ${BUILDS} WHERE name = $1`, [row.name]);
      return true;
    });
    if (!done) return built;
    built++;
  }
}

const left = async (client: pg.PoolClient) =>
  (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${BUILDS}`)).rows[0]!.n;

/** True when the schema has the table of recorded builds (migration 019 applied). */
export async function hasIndexBuilds(client: pg.PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ present: boolean }>(`SELECT to_regclass('${BUILDS}') IS NOT NULL AS present`);
  return rows[0]!.present;
}

/**
 * Builds every recorded index: on `own` (a connection the caller holds, outside any transaction)
 * and, on PostgreSQL, on spare connections of the pool, up to INDEX_BUILD_CONNECTIONS in all.
 * `onStart` is called once when there is something to build. Resolves when no row is left;
 * returns the number of indexes built by this call.
 */
export async function finishIndexBuilds(db: Database, own: pg.PoolClient, onStart?: () => void): Promise<number> {
  const recorded = await left(own);
  if (recorded === 0) return 0;
  onStart?.();
  const extra: pg.PoolClient[] = [];
  if (db.engine === 'postgres') {
    // only connections the pool has to spare: waiting for a busy one could wait for ever
    const pool = db.pool;
    const spare = pool.options.max - pool.totalCount + pool.idleCount;
    const wanted = Math.min(INDEX_BUILD_CONNECTIONS - 1, recorded - 1, spare);
    for (let i = 0; i < wanted; i++) extra.push(await pool.connect());
  }
  let built = 0;
  let broken: Error | undefined;
  try {
    const results = await Promise.allSettled([own, ...extra].map((c) => buildAll(c, db, NEXT_FREE)));
    for (const r of results) {
      if (r.status === 'fulfilled') built += r.value;
      else broken ??= r.reason as Error;
    }
    if (broken) throw broken;
    // rows another process holds: wait for each; one it rolled back is built here
    do built += await buildAll(own, db, NEXT_WAITING);
    while ((await left(own)) > 0);
    return built;
  } finally {
    for (const c of extra) c.release(broken);
  }
}
