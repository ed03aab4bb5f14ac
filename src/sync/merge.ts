/**
 * Commits a traversal into its mirror file in bounded memory. A mirror grows with the catalogue:
 * held as objects, a full run's memory would grow with it and the next incremental run, which
 * also loads the old mirror, would run out of heap (docs/architecture.md#memory-bounds).
 *
 * The journal already holds every record the traversal read, in read order. The commit
 *   1. cuts the journal's records into runs of `runSize`, each sorted by publicId (a stable sort:
 *      equal publicIds keep their read order) and written to a temporary file;
 *   2. merges the runs: per publicId the LAST read wins (later run, then later within a run);
 *   3. merges that with the old mirror (ordered by publicId): a full traversal keeps only what it
 *      read and counts the old publicIds it did not see (removed); an incremental one keeps the
 *      old records it did not read again;
 *   4. writes the new mirror to a temporary file, fsyncs and renames it over the old one.
 * Memory: one run (`runSize` records) plus one line per open file.
 */
import { closeSync, existsSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LineReader, forEachLine, replaceFile, type CollectionName, type MirrorRecord } from './files.js';

export const RUN_SIZE = 20_000;

/** A mirror line: the record's JSON with `publicId` as its first key (so it is read without parsing). */
export function mirrorLine(record: MirrorRecord): string {
  const { publicId, ...rest } = record;
  return JSON.stringify({ publicId, ...rest });
}

const ID_PREFIX = '{"publicId":"';

/** The publicId of a mirror line (written by mirrorLine; older lines are parsed). */
function idOf(line: string): string {
  if (line.startsWith(ID_PREFIX)) {
    const end = line.indexOf('"', ID_PREFIX.length);
    if (end !== -1) return line.slice(ID_PREFIX.length, end);
  }
  return (JSON.parse(line) as MirrorRecord).publicId;
}

interface Entry {
  readonly id: string;
  readonly line: string;
}

/** Sorted, deduplicated (last read wins) records of the journal's pages, as a pull iterator. */
function* journalRecords(journal: string, runSize: number, runFile: (n: number) => string): Generator<Entry> {
  const runs: string[] = [];
  let buffer: Entry[] = [];
  const flush = () => {
    if (buffer.length === 0) return;
    buffer.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)); // stable: read order kept
    const file = runFile(runs.length);
    const fd = openSync(file, 'w');
    try {
      for (let i = 0; i < buffer.length; i += 1000) {
        writeSync(fd, buffer.slice(i, i + 1000).map((e) => `${e.line}\n`).join(''));
      }
    } finally {
      closeSync(fd);
    }
    runs.push(file);
    buffer = [];
  };
  let header = true;
  forEachLine(journal, (text) => {
    if (header) {
      header = false;
      return;
    }
    for (const record of (JSON.parse(text) as { records: MirrorRecord[] }).records) {
      buffer.push({ id: record.publicId, line: mirrorLine(record) });
      if (buffer.length >= runSize) flush();
    }
  });
  flush();

  const readers = runs.map((file) => new LineReader(file));
  try {
    const heads: Array<Entry | null> = readers.map((r) => {
      const line = r.next();
      return line === null ? null : { id: idOf(line), line };
    });
    for (;;) {
      let id: string | null = null;
      for (const h of heads) if (h !== null && (id === null || h.id < id)) id = h.id;
      if (id === null) return;
      // every entry of this publicId, runs in read order: the last one read wins
      let winner: Entry | null = null;
      for (let i = 0; i < heads.length; i++) {
        while (heads[i] != null && heads[i]!.id === id) {
          winner = heads[i]!;
          const line = readers[i]!.next();
          heads[i] = line === null ? null : { id: idOf(line), line };
        }
      }
      yield winner!;
    }
  } finally {
    for (const r of readers) r.close();
    for (const file of runs) rmSync(file, { force: true });
  }
}

export interface CommitResult {
  /** Records in the new mirror. */
  readonly mirrored: number;
  /** Old records a full traversal did not see (0 for an incremental one). */
  readonly removed: number;
}

/** Replaces `DIR/<collection>.jsonl` by the journal's traversal (see the module comment). */
export function commitMirror(outDir: string, collection: CollectionName, journal: string, full: boolean, runSize = RUN_SIZE): CommitResult {
  const mirrorFile = join(outDir, `${collection}.jsonl`);
  const runFile = (n: number) => join(outDir, `${collection}.run-${n}.tmp-${process.pid}`);
  const fresh = existsSync(journal) ? journalRecords(journal, runSize, runFile) : ([] as Entry[])[Symbol.iterator]();
  const old = existsSync(mirrorFile) ? new LineReader(mirrorFile) : null;
  let mirrored = 0;
  let removed = 0;
  try {
    const nextOld = (): Entry | null => {
      let line = old?.next() ?? null;
      while (line === '') line = old!.next();
      return line === null ? null : { id: idOf(line), line };
    };
    let a = fresh.next();
    let b = nextOld();
    replaceFile(mirrorFile, (fd) => {
      let out: string[] = [];
      const emit = (line: string) => {
        mirrored++;
        out.push(`${line}\n`);
        if (out.length >= 1000) {
          writeSync(fd, out.join(''));
          out = [];
        }
      };
      while (!a.done || b !== null) {
        if (!a.done && (b === null || a.value.id <= b.id)) {
          if (b !== null && b.id === a.value.id) b = nextOld(); // read again: the new record wins
          emit(a.value.line);
          a = fresh.next();
        } else {
          if (full) removed++;
          else emit(b!.line);
          b = nextOld();
        }
      }
      if (out.length > 0) writeSync(fd, out.join(''));
    });
  } finally {
    old?.close();
    fresh.return?.(undefined);
  }
  return { mirrored, removed };
}
