/**
 * The durable files of a mirror directory (see the module comment of sync.ts): the state, the
 * mirror files, atomic replacement, and a line reader that never holds a whole file in one string
 * (a mirror or a journal of a large catalogue is larger than the longest string V8 allows).
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, readSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Event, Venue } from '../client/index.js';

export const COLLECTIONS = ['events', 'venues'] as const;
export type CollectionName = (typeof COLLECTIONS)[number];
export type MirrorRecord = (Event | Venue) & { publicId: string; updatedAt?: string };

export class SyncError extends Error {
  override name = 'SyncError';
}

export interface SyncState {
  readonly version: 1;
  readonly baseUrl: string;
  /** Completed runs. */
  readonly runs: number;
  /** The run number (1-based) of the last completed full traversal, or null. */
  readonly lastFullRun: number | null;
  /** Greatest `updatedAt` string seen per collection (null: nothing seen yet). */
  readonly checkpoints: Readonly<Record<CollectionName, string | null>>;
}

export function emptyState(baseUrl: string): SyncState {
  return { version: 1, baseUrl, runs: 0, lastFullRun: null, checkpoints: { events: null, venues: null } };
}

export function readState(outDir: string): SyncState | null {
  const file = join(outDir, 'state.json');
  if (!existsSync(file)) return null;
  let state: SyncState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as SyncState;
  } catch (err) {
    throw new SyncError(`${file} is not valid JSON (${(err as Error).message})`);
  }
  if (state.version !== 1 || typeof state.runs !== 'number' || typeof state.checkpoints !== 'object') {
    throw new SyncError(`${file} is not a lineup sync state`);
  }
  return state;
}

export function writeState(outDir: string, state: SyncState): void {
  writeAtomic(join(outDir, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
}

/** Reads a file line by line on demand, never holding more than a chunk and one line. */
export class LineReader {
  private readonly fd: number;
  private readonly chunk = Buffer.alloc(1 << 20);
  private buffered = Buffer.alloc(0);
  private eof = false;
  /** Bytes of the file consumed into complete (newline-terminated) lines. */
  offset = 0;

  constructor(file: string) {
    this.fd = openSync(file, 'r');
  }

  /** The next newline-terminated line (without its newline), or null; a torn tail stays pending. */
  nextComplete(): string | null {
    for (;;) {
      const nl = this.buffered.indexOf(0x0a);
      if (nl !== -1) {
        const line = this.buffered.toString('utf8', 0, nl);
        this.buffered = this.buffered.subarray(nl + 1);
        this.offset += nl + 1;
        return line;
      }
      if (this.eof) return null;
      const n = readSync(this.fd, this.chunk, 0, this.chunk.length, null);
      if (n === 0) this.eof = true;
      else this.buffered = Buffer.concat([this.buffered, this.chunk.subarray(0, n)]);
    }
  }

  /** The next line, a last line without newline included; null at the end. */
  next(): string | null {
    const line = this.nextComplete();
    if (line !== null || this.buffered.length === 0) return line;
    const tail = this.buffered.toString('utf8');
    this.buffered = Buffer.alloc(0);
    return tail;
  }

  /** Bytes after the last newline (a torn last write), once the end is reached. */
  get pending(): number {
    return this.buffered.length;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * Calls `onLine(text, end)` for every newline-terminated line of `file`, `end` being the byte
 * offset just past its newline. Returns the bytes after the last newline (a torn last write).
 */
export function forEachLine(file: string, onLine: (line: string, end: number) => void): number {
  const reader = new LineReader(file);
  try {
    for (let line = reader.nextComplete(); line !== null; line = reader.nextComplete()) onLine(line, reader.offset);
    return reader.pending;
  } finally {
    reader.close();
  }
}

/** The mirror of one collection, keyed by publicId. */
export function readMirror(outDir: string, collection: CollectionName): Map<string, MirrorRecord> {
  const file = join(outDir, `${collection}.jsonl`);
  const map = new Map<string, MirrorRecord>();
  if (!existsSync(file)) return map;
  forEachLine(file, (line) => {
    if (line === '') return;
    const record = JSON.parse(line) as MirrorRecord;
    map.set(record.publicId, record);
  });
  return map;
}

/** Writes `file` atomically: temporary file written by `write`, fsync, rename. */
export function replaceFile(file: string, write: (fd: number) => void): void {
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    write(fd);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** Writes `text` to `file` atomically: temporary file, fsync, rename. */
export function writeAtomic(file: string, text: string): void {
  replaceFile(file, (fd) => writeSync(fd, text));
}
