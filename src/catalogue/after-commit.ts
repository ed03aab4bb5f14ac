/**
 * A first import's work after its COMMIT (migration 019's `catalogue_index_builds`): its secondary
 * indexes, its stored Event previews and their foreign key, and the check of its other foreign
 * keys. The import's transaction drops the indexes (bulk-load.ts), loads the rows, leaves the
 * previews table empty (with its key, without its foreign key), adds most foreign keys NOT VALID,
 * and records each piece of work here; once it has committed,
 * `finishAfterCommit` does them, each in a transaction of its own that also deletes its row, on up
 * to `AFTER_COMMIT_CONNECTIONS` connections at once. Inside the import's one transaction they ran
 * one after another on one backend (the indexes ≈ 50 s, the previews ≈ 35 s at 1,000,000 Events)
 * while the other cores idled: PostgreSQL 15 builds a GIN or GiST index on one process (its btree
 * builds take parallel workers) and writes an INSERT's rows on one.
 *
 * Each row's `method` says what it is:
 * - an access method (`gin`, `gist`, `btree`…): an index, `definition` its pg_get_indexdef();
 * - `previews`: the stored previews of every Event that has none (event-previews.ts), then their
 *   foreign key, `definition` the ALTER TABLE that adds it (checking each row as it is inserted
 *   cost 15 s of 1,000,000; the one check of the whole table ≈ 1 s);
 * - `validate`: a foreign key added NOT VALID, `definition` the ALTER TABLE that validates it
 *   (under a SHARE UPDATE EXCLUSIVE lock: readers and writers go on). Its rows were checked
 *   against the document before COMMIT (checks.ts); this is the database's own check of them.
 *
 * What readers see: the rows of the import, all of them, from its COMMIT (the catalogue's
 * one-transaction guarantee is about rows: nothing is written when a document is rejected). Until
 * the work ends, a read that needs a missing index is slow, and an Event without stored previews
 * is read live (the same previews, by more statements: queries/event-relations.ts). A build locks
 * its table in SHARE mode, the previews lock `events` and `event_previews` in SHARE mode and add
 * their foreign key under a SHARE ROW EXCLUSIVE lock: readers wait for none of them.
 *
 * An importer stopped between its COMMIT and the end leaves rows here: the next import (after its
 * own COMMIT) or `lineup migrate` (before it applies anything) does what is left (an index or a
 * foreign key already added by hand, or a key to validate that is valid or gone, only loses its
 * row). Two processes finishing at once each take free rows (`SKIP LOCKED`), then wait for the
 * rows the other holds, so neither returns before the work is done, and nothing is done twice.
 */
import type pg from 'pg';
import type { Database } from '../db/database.js';
import { fillEveryEventPreview } from './event-previews.js';

const WORK = 'catalogue_index_builds';

/** `method` of the stored previews' row (the others are indexes' access methods, or VALIDATE). */
export const PREVIEWS = 'previews';

/** `method` of a foreign key added NOT VALID, to be validated (bulk-load.ts). */
export const VALIDATE = 'validate';

/**
 * Connections working at once (the import's own and the rest from the pool). Two: the machine
 * the targets are set on has two cores, and each btree build brings its own parallel workers.
 */
export const AFTER_COMMIT_CONNECTIONS = 2;

/** A row of the table: one piece of work. */
export interface AfterCommitWork {
  /** an index: its regclass text; the previews or a foreign key to validate: the key's (quoted) name */
  readonly name: string;
  /** regclass text of the table written */
  readonly table: string;
  /** an index's access method (btree, gin, gist…), PREVIEWS or VALIDATE */
  readonly method: string;
  /** an index: pg_get_indexdef(); the previews: the ALTER TABLE adding their foreign key; VALIDATE: the ALTER TABLE validating it */
  readonly definition: string;
}

/**
 * Records work to be done after COMMIT (inside the import's transaction). A row already recorded
 * under the same name (left by a stopped import, its index since built by hand and dropped again)
 * stays: it describes the same work.
 */
