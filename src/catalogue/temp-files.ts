/**
 * An import's temporary files (direct-memberships.ts, staging-spool.ts): a directory of its own
 * under the system's temporary directory (`TMPDIR`), files written by appends and read back, the
 * whole directory removed when the import ends. The directory's name carries the importing
 * process's id, so that the next import, seed or migrate removes the directories of imports that
 * were killed (`removeLeftovers`). A write that finds `TMPDIR` full throws `TempSpaceError`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A file written by appends and read back by offset or in chunks. */
export class TempFile {
  private length = 0;

  constructor(readonly fd: number) {}

  /** Bytes written since the file was opened or last cleared. */
  get size(): number {
    return this.length;
  }

  /** Appends `bytes` (whole); returns the offset they start at. */
  append(bytes: Uint8Array): number {
    const start = this.length;
    try {
      for (let at = 0; at < bytes.length; ) at += fs.writeSync(this.fd, bytes, at, bytes.length - at, start + at);
    } catch (err) {
      throw spaceError(err);
    }
    this.length += bytes.length;
    return start;
  }

  /** Reads `into.length` bytes from `offset` into `into`. */
  readAt(into: Buffer, offset: number): Buffer {
    for (let at = 0; at < into.length; ) {
      const n = fs.readSync(this.fd, into, at, into.length - at, offset + at);
      if (n <= 0) throw new Error('a temporary file of the import could not be read back');
      at += n;
    }
    return into;
  }

  /** The file's bytes in order, a chunk (of at most `buffer`'s length, read into it) at a time. */
  *chunks(buffer: Buffer): Generator<Buffer> {
    for (let at = 0; at < this.length; ) {
      const n = fs.readSync(this.fd, buffer, 0, Math.min(buffer.length, this.length - at), at);
      if (n <= 0) throw new Error('a temporary file of the import could not be read back');
      at += n;
      yield buffer.subarray(0, n);
    }
  }

  /** Empties the file: the next append writes from its start. */
  clear(): void {
    fs.ftruncateSync(this.fd, 0);
    this.length = 0;
  }
}

/** A directory of temporary files, created with its name's `prefix`. */
export class TempDir {
  private readonly files: TempFile[] = [];

  private constructor(readonly dir: string) {}

  /** `prefix` is one of TEMP_PREFIXES; the process's id follows it. */
  static create(prefix: TempPrefix): TempDir {
    try {
      return new TempDir(fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}${process.pid}-`)));
    } catch (err) {
      throw spaceError(err);
    }
  }

  /** A new file in the directory, readable and writable by its owner only. */
  open(name: string): TempFile {
    const file = new TempFile(fs.openSync(path.join(this.dir, name), 'w+', 0o600));
    this.files.push(file);
    return file;
  }

  /** Closes every file and removes the directory. */
  remove(): void {
    for (const file of this.files.splice(0)) fs.closeSync(file.fd);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The names the import's directories start with, each followed by the owner's pid and '-'. */
export const TEMP_PREFIXES = ['lineup-staging-', 'lineup-import-'] as const;
export type TempPrefix = (typeof TEMP_PREFIXES)[number];

const OWNED = new RegExp(`^(?:${TEMP_PREFIXES.join('|')})(\\d+)-[^/]+$`);

/** `TMPDIR` (or the system's temporary directory) has no room for the import's temporary files. */
export class TempSpaceError extends Error {
  override readonly name = 'TempSpaceError';
  constructor(readonly dir: string, cause: Error) {
    super(`no space left in TMPDIR (${dir}) for the import's temporary files: free space there or point TMPDIR elsewhere`, { cause });
  }
}

function spaceError(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOSPC' || code === 'EDQUOT' ? new TempSpaceError(os.tmpdir(), err as Error) : err;
}

/** Whether process `pid` exists: signal 0 probes it; EPERM means it exists under another user. */
function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Bytes of the files under `dir` (a leftover's size, for the report). */
function sizeOf(dir: string): number {
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    try {
      bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
    } catch {
      /* removed meanwhile */
    }
  }
  return bytes;
}

export interface Leftovers {
  /** The temporary directory searched. */
  readonly dir: string;
  readonly removed: number;
  readonly bytes: number;
}

/**
 * Removes the temporary directories of imports whose process no longer runs (killed, or stopped
 * by a crash before removing them); a live process's directory is never touched.
 */
export function removeLeftovers(dir: string = os.tmpdir()): Leftovers {
  let removed = 0;
  let bytes = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return { dir, removed, bytes };
  }
  for (const name of names) {
    const owner = OWNED.exec(name)?.[1];
    if (owner === undefined || running(Number(owner))) continue;
    const full = path.join(dir, name);
    try {
      const size = sizeOf(full);
      fs.rmSync(full, { recursive: true, force: true });
      removed += 1;
      bytes += size;
    } catch {
      /* not ours to remove (permissions), or removed by another process meanwhile */
    }
  }
  return { dir, removed, bytes };
}

/** The report line of `removeLeftovers`, or null when nothing was removed. */
export function describeLeftovers(l: Leftovers): string | null {
  if (l.removed === 0) return null;
  const mb = (l.bytes / 1024 / 1024).toFixed(1);
  return `removed ${l.removed} leftover temporary folder${l.removed === 1 ? '' : 's'} (${mb} MB) of imports that are no longer running from TMPDIR (${l.dir})`;
}
