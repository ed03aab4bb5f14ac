/**
 * `lineup import FILE [--replace]` (decisions §6): streams a catalogue document into the store
 * in ONE transaction, in bounded memory.
 *
 *   BEGIN → temporary staging tables → stream: validate each entity, stage it in batches →
 *   SQL checks (duplicates, dangling references) → any problem: ROLLBACK, CatalogueError →
 *   merge (upserts, memberships, markers, --replace deletions) → COMMIT → ANALYZE.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type pg from 'pg';
import type { CopyIn } from '../db/copy.js';
import type { Database } from '../db/database.js';
import { checkStaging } from './checks.js';
import { COLLECTIONS, ProblemList, type Collection } from './document.js';
import { mergeStaging, refreshStatistics, type CollectionCounts } from './merge.js';
import { placeholderRow, stageRow, type Cell } from './rows.js';
import { createStaging, finishStaging, insertStaged } from './staging.js';
import { readDocument, readEntities, type DocumentSink, type ReadResult } from './stream.js';
import { validateEntity } from './validate.js';

export { CatalogueError } from './document.js';
export type { CollectionCounts } from './merge.js';

export interface ImportProgress {
  /** Entities read so far. */
  readonly entities: number;
  /** `reading` after each staged batch; then once `checking` and once `merging` (the long SQL steps). */
  readonly phase: 'reading' | 'checking' | 'merging';
}

export interface ImportOptions {
  /** Remove every entity the document lacks (`--replace`). */
  readonly replace?: boolean;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Entities per staging batch (default 2,000). */
  readonly batchSize?: number;
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

const ADVISORY_LOCK_KEY = 7_424_510_032; // "lineup" imports: one at a time

/** Collects validated entities into per-collection batches and stages them. */
class Stager implements DocumentSink {
  readonly problems = new ProblemList();
  entities = 0;
  private pending = new Map<Collection, Cell[][]>();
  private size = 0;

  constructor(
    private readonly copyIn: CopyIn,
    private readonly client: pg.PoolClient,
    private readonly batchSize: number,
    private readonly onProgress?: (p: ImportProgress) => void,
  ) {}

  get wantsFlush(): boolean {
    return this.size >= this.batchSize;
  }

  entity(collection: Collection, index: number, value: unknown): void {
    this.entities++;
    const { publicId, record, partial } = validateEntity(collection, value, index, this.problems);
    let row: Cell[] | null = null;
    // invalid entities are staged as placeholders: they still count for duplicates and references
    if (record) row = stageRow(collection, index, record);
    else if (publicId && partial) row = placeholderRow(collection, index, publicId, partial);
    if (!row) return;
    let rows = this.pending.get(collection);
    if (!rows) this.pending.set(collection, (rows = []));
    rows.push(row);
    this.size++;
  }

  problem(message: string): void {
    this.problems.add(message);
  }

  async flush(): Promise<void> {
    const batches = this.pending;
    this.pending = new Map();
    this.size = 0;
    for (const [collection, rows] of batches) await insertStaged(this.copyIn, this.client, collection, rows);
    this.onProgress?.({ entities: this.entities, phase: 'reading' });
  }
}

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

async function importWith(
  db: Database,
  read: (sink: DocumentSink) => Promise<ReadResult>,
  opts: ImportOptions,
): Promise<ImportSummary> {
  const started = Date.now();
  const replace = opts.replace ?? false;
  const client = await db.pool.connect();
  let inTransaction = false;
  let broken: Error | undefined;
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

    const stager = new Stager(db.copyIn, client, opts.batchSize ?? 2000, opts.onProgress);
    const { complete } = await read(stager);
    await stager.flush();
    if (complete) {
      opts.onProgress?.({ entities: stager.entities, phase: 'checking' });
      await finishStaging(client);
      await checkStaging(client, stager.problems, replace);
    }
    if (stager.problems.total > 0) throw stager.problems.toError();

    opts.onProgress?.({ entities: stager.entities, phase: 'merging' });
    const collections = await mergeStaging(client, replace);
    await client.query('COMMIT');
    inTransaction = false;
    await refreshStatistics(client);
    return { importedAt, replace, entities: stager.entities, collections, durationMs: Date.now() - started };
  } catch (err) {
    if (inTransaction) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackErr) {
        broken = rollbackErr as Error;
      }
    }
    throw err;
  } finally {
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
