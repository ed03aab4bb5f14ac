/**
 * `lineup import FILE [--replace]` (decisions §6): streams a catalogue document into the store
 * in ONE transaction, in bounded memory.
 *
 *   BEGIN → temporary staging tables → stream: validate each entity, stage it in batches →
 *   SQL checks (duplicates, dangling references) → any problem: ROLLBACK, CatalogueError →
 *   merge (upserts, memberships, markers, --replace deletions) → COMMIT → a first import's
 *   secondary indexes and stored Event previews, on several connections (after-commit.ts) →
 *   ANALYZE (its own transaction, waiting for autovacuum rather than failing).
 *
 * When every parent of the Events comes before the first Event (a document's arrays in that
 * order, `lineup seed`'s demo), the parents' checks and merge run as soon as the first Event is
 * staged, while the rest are read and their batches wait in a file (parents-first.ts,
 * staging-spool.ts); the Events' checks and the rest of the merge follow the reading.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type pg from 'pg';
import type { Database } from '../db/database.js';
import { checkReferences, checkStaging } from './checks.js';
import { COLLECTIONS, type Collection } from './document.js';
import { mergeStaging, refreshStatistics, type CollectionCounts, type CountedReferences } from './merge.js';
import { finishAfterCommit } from './after-commit.js';
import { DirectMemberships } from './direct-memberships.js';
import { Stager } from './stager.js';
import { createStaging, finishStaging } from './staging.js';
import type { BatchEncoding, EncodedBatch } from './staging-batch.js';
import { readDocument, readEntities, type ReadResult } from './stream.js';

export { CatalogueError } from './document.js';
export type { CollectionCounts } from './merge.js';

export interface ImportProgress {
  /** Entities read so far. */
  readonly entities: number;
  /**
   * `reading` after each staged batch; then once `checking` and once `merging` (the long SQL
   * steps); then, when a first import's indexes and stored previews are written after COMMIT,
   * once `indexing`.
   */
  readonly phase: 'reading' | 'checking' | 'merging' | 'indexing';
}

export interface ImportOptions {
  /** Remove every entity the document lacks (`--replace`). */
  readonly replace?: boolean;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Entities per staging batch (default 2,000). */
  readonly batchSize?: number;
  /**
   * A first import's Event Artists and Venues resolved while reading and written by COPY
   * (direct-memberships.ts; default true). False joins every list in SQL, as any later import
   * does: the tests compare the two.
   */
  readonly directMemberships?: boolean;
  /**
   * The entities come with every parent (media, Artist, Venue, Series, Edition) before the first
   * Event (`lineup seed`'s demo document): the parents are merged while the Events are read
   * (parents-first.ts). A document read from text tells this itself (stream.ts).
   */
  readonly parentsFirst?: boolean;
}

export interface ImportSummary {
  /** The import time given to changed markers: UTC, 6 fractional digits. */
  readonly importedAt: string;
  readonly replace: boolean;
  /** Entities in the document. */
  readonly entities: number;
  readonly collections: Readonly<Record<Collection, CollectionCounts>>;
  readonly durationMs: number;
}

export type CatalogueSource = string | NodeJS.ReadableStream | AsyncIterable<string | Uint8Array>;

/** A file path, '-' for stdin, a stream, or an async iterable of text/bytes. */
function openSource(source: CatalogueSource): Readable {
  if (typeof source === 'string') return source === '-' ? process.stdin : fs.createReadStream(source);
  if (source instanceof Readable) return source;
  if (Symbol.asyncIterator in source) return Readable.from(source as AsyncIterable<string | Uint8Array>, { objectMode: false });
  return new Readable().wrap(source as NodeJS.ReadableStream);
}

/** Entities per staging batch (one COPY per staging table each). */
export const DEFAULT_BATCH_SIZE = 2000;

const ADVISORY_LOCK_KEY = 7_424_510_032; // "lineup" imports: one at a time


export async function importCatalogue(
  db: Database,
  source: CatalogueSource,
  opts: ImportOptions = {},
): Promise<ImportSummary> {
  return importWith(db, (sink) => readDocument(openSource(source), sink), opts);
}

/**
 * Imports entities built in-process (`lineup seed`), in document order, exactly as a document
 * holding them would be: the same validation, staging, checks, merge and single transaction.
 */
export async function importEntities(
  db: Database,
  entities: Iterable<readonly [Collection, unknown]>,
  opts: ImportOptions = {},
): Promise<ImportSummary> {
  return importWith(db, (sink) => readEntities(entities, sink), opts);
}

/**
 * Imports batches encoded elsewhere (`lineup seed`'s workers, demo/seed-workers.ts): `read` hands
 * each batch, in document order, to `stage` and resolves when the last one is staged. The same
 * staging, checks, merge and single transaction as a document.
 */
export async function importEncoded(
  db: Database,
  read: (stage: (batch: EncodedBatch) => Promise<void>, encoding: BatchEncoding) => Promise<void>,
  opts: ImportOptions = {},
): Promise<ImportSummary> {
  return importWith(db, async (stager) => {
    await read((batch) => stager.stage(batch), stager.encoding);
    return { complete: true };
  }, opts);
}

