/**
 * `lineup sync` against the real server while the catalogue changes between pages (re-imports
 * between requests): the Incremental reading rules (checkpoint = greatest updatedAt string,
 * advanced only after a whole traversal; inclusive overlap; dedupe by publicId; full traversal
 * every N runs removing what is gone), crash safety and resumption, and the CLI.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMirror, readState, sync, type SyncOptions } from '../../src/sync/sync.js';
import { LineupNetworkError } from '../../src/client/index.js';
import { main } from '../../src/cli.js';
import { engines } from '../helper.js';
import { EV, VE, contractFetch, openClientWorld, serverState, type ClientWorld } from './world.js';
import { FIELDS, assertConverged, removeTempDirs, snapshot, tempDir } from './sync-helpers.js';

/**
 * A fetch that, before forwarding page number k (1-based, counted over the whole run) of a
 * collection read, applies mutations[k] to the catalogue and re-imports it. It records URLs.
 */
function mutatingFetch(w: ClientWorld, mutations: Record<number, () => void>, urls: string[]) {
  let page = 0;
  return contractFetch(async (input, init) => {
    const url = String(input);
    urls.push(url);
    page++;
    const mutate = mutations[page];
    if (mutate) {
      mutate();
      await w.reimport();
    }
    return fetch(input, init);
  });
}

afterEach(removeTempDirs);

