/**
 * What the CLI says when the disk fills under an import, or the embedded store cannot open or
 * stops answering: the cause, and the folder or setting to free. An import is one transaction,
 * so each message also says that the previous catalogue is kept.
 */
import fs from 'node:fs';
import type { DatabaseTarget } from '../config/config.js';

/** PostgreSQL's SQLSTATE for "disk full" (could not extend a file, write a temporary file…). */
export const DISK_FULL = '53100';

/**
 * Below this much free space a PGlite store that fails is taken to be full: recovering, or
 * writing on, needs room for a new 16 MB WAL segment besides the rows themselves.
 */
export const LOW_SPACE_BYTES = 64 * 1024 * 1024;

const KEPT = 'nothing was written: the previous catalogue is kept and served';

/** Bytes free for this user on the filesystem of `dir`; null when it cannot be read. */
export function freeSpace(dir: string): number | null {
  try {
    const s = fs.statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function pgliteFull(dataDir: string, free: number | null): string {
  const room = free === null ? '' : ` (${mb(free)} free there; it needs room for a 16 MB WAL segment besides the rows)`;
  return `the PGlite store ${dataDir} is full${room}: free space there or move the store to a larger disk`;
}

/**
 * The message for an import, seed or migrate that failed for lack of disk space, or null when
 * `err` is not one. `free`: the bytes free beside a PGlite store (freeSpace), for the message.
 */
export function diskFaultMessage(err: unknown, target: DatabaseTarget, free: number | null): string | null {
  if (err instanceof Error && err.name === 'TempSpaceError') return `${err.message}; ${KEPT}`;
  if ((err as { code?: unknown }).code !== DISK_FULL) return null;
  const detail = (err as Error).message;
  if (target.engine === 'postgres') {
    return `PostgreSQL ran out of disk (${DISK_FULL}: ${detail}): free space on the database server (its data directory, or the temp_tablespaces its sorts write to), then import again; ${KEPT}`;
  }
  if (target.dataDir === null) return `the in-memory PGlite store ran out of space (${detail}); ${KEPT}`;
  return `${pgliteFull(target.dataDir, free)} (${detail}); ${KEPT}`;
}

/**
 * The message for a command whose database stopped answering in the middle of a statement: an
 * embedded PGlite whose PostgreSQL exited (its WAL could not grow on a full disk) leaves the
 * statement unanswered, and the process with nothing left to do.
 */
export function stalledMessage(target: DatabaseTarget, free: number | null): string {
  if (target.engine === 'pglite' && target.dataDir !== null) {
    const cause = free !== null && free < LOW_SPACE_BYTES ? pgliteFull(target.dataDir, free) : 'see its folder and the lines above';
    return `the embedded database of the PGlite store ${target.dataDir} stopped without answering: ${cause}; ${KEPT} once the store opens again`;
  }
  return `the database stopped without answering in the middle of a statement; ${KEPT}`;
}

/** The message for a PGlite store that failed to open (`cause`: PGlite's own error). */
export function storeOpenMessage(dataDir: string, cause: string, free: number | null): string {
  const likely =
    free !== null && free < LOW_SPACE_BYTES
      ? `likely cause: ${pgliteFull(dataDir, free)}; once there is room it opens with its last committed catalogue`
      : 'another program may hold or have damaged the folder; it opens again once that is resolved';
  return `the PGlite store ${dataDir} cannot be opened (${cause}); ${likely}`;
}

/** A store that cannot be opened or stopped answering: the CLI prints its message and exits 1. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
}

/**
 * `work`, or a StoreError with `describe()`'s message when the process runs out of things to do
 * while `work` is still pending: a statement the embedded database will never answer (Node would
 * otherwise exit 0, saying nothing).
 */
export async function untilSettled<T>(work: Promise<T>, describe: () => string): Promise<T> {
  let onIdle = (): void => {};
  const stalled = new Promise<never>((_, reject) => {
    onIdle = () => reject(new StoreError(describe()));
    process.once('beforeExit', onIdle);
  });
  try {
    return await Promise.race([work, stalled]);
  } finally {
    process.off('beforeExit', onIdle);
  }
}
