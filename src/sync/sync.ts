/**
 * `lineup sync --base-url URL --out DIR`: mirrors the Events and Venues collections into local
 * files, following the specification's Incremental reading rules exactly:
 *
 * 1. The checkpoint of a collection is the greatest `updatedAt` STRING returned over the whole
 *    traversal (strings are compared, never dates), advanced only after every page of the
 *    traversal succeeded and the mirror was written; an empty result keeps the previous
 *    checkpoint. Local time, `Date`, `Age`, durations and 304s are never used as progress (the
 *    state and the journals hold no time at all; the ETag cache is off).
 * 2. Incremental runs read `sort=updatedAt&fields=<every field>&updatedSince=<checkpoint>`: the
 *    bound is inclusive, so the records at the checkpoint are read again (overlap), and every
 *    record is deduplicated by `publicId` (the later read wins). Absence in an incremental read
 *    never removes anything.
 * 3. Every `fullEvery` runs (and on the first run) a full traversal (`sort=updatedAt`, no lower
 *    bound) replaces the mirror with exactly what it saw, which also removes what is gone.
 *
 * Files in DIR (files.ts): `events.jsonl` and `venues.jsonl` (one record per line, ordered by
 * publicId), `state.json` (base URL, completed runs, the last full run, each collection's
 * checkpoint), and during a run or after an interrupted one `sync.lock` and
 * `<collection>.journal.jsonl`.
 *
 * - One run at a time (lock.ts): `sync.lock` is taken before anything in DIR is read or written
 *   (temporary files of crashed runs are removed only then) and released on success and on
 *   failure; a live holder refuses the run (SyncError), a stale one (its pid no longer runs on
 *   this host) is taken over with a notice.
 * - Resumable traversals (journal.ts): every page is appended to the collection's journal (all
 *   its records and its `links.next`) and fsynced before the next request. A traversal whose
 *   header (collection, mode, base URL, starting checkpoint, first URL: fields, limit, lower
 *   bound) equals the journal's replays the journaled pages (they count for dedupe, for the
 *   checkpoint and for what a full traversal saw) and continues from the last `links.next`,
 *   without requesting those pages again; any other journal is discarded with a notice. If the
 *   server refuses the journaled cursor (400 invalid_query), the journal is discarded and the
 *   traversal restarts from its first page.
 * - Stopping (`signal`, Ctrl-C in the CLI) is an interruption like any other: between pages or
 *   during a request, never inside a commit; the lock is released and the journal resumed.
 * - Bounded memory (merge.ts): a traversal keeps counters only; its records are in the journal,
 *   and the commit sorts them on disk in runs and merges them with the old mirror.
 * - Commit, collection by collection: the mirror file is written to a temporary file, flushed
 *   and renamed over the old one; then the state advancing the checkpoint, likewise; then the
 *   journal is removed. The run counter advances once both collections are committed. A crash
 *   before the mirror's rename resumes the journal. Between the renames, the next run of the
 *   same kind commits the complete journal again (another kind discards it and re-reads from the
 *   old checkpoint): dedupe by publicId makes either harmless. After the state's rename, a
 *   leftover journal no longer matches (the checkpoint moved) or commits the same records again.
 *   Nothing is lost or duplicated.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildUrl, createClient, LineupApiError, type ClientOptions, type LineupClient } from '../client/index.js';
import { EVENT_FIELDS } from '../plan/event-fields.js';
import { VENUE_FIELDS } from '../plan/resource-fields.js';
import { COLLECTIONS, SyncError, emptyState, readState, writeState, type CollectionName, type MirrorRecord, type SyncState } from './files.js';
import { JournalWriter, journalFile, removeJournal, replayJournal, type JournalHeader } from './journal.js';
import { acquireLock } from './lock.js';
import { commitMirror } from './merge.js';

export { COLLECTIONS, SyncError, emptyState, readMirror, readState, writeAtomic, type CollectionName, type SyncState } from './files.js';
export { LOCK_FILE } from './lock.js';
export { journalFile } from './journal.js';

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
  /** One-line notices: a stale lock taken over, a journal resumed, discarded or restarted. */
  readonly onNotice?: (message: string) => void;
  /** Passed to the client (fetch, sleep, retries… mostly for tests). */
  readonly client?: Omit<ClientOptions, 'baseUrl'>;
  /**
   * Stops the run (Ctrl-C in the CLI): a page being read or a retry being waited for is given
   * up, a collection being committed is committed first. The run rejects with the signal's
   * reason and releases the lock; the journal keeps the pages read, for the next run to resume.
   */
  readonly signal?: AbortSignal;
  /** Test hook: called after a collection's data file was written, before its checkpoint. */
  readonly afterDataWrite?: (collection: CollectionName) => void;
}

export interface SyncProgress {
  readonly collection: CollectionName;
  readonly mode: 'full' | 'incremental';
  /** Pages of the traversal so far, journaled pages of an interrupted run included. */
  readonly pages: number;
  readonly records: number;
}

export interface CollectionReport {
  readonly mode: 'full' | 'incremental';
  /** Pages of the traversal, including those replayed from the journal. */
  readonly pages: number;
  /** Pages replayed from the journal of an interrupted run (not requested again). */
  readonly resumed: number;
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

/**
 * What one traversal saw, counted: pages, records read, the greatest marker. The records
 * themselves live in the journal only; the commit merges them into the mirror (merge.ts).
 */
class Seen {
  greatest: string | null = null;
  pages = 0;
  read = 0;

