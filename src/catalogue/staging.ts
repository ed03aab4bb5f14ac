/**
 * Temporary staging tables (one per collection, dropped at the end of the import transaction)
 * and the batched, parameterized inserts that fill them while the document streams in.
 * A batch is one `COPY … FROM` of text cells, read by each column type's input function (the
 * same conversion the former `INSERT … SELECT FROM unnest($1::text[], …)` made with casts).
 */
import type pg from 'pg';
import type { CopyIn } from '../db/copy.js';
import { COLLECTIONS, type Collection } from './document.js';
import { COMMON_COLUMNS, STAGE, type SqlType } from './rows.js';

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

/**
 * After loading: index the publicIds and give the planner statistics (temp tables get none).
 * Returns the collections whose staged publicIds are not all distinct. Each index is built
 * unique first: when that succeeds, the collection has no duplicate and checks.ts need not group
 * its rows to look for one (a large share of the checks of a big seed); when it
 * fails, the savepoint undoes it and a plain index is built, and the checks name the duplicates.
 * `collections`: the staging tables to finish (all by default; parents-first.ts finishes the
 * parents' while the Events are still read, and the rest after).
 */
export async function finishStaging(client: pg.PoolClient, collections: readonly Collection[] = COLLECTIONS): Promise<Set<Collection>> {
  const repeated = new Set<Collection>();
  for (const collection of collections) {
    const table = STAGE[collection].table;
    await client.query('SAVEPOINT stage_unique');
    try {
      await client.query(`CREATE UNIQUE INDEX ON ${table} (public_id)`);
      await client.query('RELEASE SAVEPOINT stage_unique');
    } catch (err) {
      if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      await client.query('ROLLBACK TO SAVEPOINT stage_unique');
      await client.query('RELEASE SAVEPOINT stage_unique');
      await client.query(`CREATE INDEX ON ${table} (public_id)`);
      repeated.add(collection);
    }
    await client.query(`ANALYZE ${table} (${plannedColumns(collection).join(', ')})`);
  }
  if (collections.includes('events')) await client.query(`ANALYZE stage_zones`); // the Events' merge reads it
  return repeated;
}

const UNIQUE_VIOLATION = '23505';

/**
 * The staged columns the checks and the merge join or filter on (their statistics shape the plans;
 * the table's row count comes with any ANALYZE): the order, the publicId, `updated_at` (which
 * splits the upserts in two), the time zone, and every reference, single or list. A list is the
 * cache key of a Memoize (the Events' primary Venue keys: one evaluation per distinct Venue list
 * instead of one per Event, which the plan finds only with the lists' statistics). The other
 * columns are only read: the statistics of all of them would cost several times these.
 */
function plannedColumns(collection: Collection): string[] {
  return columnsOf(collection)
    .map(([name]) => name)
    .filter((name) => ['ord', 'public_id', 'updated_at', 'time_zone'].includes(name) || name.endsWith('_pid') || name.endsWith('_pids'));
}

/** Stages rows of `collection` written as COPY bytes (staging-batch.ts): one COPY (src/db/copy.ts). */
export async function insertStaged(copyIn: CopyIn, client: pg.PoolClient, collection: Collection, bytes: Uint8Array): Promise<void> {
  if (bytes.length === 0) return;
  await copyIn(client, STAGE[collection].table, columnsOf(collection).map(([name]) => name), bytes);
}
