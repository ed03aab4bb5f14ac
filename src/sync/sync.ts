/**
 * `lineup sync --base-url URL --out DIR`: mirrors the Events and Venues collections into local
 * files, following the specification's Incremental reading rules exactly:
 *
 * 1. The checkpoint of a collection is the greatest `updatedAt` STRING returned (strings are
 *    compared, never dates), advanced only after every page of the traversal succeeded and the
 *    mirror was written; an empty result keeps the previous checkpoint. Local time, `Date`,
 *    `Age`, durations and 304s are never used as progress (the state holds no time at all).
 * 2. Incremental runs read `sort=updatedAt&fields=<every field>&updatedSince=<checkpoint>`: the
 *    bound is inclusive, so the records at the checkpoint are read again (overlap), and every
 *    record is deduplicated by `publicId` (the later read wins). Absence in an incremental read
 *    never removes anything.
 * 3. Every `fullEvery` runs (and on the first run) a full traversal (`sort=updatedAt`, no lower
 *    bound) replaces the mirror with exactly what it saw, which also removes what is gone.
 *
 * Files in DIR: `events.jsonl` and `venues.jsonl` (one record per line, ordered by publicId) and
 * `state.json` (base URL, completed runs, the last full run, each collection's checkpoint). Each
 * file is written to a temporary file, flushed and renamed over the old one, so a crash leaves
 * either the old or the new file. A collection's data file is renamed before the state that
 * advances its checkpoint: a crash in between re-reads from the old checkpoint, and dedupe by
 * publicId makes that harmless. A crash during a traversal writes nothing: the next run starts
 * the traversal again, losing and duplicating nothing. (files.ts holds the file handling.)
 *
 * One run at a time (lock.ts): `sync.lock` is taken before anything in DIR is read or written and
 * released on success and on failure; a live holder refuses the run (SyncError), a stale one (its
 * pid no longer runs on this host) is taken over with a notice.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, type ClientOptions } from '../client/index.js';
import { EVENT_FIELDS } from '../plan/event-fields.js';
import { VENUE_FIELDS } from '../plan/resource-fields.js';
import { COLLECTIONS, SyncError, emptyState, readMirror, readState, writeMirror, writeState, type CollectionName, type MirrorRecord, type SyncState } from './files.js';
import { acquireLock } from './lock.js';

export { COLLECTIONS, SyncError, emptyState, readMirror, readState, writeAtomic, type CollectionName, type SyncState } from './files.js';
export { LOCK_FILE } from './lock.js';

const PATHS = { events: '/v1/events', venues: '/v1/venues' } as const;
const FIELDS: Record<CollectionName, readonly string[]> = { events: EVENT_FIELDS, venues: VENUE_FIELDS };

export interface SyncOptions {
  readonly baseUrl: string;
  readonly outDir: string;
  /** A full traversal every N runs (default 24; 1 = always full). */
  readonly fullEvery?: number;
  /** Force a full traversal on this run. */
  readonly forceFull?: boolean;
  /** Page size (1-50, default 50). */
  readonly limit?: number;
  /** Progress reports (the CLI prints them on a terminal). */
  readonly onProgress?: (p: SyncProgress) => void;
  /** One-line notices (a stale lock taken over). */
  readonly onNotice?: (message: string) => void;
  /** Passed to the client (fetch, sleep, retries… mostly for tests). */
  readonly client?: Omit<ClientOptions, 'baseUrl'>;
  /** Test hook: called after a collection's data file was written, before its checkpoint. */
  readonly afterDataWrite?: (collection: CollectionName) => void;
}

export interface SyncProgress {
  readonly collection: CollectionName;
  readonly mode: 'full' | 'incremental';
  readonly pages: number;
  readonly records: number;
}

export interface CollectionReport {
  readonly mode: 'full' | 'incremental';
  readonly pages: number;
  /** Records returned (before deduplication). */
  readonly read: number;
  /** Distinct records in the mirror after the run. */
  readonly mirrored: number;
  /** Records the full traversal removed from the mirror. */
  readonly removed: number;
  readonly checkpoint: string | null;
}

