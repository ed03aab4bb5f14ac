/**
 * An import's temporary files (direct-memberships.ts, staging-spool.ts): a directory of its own
 * under the system's temporary directory (`TMPDIR`), files written by appends and read back, the
 * whole directory removed when the import ends.
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
    for (let at = 0; at < bytes.length; ) at += fs.writeSync(this.fd, bytes, at, bytes.length - at, start + at);
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

  static create(prefix: string): TempDir {
    return new TempDir(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
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