export async function recordAfterCommit(client: pg.PoolClient, work: readonly AfterCommitWork[]): Promise<void> {
  if (work.length === 0) return;
  await client.query(
    `INSERT INTO ${WORK} (name, table_name, method, definition)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
     ON CONFLICT (name) DO NOTHING`,
    [work.map((b) => b.name), work.map((b) => b.table), work.map((b) => b.method), work.map((b) => b.definition)],
  );
}

/**
 * The lock modes that make a row's work wait, by what it takes on its table: an index build and
 * the previews (which lock `events` and their own table) take SHARE, which waits for writers (ROW
 * EXCLUSIVE) and for SHARE UPDATE EXCLUSIVE and stronger; validating a foreign key takes SHARE
 * UPDATE EXCLUSIVE on its table, which waits for itself (two keys of one table), for SHARE (an
 * index build on that table) and stronger (PostgreSQL's table of conflicting lock modes).
 */
const WAITS_FOR_SHARE = ['RowExclusiveLock', 'ShareUpdateExclusiveLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock'];
const WAITS_FOR_SHARE_UPDATE_EXCLUSIVE = ['ShareUpdateExclusiveLock', 'ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock'];
const modes = (list: readonly string[]) => `ARRAY[${list.map((m) => `'${m}'`).join(', ')}]`;

/**
 * 1 when another transaction holds a lock on the row's table (the previews: or on `events`) that
 * its work would wait for, else 0. Such a row is taken last: a finisher that took it would wait
 * with its core idle while free work was left (both finishers taking the two foreign keys of
 * `event_artists` at once, or a key of a table whose index the other is building). Only an order:
 * when every row left is blocked, the first is taken and waited for.
 */
const BLOCKED = `CASE WHEN EXISTS (
      SELECT 1 FROM pg_locks l
       WHERE l.locktype = 'relation' AND l.granted AND l.pid <> pg_backend_pid()
         AND l.database = (SELECT d.oid FROM pg_database d WHERE d.datname = current_database())
         AND (l.relation = to_regclass(table_name) OR (method = '${PREVIEWS}' AND l.relation = to_regclass('events')))
         AND l.mode = ANY (CASE method WHEN '${VALIDATE}' THEN ${modes(WAITS_FOR_SHARE_UPDATE_EXCLUSIVE)} ELSE ${modes(WAITS_FOR_SHARE)} END))
    THEN 1 ELSE 0 END`;

/**
 * The next row: first one whose lock another transaction does not hold against it (`BLOCKED`,
 * above); then the longest work first as far as it can be told (longest-processing-time order
 * keeps the connections busy to the end): the previews (≈ 35 s of one backend at 1,000,000
 * Events), then GIN, then GiST and SP-GiST indexes (all built on one process; the two name
 * trigram GINs ≈ 10 s each, the span indexes ≈ 3 s: migration 022), then the foreign keys to
 * validate (≈ 0.3–1.5 s each), then btree
 * (parallel workers), each by its table's size. `present`: an index or a foreign key that is
 * already there (added by hand from its listed definition), a key to validate that is not NOT
 * VALID any more (validated, or dropped).
 * `SKIP LOCKED`: the next one no other transaction holds; without it, the next one, waiting for a
 * held row's transaction to end (done and deleted: the next row; rolled back: that one, free again).
 */