for (const engine of engines()) {
  describe(`lineup sync against the server on ${engine.name}`, () => {
    let w: ClientWorld;
    before(async () => {
      w = await openClientWorld(engine, 30, 9);
    });
    after(async () => w.close());

    it('converges after the next full traversal while the catalogue changes between pages', async () => {
      const dir = tempDir();
      const urls: string[] = [];
      const cat = w.catalogue;
      const base = (mutations: Record<number, () => void>, fullEvery = 3): SyncOptions => ({
        baseUrl: w.server.base,
        outDir: dir,
        fullEvery,
        limit: 4,
        client: { fetch: mutatingFetch(w, mutations, urls) },
      });

      // Run 1: full. Between pages: an Event already read is renamed (it moves behind the
      // cursor's position, to the end), one not yet read is removed, a new one appears, a
      // Venue is edited (Event previews change without an Event marker change).
      const r1 = await sync(
        base({
          2: () => (cat.events.get(EV(1))!.name = 'Event 1, renamed during run 1'),
          3: () => cat.events.delete(EV(30)),
          4: () => cat.events.set(EV(101), { ...cat.events.get(EV(2))!, publicId: EV(101), slug: 'new-101', name: 'New during run 1' }),
          9: () => (cat.venues.get(VE(2))!.name = 'Venue 2, renamed during run 1'),
        }),
      );
      assert.equal(r1.mode, 'full');
      assert.ok(urls.every((u) => !u.includes('updatedSince')), 'a full traversal has no lower bound');
      assert.ok(urls.every((u) => u.includes('sort=updatedAt')));
      const m1 = readMirror(dir, 'events');
      assert.equal(m1.get(EV(1))!.name, 'Event 1, renamed during run 1', 'the later read wins');
      assert.ok(m1.has(EV(101)));
      const cp1 = readState(dir)!.checkpoints.events!;

      // Run 2: incremental from the checkpoint (inclusive), with deletions and edits between pages.
      urls.length = 0;
      const r2 = await sync(
        base({
          1: () => {
            cat.events.delete(EV(5));
            for (let n = 10; n <= 15; n++) cat.events.get(EV(n))!.name = `Event ${n}, renamed before run 2`;
          },
          2: () => {
            cat.events.get(EV(7))!.name = 'Event 7, renamed during run 2';
            cat.removeVenue(VE(9)); // a late traversal page sees Events without it
          },
          3: () => (cat.venues.get(VE(4))!.capacity = 4444),
        }),
      );
      assert.equal(r2.mode, 'incremental');
      assert.ok(urls[0]!.includes(`updatedSince=${encodeURIComponent(cp1)}`), `overlap: the bound is the checkpoint itself (${urls[0]})`);
      const m2 = readMirror(dir, 'events');
      assert.ok(r2.collections.events.pages >= 3, `the Events traversal spans the edits (${r2.collections.events.pages} pages)`);
      assert.equal(m2.get(EV(7))!.name, 'Event 7, renamed during run 2', 'an edit behind the cursor moves ahead of it');
      assert.deepEqual((m2.get(EV(8)) as Record<string, unknown>).venues, (await w.server.json(`/v1/events/${EV(8)}?fields=venues`)).body.data.venues, 'membership edits advance the Event marker');
      assert.ok(m2.has(EV(5)), 'absence in an incremental read never removes');
      assert.ok(readMirror(dir, 'venues').has(VE(9)));
      assert.ok(readState(dir)!.checkpoints.events! >= cp1, 'the checkpoint never goes back');

      // Run 3: incremental, nothing changes: every server record is mirrored with its marker.
      urls.length = 0;
      const r3 = await sync(base({}));
      assert.equal(r3.mode, 'incremental');
      const now = await serverState(w.server.base, FIELDS);
      const m3 = readMirror(dir, 'events');
      for (const [id, e] of now.events) assert.equal(m3.get(id)?.updatedAt, e.updatedAt, `incremental runs lose no change (${id})`);
      assert.ok(m3.has(EV(30)) || m3.has(EV(5)), 'removals are only seen by a full traversal');

      // Run 4: full (every 3 runs): the mirror is exactly the server's state.
      urls.length = 0;
      const r4 = await sync(base({}));
      assert.equal(r4.mode, 'full');
      assert.ok(r4.collections.events.removed >= 1 && r4.collections.venues.removed === 1, JSON.stringify(r4.collections));
      await assertConverged(w, dir);
      assert.deepEqual({ runs: readState(dir)!.runs, lastFullRun: readState(dir)!.lastFullRun }, { runs: 4, lastFullRun: 4 });
    });

    it('a crash during a traversal records nothing but its journal; the next run resumes without losing or duplicating', async () => {
      const dir = tempDir();
      const urls: string[] = [];
      await sync({ baseUrl: w.server.base, outDir: dir, limit: 5, client: { fetch: contractFetch() } });
      const before = snapshot(dir);

      // Changes, then a run that dies on its third request (after two pages were read).
      w.catalogue.events.get(EV(3))!.name = 'Event 3, renamed before the crash';
      w.catalogue.events.get(EV(4))!.name = 'Event 4, renamed before the crash';
      await w.reimport();
      let calls = 0;
      const dying: typeof fetch = async (i, init) => {
        if (++calls === 3) throw new TypeError('fetch failed (simulated crash)');
        urls.push(String(i));
        return fetch(i, init);
      };
      await assert.rejects(
        sync({ baseUrl: w.server.base, outDir: dir, limit: 1, client: { fetch: dying, retries: 0 } }),
        LineupNetworkError,
      );
      const { 'events.journal.jsonl': journal, ...files } = snapshot(dir);
      assert.deepEqual(files, before, 'nothing but the journal was written');
      assert.equal(journal!.split('\n').filter(Boolean).length, 3, 'the journal holds its header and the two pages read');

      // A crash after the Events file was written but before its checkpoint (the journal of
      // limit=1 is discarded: this run reads 5 per page). The complete journal stays.
      await assert.rejects(
        sync({
          baseUrl: w.server.base,
          outDir: dir,
          limit: 5,
          client: { fetch: contractFetch() },
          afterDataWrite: () => {
            throw new Error('simulated crash between the data file and the state');
          },
        }),
        /simulated crash/,
      );
      assert.equal(readState(dir)!.checkpoints.events, JSON.parse(before['state.json']!).checkpoints.events);
      assert.equal(readState(dir)!.runs, 1);

      writeFileSync(join(dir, 'events.jsonl.tmp-99999'), '{"publicId":"half-writt'); // a crash during a write
      const resumed = await sync({ baseUrl: w.server.base, outDir: dir, limit: 5, client: { fetch: contractFetch() } });
      assert.equal(resumed.run, 2);
      assert.equal(resumed.mode, 'incremental');
      assert.equal(resumed.collections.events.resumed, resumed.collections.events.pages, 'the complete journal is committed again, not re-read');
      const mirror = readMirror(dir, 'events');
      assert.equal(mirror.get(EV(3))!.name, 'Event 3, renamed before the crash');
      assert.equal(mirror.get(EV(4))!.name, 'Event 4, renamed before the crash');
      assert.deepEqual(readdirSync(dir).sort(), ['events.jsonl', 'state.json', 'venues.jsonl'], 'no temporary file, journal or lock is left');
      await sync({ baseUrl: w.server.base, outDir: dir, limit: 50, forceFull: true, client: { fetch: contractFetch() } });
      await assertConverged(w, dir);
    });

    it('an empty result keeps the checkpoint; a 304 or a Date header is never progress', async () => {
      const dir = tempDir();
      await sync({ baseUrl: w.server.base, outDir: dir, client: { fetch: contractFetch() } });
      const cp = readState(dir)!.checkpoints;
      // Every response says "304, Date in the far future": the sync sends no If-None-Match, so
      // it never gets to use one, and it reads no time from headers.
      const seen: (string | null)[] = [];
      const liar: typeof fetch = async (i, init) => {
        seen.push(new Headers(init?.headers).get('if-none-match'));
        const res = await fetch(i, init);
        const headers = new Headers(res.headers);
        headers.set('Date', 'Fri, 31 Dec 9999 23:59:59 GMT');
        headers.set('Age', '999999');
        return new Response(await res.text(), { status: res.status, headers });
      };
      await sync({ baseUrl: w.server.base, outDir: dir, client: { fetch: liar } });
      assert.ok(seen.every((h) => h === null), 'no conditional requests');
      assert.deepEqual(readState(dir)!.checkpoints, cp);

      // Every Venue removed: the full traversal empties the mirror, the checkpoint stays.
      const saved = new Map(w.catalogue.venues);
      for (const id of saved.keys()) w.catalogue.removeVenue(id);
      await w.reimport();
      const full = await sync({ baseUrl: w.server.base, outDir: dir, forceFull: true, client: { fetch: contractFetch() } });
      assert.equal(full.collections.venues.read, 0);
      assert.equal(readMirror(dir, 'venues').size, 0);
      assert.equal(readState(dir)!.checkpoints.venues, cp.venues);
      for (const [id, v] of saved) w.catalogue.venues.set(id, v);
      await w.reimport();
    });

    it('the CLI: --help, one-line usage errors (exit 2), API failures (exit 1), a run (exit 0)', async () => {
      const dir = tempDir();
      const out: string[] = [];
      const err: string[] = [];
      const log = console.log;
      const error = console.error;
      console.log = (...a: unknown[]) => void out.push(a.join(' '));
      console.error = (...a: unknown[]) => void err.push(a.join(' '));
      try {
        assert.equal(await main(['sync', '--help']), 0);
        assert.match(out.join('\n'), /Usage: lineup sync --base-url URL --out DIR/);
        const usage = async (args: string[], pattern: RegExp) => {
          err.length = 0;
          assert.equal(await main(['sync', ...args]), 2);
          assert.equal(err.length, 1, err.join('\n'));
          assert.match(err[0]!, pattern);
        };
        await usage([], /^lineup: sync: missing --base-url URL$/);
        await usage(['--base-url', w.server.base], /missing --out DIR/);
        await usage(['--base-url', 'ftp://x', '--out', dir], /must be an http\(s\) URL/);
        await usage(['--base-url', w.server.base, '--out', dir, '--full-every', '0'], /--full-every must be a positive whole number/);
        await usage(['--base-url', w.server.base, '--out', dir, '--bogus'], /^lineup: sync: Unknown option '--bogus'/);

        err.length = 0;
        assert.equal(await main(['sync', '--base-url', `${w.server.base}/not-the-api`, '--out', dir]), 1);
        assert.equal(err.length, 1);
        assert.match(err[0]!, /^lineup: sync: HTTP 404 not_found/);

        out.length = 0;
        assert.equal(await main(['sync', '--base-url', w.server.base, '--out', dir, '--full-every', '2']), 0);
        assert.match(out.join('\n'), /^run 1 \(full\) events: \d+ read in \d+ pages, \d+ mirrored, 0 removed, checkpoint \d{4}-/m);
        out.length = 0;
        assert.equal(await main(['sync', '--base-url', w.server.base, '--out', dir, '--full-every', '2']), 0);
        assert.match(out.join('\n'), /^run 2 \(incremental\) venues: /m);
        err.length = 0;
        assert.equal(await main(['sync', '--base-url', 'http://127.0.0.1:9/', '--out', dir]), 2);
        assert.match(err[0]!, /mirrors http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:9/);
      } finally {
        console.log = log;
        console.error = error;
      }
    });
  });
}