/**
 * No Event, Artist or Venue is stored: a first import, whose Event memberships are resolved in
 * Node (direct-memberships.ts) and whose rows have no stored hash to compare with.
 */
export async function storeIsEmpty(client: pg.PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ empty: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM events) AND NOT EXISTS (SELECT 1 FROM artists)
            AND NOT EXISTS (SELECT 1 FROM venues) AS empty`,
  );
  return rows[0]!.empty;
}

async function importWith(
  db: Database,
  read: (stager: Stager) => Promise<ReadResult>,
  opts: ImportOptions,
): Promise<ImportSummary> {
  const started = Date.now();
  const replace = opts.replace ?? false;
  const client = await db.pool.connect();
  let inTransaction = false;
  let broken: Error | undefined;
  let direct: DirectMemberships | null = null;
  let stager: Stager | null = null;
  try {
    await client.query('BEGIN');
    inTransaction = true;
    if (db.engine === 'postgres') {
      // a long import must not hit the API's per-statement limits; concurrent imports queue
      await client.query(`SET LOCAL statement_timeout = 0`);
      await client.query(`SET LOCAL lock_timeout = 0`);
      await client.query(`SET LOCAL work_mem = '64MB'`);
      await client.query(`SET LOCAL maintenance_work_mem = '128MB'`); // index builds of a first import
      await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK_KEY]);
    }
    const { rows } = await client.query<{ t: string }>(
      `SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t`,
    );
    const importedAt = rows[0]!.t;
    await createStaging(client);
    const first = await storeIsEmpty(client);
    if (first && (opts.directMemberships ?? true)) direct = DirectMemberships.create(db.copyIn);
    // the lists are written aside only when something resolves them; the hashes of an earlier
    // formula are compared only with hashes stored
    const encoding: BatchEncoding = { keepLists: direct !== null, formerHashes: !first };

    const staged = new Stager(
      db.copyIn, client, opts.batchSize ?? DEFAULT_BATCH_SIZE, encoding, opts.onProgress, direct ?? undefined,
      opts.parentsFirst ?? false, replace,
    );
    stager = staged;
    const { complete } = await read(staged);
    await staged.flush();
    const early = await staged.settle();
    // the lists are resolved while the backend checks and merges (direct-memberships.ts)
    direct?.resolve();
    let counted: CountedReferences | undefined;
    if (complete) {
      opts.onProgress?.({ entities: staged.entities, phase: 'checking' });
      const repeated = await finishStaging(client, COLLECTIONS.filter((c) => !early.finished.includes(c)));
      for (const c of early.repeated) repeated.add(c);
      const lists = await checkStaging(client, staged.problems, replace, repeated);
      const problems = staged.problems;
      counted = {
        lists,
        // a list's dangling reference, found by the merge: every reference checked, in order
        unresolved: async () => {
          await checkReferences(client, problems, replace);
          if (problems.total > 0) throw problems.toError();
        },
      };
    }
    if (staged.problems.total > 0) throw staged.problems.toError();

    opts.onProgress?.({ entities: staged.entities, phase: 'merging' });
    const begun = early.merge === null ? undefined : { merge: early.merge, resolved: early.resolved };
    const { counts: collections, statistics } = await mergeStaging(client, replace, counted, direct ?? undefined, begun);
    await direct?.close();
    direct = null;
    await client.query('COMMIT');
    inTransaction = false;
    try {
      await finishAfterCommit(db, client, () => opts.onProgress?.({ entities: staged.entities, phase: 'indexing' }));
    } catch (err) {
      broken = err as Error;
      throw new Error(`the catalogue was imported and committed, but building its indexes or stored previews, or checking its foreign keys, failed (\`lineup migrate\` finishes the rest): ${broken.message}`);
    }
    try {
      // after the indexes: ANALYZE also samples the expressions of expression indexes
      await refreshStatistics(client, db.engine, statistics);
    } catch (err) {
      broken = err as Error; // its session state is unknown: discarded, not returned to the pool
      throw new Error(`the catalogue was imported and committed, but refreshing the planner's statistics failed (run ANALYZE): ${broken.message}`);
    }
    return { importedAt, replace, entities: staged.entities, collections, durationMs: Date.now() - started };
  } catch (err) {
    // the parents' early statements and held COPYs settle first: nothing runs after the ROLLBACK
    await stager?.close();
    if (inTransaction) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackErr) {
        broken = rollbackErr as Error;
      }
    }
    throw err;
  } finally {
    await stager?.close();
    await direct?.close();
    // a connection that could not roll back is discarded, not returned to the pool
    client.release(broken);
  }
}

/** Counts of stored entities per collection (for tests and the CLI's report). */
export async function countCatalogue(db: Database): Promise<Record<Collection, number>> {
  const parts = COLLECTIONS.map((c) => `(SELECT count(*)::int FROM ${c}) AS ${c}`);
  const { rows } = await db.pool.query<Record<Collection, number>>(`SELECT ${parts.join(', ')}`);
  return rows[0]!;
}