const next = (skipLocked: boolean) => `SELECT name, table_name, method, definition,
         CASE method
           WHEN '${PREVIEWS}' THEN EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conrelid = to_regclass(table_name) AND quote_ident(k.conname) = name)
           WHEN '${VALIDATE}' THEN NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conrelid = to_regclass(table_name) AND quote_ident(k.conname) = name AND NOT k.convalidated)
           ELSE to_regclass(name) IS NOT NULL END AS present
    FROM ${WORK}
   ORDER BY ${BLOCKED},
            CASE method WHEN '${PREVIEWS}' THEN 0 WHEN 'gin' THEN 1 WHEN 'gist' THEN 2 WHEN 'spgist' THEN 2 WHEN '${VALIDATE}' THEN 3 ELSE 4 END,
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
      await client.query(`SET LOCAL work_mem = '64MB'`); // the previews' member tables and arrays
    }
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

interface WorkRow {
  name: string;
  table_name: string;
  method: string;
  definition: string;
  present: boolean;
}

/**
 * The stored previews of every Event without them, then their foreign key, in one transaction.
 * The Events and their previews are locked in SHARE mode first (as an index build locks its
 * table; readers and index builds go on): an import that would write either waits, so every row
 * written has its Event when the foreign key checks the table, the rows read are those committed
 * before this, and no other transaction adds a preview meanwhile (an empty table is filled by a
 * plain INSERT). An import writes `events` before `event_previews`, as this locks them: neither
 * waits for the other in a cycle.
 */
async function writePreviews(client: pg.PoolClient, row: WorkRow): Promise<void> {
  await client.query('LOCK TABLE events, event_previews IN SHARE MODE');
  await fillEveryEventPreview(client);
  if (!row.present) await client.query(row.definition);
}

/**
 * Does recorded work on `client`, one row per transaction, until `statement` finds none; returns
 * how many rows it did. A row is done by the transaction that locked it, never handed on: two
 * finishers that each locked rows only to wait and release them could trade them for ever.
 */
async function doAll(client: pg.PoolClient, db: Database, statement: string): Promise<number> {
  let done = 0;
  for (;;) {
    const found = await inTransaction(client, db, async () => {
      const { rows } = await client.query<WorkRow>(statement);
      const row = rows[0];
      if (row === undefined) return false;
      if (row.method === PREVIEWS) await writePreviews(client, row);
      // an operator may have run a listed definition by hand: the index is there, the row goes
      else if (!row.present) await client.query(row.definition);
      await client.query(`DELETE FROM ${WORK} WHERE name = $1`, [row.name]);
      return true;
    });
    if (!found) return done;
    done++;
  }
}

const left = async (client: pg.PoolClient) =>
  (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${WORK}`)).rows[0]!.n;

/** True when the stored previews are recorded to be written (a first import stopped after its COMMIT). */
export async function hasPreviewsWork(client: pg.PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${WORK} WHERE method = $1`, [PREVIEWS]);
  return rows[0]!.n > 0;
}

/** True when the schema has the table of recorded work (migration 019 applied). */
export async function hasAfterCommitWork(client: pg.PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ present: boolean }>(`SELECT to_regclass('${WORK}') IS NOT NULL AS present`);
  return rows[0]!.present;
}

/**
 * Does every recorded piece of work: on `own` (a connection the caller holds, outside any
 * transaction) and, on PostgreSQL, on spare connections of the pool, up to
 * AFTER_COMMIT_CONNECTIONS in all. `onStart` is called once when there is something to do.
 * Resolves when no row is left; returns the number of rows done by this call.
 */
export async function finishAfterCommit(db: Database, own: pg.PoolClient, onStart?: () => void): Promise<number> {
  const recorded = await left(own);
  if (recorded === 0) return 0;
  onStart?.();
  const extra: pg.PoolClient[] = [];
  if (db.engine === 'postgres') {
    // only connections the pool has to spare: waiting for a busy one could wait for ever
    const pool = db.pool;
    const spare = pool.options.max - pool.totalCount + pool.idleCount;
    const wanted = Math.min(AFTER_COMMIT_CONNECTIONS - 1, recorded - 1, spare);
    for (let i = 0; i < wanted; i++) extra.push(await pool.connect());
  }
  let done = 0;
  let broken: Error | undefined;
  try {
    const results = await Promise.allSettled([own, ...extra].map((c) => doAll(c, db, NEXT_FREE)));
    for (const r of results) {
      if (r.status === 'fulfilled') done += r.value;
      else broken ??= r.reason as Error;
    }
    if (broken) throw broken;
    // rows another process holds: wait for each; one it rolled back is done here
    do done += await doAll(own, db, NEXT_WAITING);
    while ((await left(own)) > 0);
    return done;
  } finally {
    for (const c of extra) c.release(broken);
  }
}