export interface SyncReport {
  readonly run: number;
  readonly mode: 'full' | 'incremental';
  readonly collections: Readonly<Record<CollectionName, CollectionReport>>;
}

export const DEFAULT_FULL_EVERY = 24;

/** The greater of two `updatedAt` strings (string comparison; null is less than anything). */
export function maxMarker(a: string | null, b: string | null | undefined): string | null {
  if (b === undefined || b === null) return a;
  if (a === null) return b;
  return b > a ? b : a;
}

export async function sync(opts: SyncOptions): Promise<SyncReport> {
  const fullEvery = opts.fullEvery ?? DEFAULT_FULL_EVERY;
  if (!Number.isSafeInteger(fullEvery) || fullEvery < 1) throw new SyncError(`fullEvery must be a whole number >= 1, got ${fullEvery}`);
  const limit = opts.limit ?? 50;
  const baseUrl = new URL(opts.baseUrl).href.replace(/\/+$/, '');
  mkdirSync(opts.outDir, { recursive: true });
  const lock = await acquireLock(opts.outDir, opts.onNotice ?? (() => {}));
  try {
    return await locked(opts, baseUrl, fullEvery, limit);
  } finally {
    lock.release();
  }
}

async function locked(opts: SyncOptions, baseUrl: string, fullEvery: number, limit: number): Promise<SyncReport> {
  // Temporary files a crashed run left behind (never renamed, so never part of the mirror).
  for (const name of readdirSync(opts.outDir)) {
    if (/^(events\.jsonl|venues\.jsonl|state\.json)\.tmp-\d+$/.test(name)) rmSync(join(opts.outDir, name), { force: true });
  }
  let state: SyncState = readState(opts.outDir) ?? emptyState(baseUrl);
  if (state.baseUrl !== baseUrl) {
    throw new SyncError(`${opts.outDir} mirrors ${state.baseUrl}, not ${baseUrl}; use another --out directory`);
  }
  const run = state.runs + 1;
  const full = opts.forceFull === true || state.lastFullRun === null || run - state.lastFullRun >= fullEvery;
  const mode = full ? 'full' : 'incremental';
  // Conditional requests cannot help a mirror (each URL is read once per run) and a 304 must
  // never stand for progress: the ETag cache is off.
  const client = createClient({ ...opts.client, baseUrl, etagCacheSize: 0 });
  const reports = {} as Record<CollectionName, CollectionReport>;

  for (const collection of COLLECTIONS) {
    const previous = state.checkpoints[collection];
    const query: Record<string, string | number> = { sort: 'updatedAt', fields: FIELDS[collection].join(','), limit };
    if (!full && previous !== null) query.updatedSince = previous;

    // The traversal: nothing is written until every page succeeded.
    const seen = new Map<string, MirrorRecord>();
    let greatest: string | null = null;
    let pages = 0;
    let read = 0;
    for await (const page of client.pages(PATHS[collection] as '/v1/events', { query: query as never })) {
      pages++;
      for (const record of page.body.data as MirrorRecord[]) {
        read++;
        seen.delete(record.publicId); // the later read wins, and keeps its read order
        seen.set(record.publicId, record);
        greatest = maxMarker(greatest, record.updatedAt);
      }
      opts.onProgress?.({ collection, mode, pages, records: read });
    }

    let mirror: Map<string, MirrorRecord>;
    let removed = 0;
    if (full) {
      const before = readMirror(opts.outDir, collection);
      for (const id of before.keys()) if (!seen.has(id)) removed++;
      mirror = seen;
    } else {
      mirror = readMirror(opts.outDir, collection);
      for (const [id, record] of seen) mirror.set(id, record);
    }
    writeMirror(opts.outDir, collection, mirror);
    opts.afterDataWrite?.(collection);
    const checkpoint = maxMarker(previous, greatest);
    state = { ...state, checkpoints: { ...state.checkpoints, [collection]: checkpoint } };
    writeState(opts.outDir, state);
    reports[collection] = { mode, pages, read, mirrored: mirror.size, removed, checkpoint };
  }

  state = { ...state, runs: run, lastFullRun: full ? run : state.lastFullRun };
  writeState(opts.outDir, state);
  return { run, mode, collections: reports };
}
