/**
 * `lineup sync` against the real server: one run per mirror directory (the lock file, a live
 * holder refused, a stale one taken over, released on failure).
 */
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LOCK_FILE, SyncError, readState, sync, type SyncOptions } from '../../src/sync/sync.js';
import { pidRuns } from '../../src/sync/lock.js';
import { LineupNetworkError } from '../../src/client/index.js';
import { main } from '../../src/cli.js';
import { engines } from '../helper.js';
import { contractFetch, openClientWorld, type ClientWorld } from './world.js';
import { removeTempDirs, tempDir } from './sync-helpers.js';

afterEach(removeTempDirs);

/** A fetch that records the URLs it forwards and throws on request number `failAt` (1-based). */
function recordingFetch(urls: string[], failAt = 0): typeof fetch {
  let n = 0;
  return contractFetch(async (input, init) => {
    if (++n === failAt) throw new TypeError('fetch failed (simulated interruption)');
    urls.push(String(input));
    return fetch(input, init);
  });
}

/** Runs the CLI with console output captured. */
async function cli(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => void out.push(a.join(' '));
  console.error = (...a: unknown[]) => void err.push(a.join(' '));
  try {
    return { code: await main(['sync', ...args]), out, err };
  } finally {
    console.log = log;
    console.error = error;
  }
}

for (const engine of engines()) {
  describe(`lineup sync: lock and resumable traversals on ${engine.name}`, () => {
    let w: ClientWorld;
    before(async () => {
      w = await openClientWorld(engine, 30, 9);
    });
    after(async () => w.close());
    const options = (dir: string, urls: string[], extra: Partial<SyncOptions> = {}, failAt = 0): SyncOptions => ({
      baseUrl: w.server.base,
      outDir: dir,
      limit: 4,
      client: { fetch: recordingFetch(urls, failAt), retries: 0 },
      ...extra,
    });

    it('one run per directory: a live lock refuses a second run (exit 2), a stale one is taken over, failures release it', async () => {
      const dir = tempDir();
      const lockFile = join(dir, LOCK_FILE);
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let entered!: () => void;
      const started = new Promise<void>((resolve) => (entered = resolve));
      const held: typeof fetch = async (input, init) => {
        entered();
        await gate;
        return fetch(input, init);
      };
      const first = sync({ baseUrl: w.server.base, outDir: dir, client: { fetch: held } });
      await started; // the first run holds the lock and waits for its first page
      const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number; host: string };
      assert.deepEqual([lock.pid, lock.host], [process.pid, hostname()], 'the lock names its holder');
      await assert.rejects(
        sync({ baseUrl: w.server.base, outDir: dir, client: { fetch: contractFetch() } }),
        (err: Error) => err instanceof SyncError && new RegExp(`is locked by a running sync \\(pid ${process.pid} on `).test(err.message),
      );
      const refused = await cli(['--base-url', w.server.base, '--out', dir]);
      assert.equal(refused.code, 2);
      assert.equal(refused.err.length, 1, refused.err.join('\n'));
      assert.match(refused.err[0]!, /^lineup: sync: .* is locked by a running sync \(pid \d+ on .*\); wait for it to finish/);
      assert.ok(existsSync(lockFile), 'the refused runs leave the lock alone');
      open();
      assert.equal((await first).run, 1);
      assert.ok(!existsSync(lockFile), 'released on completion');

      // A lock left by a process that no longer runs (on this host) is taken over, with a message.
      const dead = spawnSync(process.execPath, ['-e', '']).pid!;
      assert.equal(pidRuns(dead), false);
      writeFileSync(lockFile, JSON.stringify({ pid: dead, host: hostname(), token: 'crashed' }));
      const notices: string[] = [];
      const second = await sync({ baseUrl: w.server.base, outDir: dir, client: { fetch: contractFetch() }, onNotice: (m) => notices.push(m) });
      assert.equal(second.run, 2);
      assert.deepEqual(notices, [`took over the stale lock of pid ${dead} on ${hostname()}, which no longer runs`]);
      assert.ok(!existsSync(lockFile));
      writeFileSync(lockFile, JSON.stringify({ pid: dead, host: hostname(), token: 'crashed again' }));
      const viaCli = await cli(['--base-url', w.server.base, '--out', dir]);
      assert.equal(viaCli.code, 0);
      assert.match(viaCli.err.join('\n'), /^lineup: sync: took over the stale lock of pid \d+/);
      assert.match(viaCli.out.join('\n'), /^run 3 \(incremental\) events: /m);

      // The lock of another host cannot be judged from here: refused, and left in place.
      writeFileSync(lockFile, JSON.stringify({ pid: dead, host: 'elsewhere.invalid', token: 'far' }));
      await assert.rejects(sync({ baseUrl: w.server.base, outDir: dir }), /is locked by pid \d+ on host elsewhere\.invalid \(another host/);
      assert.ok(existsSync(lockFile));
      writeFileSync(lockFile, '{"pid":');
      await assert.rejects(sync({ baseUrl: w.server.base, outDir: dir }), /is locked by an unreadable lock file/);

      // Failures release it: the API fails, the network fails, the directory mirrors another API.
      writeFileSync(lockFile, JSON.stringify({ pid: dead, host: hostname(), token: 'crashed' }));
      await assert.rejects(sync(options(dir, [], {}, 2)), LineupNetworkError);
      assert.ok(!existsSync(lockFile), 'released after a network failure');
      await assert.rejects(sync({ baseUrl: `${w.server.base}/elsewhere`, outDir: dir }), /mirrors http/);
      assert.ok(!existsSync(lockFile), 'released after a refusal');
      assert.equal(readState(dir)!.runs, 3);
    });
  });
}
