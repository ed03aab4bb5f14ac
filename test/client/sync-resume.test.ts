/**
 * `lineup sync` against the real server: one run per mirror directory (the lock file, a live
 * holder refused, a stale one taken over, released on failure) and resumable traversals (the
 * journal of an interrupted traversal is continued from its last next-link without reading its
 * pages again; a journal of another kind of traversal, or whose cursor the server refuses, is
 * discarded and the traversal starts again from its first page).
 */
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LOCK_FILE, SyncError, journalFile, readMirror, readState, sync, type SyncOptions } from '../../src/sync/sync.js';
import { pidRuns } from '../../src/sync/lock.js';
import { LineupNetworkError } from '../../src/client/index.js';
import { main } from '../../src/cli.js';
import { engines } from '../helper.js';
import { cliArgs } from '../spawn-args.js';
import { EV, contractFetch, openClientWorld, type ClientWorld } from './world.js';
import { assertConverged, lines, removeTempDirs, tempDir } from './sync-helpers.js';

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

interface JournalLine {
  page?: number;
  next?: string | null;
  records?: { publicId: string; updatedAt: string }[];
  mode?: string;
  checkpoint?: string | null;
  url?: string;
}
const journal = (dir: string): JournalLine[] => lines(dir, 'events.journal.jsonl').map((l) => JSON.parse(l) as JournalLine);

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

    it('an interrupted full traversal continues from its journal: no page is read twice, nothing lost or duplicated', async () => {
      const dir = tempDir();
      const urls: string[] = [];
      // Run 1 dies on its 4th request: three pages of 4 Events were read and journaled.
      await assert.rejects(sync(options(dir, urls, {}, 4)), LineupNetworkError);
      assert.deepEqual(readdirSync(dir), ['events.journal.jsonl'], 'no mirror, no state, no lock: only the journal');
      const j = journal(dir);
      assert.deepEqual(j.map((l) => l.page ?? 'header'), ['header', 1, 2, 3]);
      assert.equal(j[0]!.mode, 'full');
      assert.equal(`${w.server.base}${j[0]!.url}`, urls[0], 'the header names the first page');
      assert.deepEqual(j.slice(1).map((l) => `${w.server.base}${l.next}`), [...urls.slice(1), `${w.server.base}${j[3]!.next}`]);
      const saved = j[3]!.next!;
      assert.match(saved, /cursor=/);
      const journaled = new Set(j.slice(1).flatMap((l) => l.records!.map((r) => r.publicId)));
      assert.equal(journaled.size, 12);

      // Meanwhile: an Event already read changes (it moves ahead of the cursor), one not yet read
      // is removed, a new one appears. And the process died while appending a fourth page.
      const cat = w.catalogue;
      const [readOne] = [...journaled];
      const unread = [...cat.events.keys()].find((id) => !journaled.has(id))!;
      cat.events.get(readOne!)!.name = 'Read before the interruption, renamed after';
      cat.events.delete(unread);
      cat.events.set(EV(201), { ...cat.events.get(EV(2))!, publicId: EV(201), slug: 'new-201', name: 'New after the interruption' });
      await w.reimport();
      appendFileSync(journalFile(dir, 'events'), '{"page":4,"next":"/v1/events?sort=upd');

      urls.length = 0;
      const notices: string[] = [];
      const r = await sync(options(dir, urls, { onNotice: (m) => notices.push(m) }));
      assert.deepEqual(notices, ['events: resuming the interrupted full traversal after 3 journaled pages (12 records)']);
      assert.equal(r.run, 1);
      assert.equal(r.mode, 'full');
      assert.equal(urls[0], `${w.server.base}${saved}`, 'the first request continues from the journaled next-link');
      const eventUrls = urls.filter((u) => u.includes('/v1/events'));
      assert.ok(eventUrls.every((u) => u.includes('cursor=')), 'the journaled pages are not requested again');
      assert.equal(r.collections.events.resumed, 3);
      assert.equal(eventUrls.length, r.collections.events.pages - 3);
      assert.equal(r.collections.events.read, r.collections.events.mirrored + 1, 'the renamed Event was read twice and kept once');
      const mirror = readMirror(dir, 'events');
      assert.equal(mirror.get(readOne!)!.name, 'Read before the interruption, renamed after', 'the later read wins');
      assert.ok(!mirror.has(unread) && mirror.has(EV(201)));
      assert.deepEqual(readdirSync(dir).sort(), ['events.jsonl', 'state.json', 'venues.jsonl'], 'the journal is removed once committed');
      await assertConverged(w, dir);
    });

    it('an interrupted incremental traversal keeps its lower bound and its journaled markers count for the checkpoint', async () => {
      const dir = tempDir();
      const cat = w.catalogue;
      cat.events.get(EV(21))!.name = 'Event 21, the checkpoint';
      await w.reimport();
      await sync(options(dir, []));
      const cp0 = readState(dir)!.checkpoints.events!;
      for (const n of [22, 23, 24]) cat.events.get(EV(n))!.name = `Event ${n}, after the checkpoint`;
      await w.reimport();

      // limit 2: page 1 = Event 21 (at the checkpoint: overlap) and Event 22; dies on page 2.
      await assert.rejects(sync(options(dir, [], { limit: 2 }, 2)), LineupNetworkError);
      const j = journal(dir);
      assert.equal(j[0]!.checkpoint, cp0);
      assert.ok(j[0]!.url!.includes(`updatedSince=${encodeURIComponent(cp0)}`));
      assert.deepEqual(j[1]!.records!.map((r) => r.publicId), [EV(21), EV(22)]);
      const cp1 = j[1]!.records![1]!.updatedAt;
      assert.ok(cp1 > cp0);
      // What the rest of the traversal would have read is gone: the journal alone holds the
      // greatest marker this traversal saw.
      cat.events.delete(EV(23));
      cat.events.delete(EV(24));
      await w.reimport();

      const urls: string[] = [];
      const r = await sync(options(dir, urls, { limit: 2 }));
      assert.equal(r.mode, 'incremental');
      assert.equal(urls[0], `${w.server.base}${j[1]!.next}`);
      assert.deepEqual([r.collections.events.resumed, r.collections.events.pages], [1, 2]);
      assert.equal(readState(dir)!.checkpoints.events, cp1, 'the checkpoint is the greatest marker of the whole traversal');
      assert.equal(readMirror(dir, 'events').get(EV(22))!.name, 'Event 22, after the checkpoint');

      // A journal of another kind of traversal (incremental, and this run is full) is discarded.
      cat.events.get(EV(25))!.name = 'Event 25, after the second checkpoint';
      await w.reimport();
      await assert.rejects(sync(options(dir, [], { limit: 1 }, 2)), LineupNetworkError); // incremental: page 1 journaled
      assert.equal(journal(dir).length, 2);
      const notices: string[] = [];
      urls.length = 0;
      const full = await sync(options(dir, urls, { forceFull: true, onNotice: (m) => notices.push(m) }));
      assert.equal(full.mode, 'full');
      assert.equal(full.collections.events.resumed, 0);
      assert.ok(!urls[0]!.includes('cursor=') && !urls[0]!.includes('updatedSince'), urls[0]);
      assert.match(notices.join('\n'), /^events: discarded the journal of an earlier traversal \(it is of an incremental traversal and this run is full\); starting from the first page$/);
      await assertConverged(w, dir);
    });

    it('a stopped run (signal) gives up between pages, releases the lock and keeps its journal; the next run resumes', async () => {
      const dir = tempDir();
      const stop = new AbortController();
      const urls: string[] = [];
      const onProgress: SyncOptions['onProgress'] = (p) => {
        if (p.collection === 'events' && p.pages === 2) stop.abort();
      };
      await assert.rejects(sync(options(dir, urls, { signal: stop.signal, onProgress })), (err: Error) => err.name === 'AbortError');
      assert.equal(urls.length, 2, 'no request after the stop');
      assert.deepEqual(readdirSync(dir), ['events.journal.jsonl'], 'no lock, no mirror, no state: the journal');
      assert.deepEqual(journal(dir).map((l) => l.page ?? 'header'), ['header', 1, 2]);
      const r = await sync(options(dir, []));
      assert.equal(r.collections.events.resumed, 2);
      await assertConverged(w, dir);

      // A stop during a retry wait ends the wait at once (Retry-After: 60 here).
      const busy = tempDir();
      const retrying = new AbortController();
      const started = Date.now();
      const unavailable: typeof fetch = async () => {
        setTimeout(() => retrying.abort(), 50);
        return new Response('{"ok":false,"error":{"type":"unavailable","message":"busy"}}', {
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '60' },
        });
      };
      await assert.rejects(
        sync({ baseUrl: w.server.base, outDir: busy, signal: retrying.signal, client: { fetch: unavailable } }),
        (err: Error) => err.name === 'AbortError',
      );
      // (not a latency: a wait that ignored the stop would last the full 60 s)
      assert.ok(Date.now() - started < 30_000, `stopped after ${Date.now() - started} ms`);
      assert.ok(!existsSync(join(busy, LOCK_FILE)));
    });

    it('Ctrl-C stops `lineup sync` during a request: exit 130, a message, the lock released; the next run completes', async () => {
      const dir = tempDir();
      // A proxy that holds every response until the interrupted run has exited (so the stop comes
      // during a request however slow the machine), and says when the first request arrived.
      let arrived!: () => void;
      const firstRequest = new Promise<void>((resolve) => (arrived = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const proxy = http.createServer((req, res) => {
        arrived();
        void released.then(() => {
          fetch(`${w.server.base}${req.url}`)
            .then(async (upstream) => {
              const headers: Record<string, string> = {};
              upstream.headers.forEach((v, k) => (headers[k] = v));
              delete headers['content-length'];
              res.writeHead(upstream.status, headers).end(Buffer.from(await upstream.arrayBuffer()));
            })
            .catch(() => res.destroy());
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      try {
        const child = spawn(process.execPath, cliArgs(['sync', '--base-url', base, '--out', dir]), {
          env: { ...process.env, LINEUP_LOG_LEVEL: 'silent' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
        await firstRequest;
        assert.ok(existsSync(join(dir, LOCK_FILE)), 'the run holds the lock');
        child.kill('SIGINT');
        assert.equal(await exited, 130, stderr);
        release();
        assert.match(stderr, /^lineup: sync: stopping \(press Ctrl-C again to exit at once\)…$/m);
        assert.match(stderr, /^lineup: sync: stopped; the checkpoint did not move, the next run continues from the last page journaled in /m);
        assert.ok(!existsSync(join(dir, LOCK_FILE)), 'the lock is released');
        assert.equal(readState(dir), null, 'nothing committed');
        const again = await cli(['--base-url', base, '--out', dir]);
        assert.equal(again.code, 0, again.err.join('\n'));
        assert.equal(readState(dir)!.runs, 1);
      } finally {
        release();
        proxy.closeAllConnections();
        await new Promise((resolve) => proxy.close(resolve));
      }
    });

    it('a journaled cursor the server refuses (400 invalid_query) restarts the traversal from its first page', async () => {
      const dir = tempDir();
      await assert.rejects(sync(options(dir, [], {}, 3)), LineupNetworkError);
      const file = journalFile(dir, 'events');
      const [header, page1, page2] = journal(dir);
      // The saved cursor no longer fits (here: altered, so its integrity check fails), and a record
      // the server never had sits in the journal: a restart must forget both.
      const next = new URL(page2!.next!, 'http://x');
      const cursor = next.searchParams.get('cursor')!;
      next.searchParams.set('cursor', `${cursor.slice(0, 8)}${cursor[8] === 'A' ? 'B' : 'A'}${cursor.slice(9)}`);
      page1!.records!.push({ publicId: 'EvFAKE000001', updatedAt: '9999-12-31T23:59:59.999999Z' });
      writeFileSync(file, [header, page1, { ...page2, next: `${next.pathname}${next.search}` }].map((l) => `${JSON.stringify(l)}\n`).join(''));

      const urls: string[] = [];
      const notices: string[] = [];
      const r = await sync(options(dir, urls, { onNotice: (m) => notices.push(m) }));
      assert.equal(notices.length, 2, notices.join('\n'));
      assert.match(notices[1]!, /^events: the server refused the journaled cursor \(HTTP 400 invalid_query: .*\); restarting the full traversal from the first page$/);
      assert.equal(urls[0], `${w.server.base}${next.pathname}${next.search}`);
      assert.equal(urls[1], `${w.server.base}${header!.url}`, 'then the first page again');
      assert.equal(r.collections.events.resumed, 0);
      assert.ok(!readMirror(dir, 'events').has('EvFAKE000001'));
      assert.ok(!existsSync(file));
      await assertConverged(w, dir);
    });
  });
}