  add(records: readonly MirrorRecord[]): void {
    this.pages++;
    for (const record of records) {
      this.read++;
      this.greatest = maxMarker(this.greatest, record.updatedAt);
    }
  }
}

interface Traversal {
  readonly client: LineupClient;
  readonly outDir: string;
  readonly collection: CollectionName;
  readonly header: JournalHeader;
  readonly notice: (message: string) => void;
  readonly progress: (seen: Seen) => void;
  readonly signal?: AbortSignal;
}

/** Reads every page of one traversal, resuming and extending its journal. */
async function traverse(t: Traversal): Promise<{ seen: Seen; resumed: number }> {
  const { collection, header } = t;
  const file = journalFile(t.outDir, collection);
  let seen = new Seen();
  const replay = replayJournal(file, header, (page) => seen.add(page.records));
  let next: string | null = header.url;
  let resumed = 0;
  let writer: JournalWriter | null = null;
  if (replay.kind === 'resumed' && replay.pages > 0) {
    resumed = replay.pages;
    next = replay.next;
    writer = JournalWriter.resume(file, replay.validBytes, replay.pages);
    t.notice(
      `${collection}: resuming the interrupted ${header.mode} traversal after ${resumed} journaled pages (${seen.read} records)` +
        (next === null ? '; it was complete' : ''),
    );
    t.progress(seen);
  } else {
    if (replay.kind === 'discarded') t.notice(`${collection}: discarded the journal of an earlier traversal (${replay.reason}); starting from the first page`);
    seen = new Seen();
    removeJournal(file); // the journal is created with the first page read
  }
  try {
    let fromJournal = resumed > 0;
    while (next !== null) {
      t.signal?.throwIfAborted();
      let body: { data: MirrorRecord[]; links: { next: string | null } };
      try {
        body = (await t.client.getUrl(next, undefined, t.signal)).body as never;
      } catch (err) {
        if (fromJournal && err instanceof LineupApiError && err.status === 400 && err.type === 'invalid_query') {
          const reason = err.message.slice(0, err.message.lastIndexOf(` (${err.url}`));
          t.notice(`${collection}: the server refused the journaled cursor (${reason}); restarting the ${header.mode} traversal from the first page`);
          writer?.close();
          writer = null;
          removeJournal(file);
          seen = new Seen();
          resumed = 0;
          next = header.url;
          fromJournal = false;
          continue;
        }
        throw err;
      }
      fromJournal = false;
      writer ??= JournalWriter.create(file, header);
      writer.page(body.links.next, body.data);
      seen.add(body.data);
      next = body.links.next;
      t.progress(seen);
    }
  } finally {
    writer?.close();
  }
  return { seen, resumed };
}

export async function sync(opts: SyncOptions): Promise<SyncReport> {
  const fullEvery = opts.fullEvery ?? DEFAULT_FULL_EVERY;
  if (!Number.isSafeInteger(fullEvery) || fullEvery < 1) throw new SyncError(`fullEvery must be a whole number >= 1, got ${fullEvery}`);
  const limit = opts.limit ?? 50;
  const baseUrl = new URL(opts.baseUrl).href.replace(/\/+$/, '');
  const notice = opts.onNotice ?? (() => {});
  mkdirSync(opts.outDir, { recursive: true });
  const lock = await acquireLock(opts.outDir, notice);
  try {
    return await locked(opts, baseUrl, fullEvery, limit, notice);
  } finally {
    lock.release();
  }
}

async function locked(opts: SyncOptions, baseUrl: string, fullEvery: number, limit: number, notice: (message: string) => void): Promise<SyncReport> {
  // Temporary files a crashed run left behind (never renamed, so never part of the mirror).
  for (const name of readdirSync(opts.outDir)) {
    if (/^(events\.jsonl|venues\.jsonl|state\.json|(events|venues)\.run-\d+)\.tmp-\d+$/.test(name)) rmSync(join(opts.outDir, name), { force: true });
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
    const header: JournalHeader = { journal: 1, collection, mode, baseUrl, checkpoint: previous, url: buildUrl(PATHS[collection], undefined, query) };

    // The traversal: nothing but the journal is written until every page succeeded.
    const { seen, resumed } = await traverse({
      client,
      outDir: opts.outDir,
      collection,
      header,
      notice,
      progress: (s) => opts.onProgress?.({ collection, mode, pages: s.pages, records: s.read }),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });

    // bounded memory: the journal's records are sorted on disk and merged with the old mirror
    const { mirrored, removed } = commitMirror(opts.outDir, collection, journalFile(opts.outDir, collection), full);
    opts.afterDataWrite?.(collection);
    const checkpoint = maxMarker(previous, seen.greatest);
    state = { ...state, checkpoints: { ...state.checkpoints, [collection]: checkpoint } };
    writeState(opts.outDir, state);
    removeJournal(journalFile(opts.outDir, collection));
    reports[collection] = { mode, pages: seen.pages, resumed, read: seen.read, mirrored, removed, checkpoint };
  }

  state = { ...state, runs: run, lastFullRun: full ? run : state.lastFullRun };
  writeState(opts.outDir, state);
  return { run, mode, collections: reports };
}
