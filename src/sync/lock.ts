/**
 * One `lineup sync` at a time per mirror directory: `DIR/sync.lock`, created exclusively
 * (O_EXCL, `wx`) and holding `{"pid","host","token"}` (no time: a lock never expires by age).
 *
 * - A lock whose pid no longer runs on this host is stale (the run that held it crashed or was
 *   killed): it is taken over, with a notice. The stale file is first renamed to a name only this
 *   process uses and read back, so that two processes taking over the same stale lock cannot
 *   both win (the one that renamed a fresh lock instead puts it back and gives up).
 * - A lock held by a running process, by another host (whose processes cannot be seen from
 *   here), or that cannot be read refuses the run with a SyncError naming the holder.
 * - `release()` removes the file only while it still holds this run's token.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SyncError } from './files.js';

export const LOCK_FILE = 'sync.lock';

interface LockContent {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
}

export interface SyncLock {
  readonly file: string;
  release(): void;
}

function readLock(file: string): LockContent | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  try {
    const lock = JSON.parse(text) as LockContent;
    if (Number.isSafeInteger(lock.pid) && lock.pid > 0 && typeof lock.host === 'string' && typeof lock.token === 'string') return lock;
  } catch {
    // fall through
  }
  return 'unreadable';
}

/** Whether `pid` runs on this machine (EPERM: it runs, under another user). */
export function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(file: string, content: LockContent): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, `${JSON.stringify(content)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

const same = (a: LockContent, b: LockContent) => a.pid === b.pid && a.host === b.host && a.token === b.token;

/**
 * Takes the lock of `outDir` or throws a SyncError. `onNotice` hears about a stale lock taken over.
 * An empty or half-written lock is read again a few times (its creator may be writing it).
 */
export async function acquireLock(outDir: string, onNotice: (message: string) => void): Promise<SyncLock> {
  const file = join(outDir, LOCK_FILE);
  const mine: LockContent = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') };
  const held = (holder: string) =>
    new SyncError(`${outDir} is locked by ${holder} (${file}); wait for it to finish, or remove the file if no sync runs there`);
  let unreadable = 0;
  for (let attempt = 0; attempt < 20; attempt++) {
    if (tryCreate(file, mine)) {
      return {
        file,
        release() {
          const current = readLock(file);
          if (typeof current === 'object' && same(current, mine)) rmSync(file, { force: true });
        },
      };
    }
    const holder = readLock(file);
    if (holder === 'missing') continue; // released meanwhile: try again
    if (holder === 'unreadable') {
      if (++unreadable > 5) throw held('an unreadable lock file');
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    if (holder.host !== mine.host) throw held(`pid ${holder.pid} on host ${holder.host} (another host: whether it still runs cannot be checked from here)`);
    if (pidRuns(holder.pid)) throw held(`a running sync (pid ${holder.pid} on ${holder.host})`);
    // Stale: move it aside under a name of our own, and check that what we moved is what we judged.
    const aside = `${file}.takeover-${process.pid}-${mine.token}`;
    try {
      renameSync(file, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // another process took it over first
      throw err;
    }
    const moved = readLock(aside);
    if (typeof moved === 'object' && same(moved, holder)) {
      rmSync(aside, { force: true });
      onNotice(`took over the stale lock of pid ${holder.pid} on ${holder.host}, which no longer runs`);
      continue;
    }
    // We moved a lock that another process had just taken: put it back, unless yet another exists.
    try {
      linkSync(aside, file);
    } catch {
      // someone holds a newer lock; theirs stands
    }
    rmSync(aside, { force: true });
    throw held(typeof moved === 'object' ? `a running sync (pid ${moved.pid} on ${moved.host})` : 'another sync');
  }
  throw held('another sync (the lock kept changing hands)');
}
