/**
 * Proof of the production topology with the real components (docs/operations.md, decisions §7),
 * `npm run test:topology`, run by CI as root:
 *
 *   lineup import ──▶ PostgreSQL primary ──streaming──▶ hot standby ◀── Lineup "direct"
 *                     (timezone America/New_York)          ▲      (LINEUP_DB_PIPELINE=2)
 *                                                          └── PgBouncer 1.18 (transaction pooling,
 *                                                              options ignored) ◀── Lineup "pooled"
 *                                                              (LINEUP_PREPARED_STATEMENTS=false)
 *                                                              ◀── Lineup "pooled-auto" (no setting)
 *
 * Every collection route is walked to its end through each process, cursors crossing between
 * them; details and 304s; no 5xx under concurrent load; a re-import on the primary shows through
 * the standby; the standby stopped and started mid-load gives 503s, then the same processes recover.
 * Then HAProxy in front of two more Lineup processes on the standby (haproxy-proof.ts): client
 * addresses through the PROXY protocol, the keep-alive rule, and a graceful stop under load.
 * Last, the standby promoted to a primary under load: the same processes go on reading from it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { join } from 'node:path';
import { demoDocumentChunks } from '../../src/catalogue/demo.js';
import {
  Cleanup,
  TIME_ZONE,
  createAppDatabase,
  lineupCommand,
  missingPrerequisites,
  startLineup,
  startPgBouncer,
  startPrimary,
  startStandby,
  waitForReplay,
  workDir,
  type LineupProcess,
  type PgBouncer,
  type Postgres,
} from './cluster.js';
import { haproxyProof } from './haproxy-proof.js';
import { runLoad, sleep } from './load.js';
import { TOP_COLLECTIONS, collectionPaths, getPage, traverse, type Fetcher } from './traverse.js';

const missing = missingPrerequisites();
// CI installs what the topology needs: there a missing piece is a failure, not a skip
if (missing && process.env.LINEUP_TOPOLOGY_REQUIRED === '1') throw new Error(`the topology test cannot run: it ${missing}`);
const PORT_BASE = Number(process.env.LINEUP_TOPOLOGY_PORT_BASE ?? 25400);
const EVENTS = 800;
/** Enough admitted reads for the load's clients (admission does not queue: more would be 503s by design). */
const SERVE_ENV = { LINEUP_RATE_BURST: '1000000', LINEUP_DB_READS: '4' };
const CLIENTS = 4;

describe('production topology: primary, streaming hot standby, PgBouncer, Lineup', { skip: missing ?? false, timeout: 230_000 }, () => {
  const cleanup = new Cleanup();
  let dir: string;
  let primary: Postgres;
  let standby: Postgres;
  let bouncer: PgBouncer;
  let direct: LineupProcess;
  let pooled: LineupProcess;
  let auto: LineupProcess;
  let document: any;
  let catalogueFile: string;
  const onPrimary = () => ({ DATABASE_URL: primary.url('lineup', 'lineup') });
  const all = () => [direct, pooled, auto];
  const fetchers = (): Fetcher[] => all().map((p) => p.get);

  before(async () => {
    dir = workDir(cleanup);
    primary = startPrimary(dir, PORT_BASE, cleanup);
    await createAppDatabase(primary);
    standby = startStandby(primary, dir, PORT_BASE + 1, cleanup);
    bouncer = await startPgBouncer(dir, PORT_BASE + 2, standby, cleanup);
    document = JSON.parse([...demoDocumentChunks({ events: EVENTS, seed: 'topology', anchorDate: '2026-03-15' })].join(''));
    catalogueFile = join(dir, 'catalogue.json');
    writeFileSync(catalogueFile, JSON.stringify(document));
  });
  after(() => cleanup.run());

  it('both servers run with timezone America/New_York; the standby is in recovery', async () => {
    for (const server of [primary, standby]) {
      const [row] = await server.sql<{ tz: string }>('SELECT current_setting($1) AS tz', ['TimeZone']);
      assert.equal(row!.tz, TIME_ZONE, server.name);
    }
    const [row] = await standby.sql<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
    assert.equal(row!.r, true);
  });

  it('serve on the standby before the primary is migrated stops with one line naming the command', async () => {
    await waitForReplay(primary, standby);
    await assert.rejects(startLineup('early', { ...SERVE_ENV, DATABASE_URL: standby.url('lineup', 'lineup') }, cleanup), (err: any) => {
      assert.equal(err.exitCode, 1, err.output);
      const lines = String(err.output).trim().split('\n').filter((l) => l.startsWith('lineup: '));
      assert.equal(lines.length, 1, err.output);
      assert.match(lines[0]!, /schema is behind this Lineup and the database is read-only .*missing migrations 001_catalogue, .*`lineup migrate` against the primary/);
      return true;
    });
  });

  it('lineup migrate and lineup import on the primary; the standby replays them', async () => {
    const migrated = lineupCommand(['migrate'], onPrimary());
    assert.equal(migrated.code, 0, migrated.err);
    assert.match(migrated.out, /applied migrations 1, /);
    const imported = lineupCommand(['import', catalogueFile], onPrimary());
    assert.equal(imported.code, 0, imported.err);
    assert.match(imported.out, new RegExp(`events ${EVENTS} \\(${EVENTS} new`));
    await waitForReplay(primary, standby);
    const [row] = await standby.sql<{ n: number }>('SELECT count(*)::int AS n FROM events', [], 'lineup');
    assert.equal(row!.n, EVENTS);
  });

  it('behind PgBouncer the startup options are dropped; settings made on the role reach every pooled session', async () => {
    const through = async () => {
      const client = new pg.Client({ connectionString: bouncer.url(), options: '-c statement_timeout=1234' });
      await client.connect();
      try {
        return (await client.query(`SELECT current_setting('statement_timeout') AS st, current_setting('jit') AS jit, current_setting('TimeZone') AS tz`)).rows[0];
      } finally {
        await client.end();
      }
    };
    assert.equal((await through()).st, '0', 'the options startup parameter was ignored');
    // docs/operations.md: the role's settings, made once on the primary, replicate to the standby
    await primary.sql(`ALTER ROLE lineup SET statement_timeout = '3s'`);
    await primary.sql(`ALTER ROLE lineup SET jit = off`);
    await primary.sql(`ALTER ROLE lineup SET max_parallel_workers_per_gather = 0`);
    await waitForReplay(primary, standby);
    // role settings apply when a server session starts: PgBouncer's RECONNECT replaces its server sessions
    await bouncer.admin('RECONNECT lineup');
    let seen: unknown;
    await until(async () => {
      const row = (seen = await through());
      return row.st === '3s' && row.jit === 'off';
    }, () => `role settings through PgBouncer, last seen ${JSON.stringify(seen)}`);
    assert.equal((await through()).tz, TIME_ZONE, 'the server time zone stays: Lineup does not depend on it');
  });

  it('a role that may only SELECT: served on the primary without DDL; a schema behind stops it with one line', async () => {
    await primary.sql('CREATE ROLE reader LOGIN');
    await primary.sql('GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader', [], 'lineup');
    const env = { ...SERVE_ENV, DATABASE_URL: primary.url('reader', 'lineup') };
    const serving = await startLineup('select-only', env, cleanup);
    assert.equal((await getPage(serving.get, '/v1/events?limit=1')).status, 200);
    assert.equal(await serving.stop(), 0);
    // the last migration "not applied yet": this role cannot apply it
    const [last] = await primary.sql<{ version: number; name: string }>('DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations) RETURNING version, name', [], 'lineup');
    try {
      await assert.rejects(startLineup('select-only-behind', env, cleanup), (err: any) => {
        assert.equal(err.exitCode, 1, err.output);
        const lines = String(err.output).trim().split('\n').filter((l) => l.startsWith('lineup: '));
        assert.equal(lines.length, 1, err.output);
        assert.match(lines[0]!, new RegExp(`behind this Lineup and this role may not change it .*missing migrations ${String(last!.version).padStart(3, '0')}_${last!.name};.*\`lineup migrate\` against the primary`));
        return true;
      });
    } finally {
      await primary.sql('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [last!.version, last!.name], 'lineup');
    }
    await waitForReplay(primary, standby);
  });

  it('Lineup starts on the standby, directly and through PgBouncer, running no DDL', async () => {
    [direct, pooled, auto] = await Promise.all([
      // direct connections to the standby: the named statements on pipelined connections too
      startLineup('direct', { ...SERVE_ENV, DATABASE_URL: standby.url('lineup', 'lineup'), LINEUP_DB_PIPELINE: '2' }, cleanup),
      startLineup('pooled', { ...SERVE_ENV, DATABASE_URL: bouncer.url(), LINEUP_PREPARED_STATEMENTS: 'false' }, cleanup),
      startLineup('pooled-auto', { ...SERVE_ENV, DATABASE_URL: bouncer.url() }, cleanup),
    ]);
    for (const p of all()) {
      const ready = await getPage(p.get, '/v1/ready');
      assert.equal(ready.status, 200, `${p.name}: ${p.output()}`);
    }
  });

  it('every collection route walked to its end through each process, cursors crossing between them', async () => {
    const paths = await collectionPaths(direct.get, 2);
    let pages = 0;
    for (const path of paths) {
      const alone = await traverse([direct.get], path);
      assert.equal(alone.at(-1)!.status, 200, `${path}: ${JSON.stringify(alone.at(-1)!.body)}`);
      for (const order of [[pooled.get, direct.get], [auto.get, pooled.get, direct.get], [pooled.get], [auto.get]]) {
        const crossed = await traverse(order, path);
        assert.deepEqual(
          crossed.map((p) => [p.status, p.etag, p.body]),
          alone.map((p) => [p.status, p.etag, p.body]),
          path,
        );
      }
      pages += alone.length;
    }
    // the whole catalogue was walked: every Event once
    const events = await traverse(fetchers(), '/v1/events?limit=50&fields=name');
    const ids = events.flatMap((p) => p.body.data.map((e: { publicId: string }) => e.publicId));
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.length > 500, `${ids.length} Events`);
    assert.ok(pages > 60, `${pages} pages`);
    for (const top of TOP_COLLECTIONS) assert.ok(paths.some((p) => p.startsWith(`${top}?`)));
    // the direct process's named statements ran on its pipelined connections to the standby
    const piped = await standby.sql<{ query: string }>(
      `SELECT query FROM pg_stat_activity WHERE application_name = 'lineup-pipelined' AND backend_type = 'client backend'`,
    );
    assert.equal(piped.length, 2, JSON.stringify(piped));
    // (a connection that has run nothing shows an empty query: one at a time, the first takes every statement)
    assert.ok(piped.some((r) => /^\s*SELECT /.test(r.query)), JSON.stringify(piped.map((r) => r.query.slice(0, 80))));
  });

  it('details and 304s: an ETag from one process is current on the others', async () => {
    const sample = async (collection: string) =>
      ((await getPage(direct.get, `${collection}?limit=6`)).body.data as Array<{ publicId: string }>).map((x) => `${collection}/${x.publicId}`);
    const details = [...(await sample('/v1/events')), ...(await sample('/v1/artists')), ...(await sample('/v1/venues')), ...(await sample('/v1/series'))];
    for (const path of details) {
      const first = await getPage(direct.get, path);
      assert.equal(first.status, 200, path);
      for (const p of all()) {
        const again = await getPage(p.get, path);
        assert.deepEqual([again.status, again.etag, again.body], [200, first.etag, first.body], `${p.name} ${path}`);
        const conditional = await p.get(path, { headers: { 'if-none-match': first.etag! } });
        assert.equal(conditional.status, 304, `${p.name} ${path}`);
      }
    }
  });

  it('no 5xx under a few seconds of concurrent load through all three processes', async () => {
    const paths = await loadPaths(direct.get);
    const result = await runLoad({ targets: fetchers(), paths, concurrency: CLIENTS, until: sleep(4000) });
    assert.deepEqual(result.failures.slice(0, 5), [], JSON.stringify(result.statuses));
    assert.ok((result.statuses[200] ?? 0) > 100 && (result.statuses[304] ?? 0) > 10, JSON.stringify(result.statuses));
    console.log(`load: ${result.requests} requests in 4 s, statuses ${JSON.stringify(result.statuses)}`);
    // the process without the setting met the pooler's prepared-statement errors and went on unnamed
    assert.match(auto.output(), /named prepared statements turned off/);
    assert.doesNotMatch(pooled.output(), /named prepared statements turned off/);
  });

  it('a re-import on the primary becomes visible through the standby', async () => {
    const event = document.events[0];
    const path = `/v1/events/${event.publicId}`;
    const before = await getPage(pooled.get, path);
    assert.equal(before.status, 200);
    event.name = `${event.name} (moved)`;
    // the demo catalogue gives every entity its marker; without one the import sets it because the content changed
    delete event.updatedAt;
    writeFileSync(catalogueFile, JSON.stringify(document));
    const imported = lineupCommand(['import', catalogueFile], onPrimary());
    assert.equal(imported.code, 0, imported.err);
    assert.match(imported.out, /events 800 \(0 new, 1 changed/);
    await waitForReplay(primary, standby);
    for (const p of all()) {
      const now = await p.get(path, { headers: { 'if-none-match': before.etag! } });
      assert.equal(now.status, 200, `${p.name}: the old ETag is no longer current`);
      const body = (await now.json()) as { data: { name: string; updatedAt: string } };
      assert.equal(body.data.name, event.name, p.name);
      assert.ok(body.data.updatedAt > before.body.data.updatedAt, p.name);
    }
  });

  it('the standby stopped and started mid-load: 503s, then the same processes recover', async () => {
    const pids = all().map((p) => p.child.pid);
    const paths = await loadPaths(direct.get);
    let recovered!: () => void;
    const finished = new Promise<void>((r) => (recovered = r));
    const load = runLoad({ targets: fetchers(), paths, concurrency: CLIENTS, until: finished });
    await sleep(500);
    standby.stop();
    // every process reports not ready while its database is gone
    for (const p of all()) await until(async () => (await p.get('/v1/ready')).status === 503, () => `${p.name} not ready (its output: ${p.output().slice(-2000)})`);
    standby.start();
    for (const p of all()) await until(async () => (await p.get('/v1/ready')).status === 200, () => `${p.name} ready again (its output: ${p.output().slice(-2000)})`);
    await sleep(1000);
    recovered();
    const result = await load;
    console.log(`standby restart: ${result.requests} requests, statuses ${JSON.stringify(result.statuses)}`);
    const other = result.failures.filter((f) => f.status !== 503);
    assert.deepEqual(other.slice(0, 5), [], 'only 503s while the standby was away');
    assert.ok((result.statuses[503] ?? 0) > 0, 'the outage was seen');
    for (const f of result.failures.slice(0, 50)) assert.equal(JSON.parse(f.body).error.type, 'unavailable');
    // recovered without a restart: the same processes serve the whole catalogue again
    assert.deepEqual(all().map((p) => p.child.pid), pids);
    for (const p of all()) {
      const walked = await traverse([p.get], '/v1/venues?limit=20');
      assert.equal(walked.at(-1)!.status, 200, p.name);
      const after = await runLoad({ targets: [p.get], paths, concurrency: 2, until: sleep(300) });
      assert.deepEqual(after.failures.slice(0, 3), [], p.name);
    }
  });

  haproxyProof(() => ({ cleanup, dir, databaseUrl: standby.url('lineup', 'lineup'), portBase: PORT_BASE, loadPaths }));

  // last: the standby is a primary from here on
  it('the standby promoted while the processes read from it: the same processes, only 200, 304 and 503 with Retry-After, reads 200 after', async () => {
    const pids = all().map((p) => p.child.pid);
    const paths = await loadPaths(direct.get);
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const load = runLoad({ targets: fetchers(), paths, concurrency: CLIENTS, until: stopped });
    await standby.promote();
    const [row] = await standby.sql<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
    assert.equal(row!.r, false, 'promoted');
    // every process reads through the promoted server: each path answers 200 (polled, bounded)
    for (const p of all()) {
      for (const { path } of paths) await until(async () => (await p.get(path)).status === 200, `${p.name} ${path} answers 200 after the promotion`, 15_000);
    }
    stop();
    const result = await load;
    console.log(`standby promoted: ${result.requests} requests, statuses ${JSON.stringify(result.statuses)}`);
    assert.deepEqual(all().map((p) => [p.child.pid, p.child.exitCode]), pids.map((pid) => [pid, null]), 'the same processes serve');
    const others = Object.keys(result.statuses).filter((s) => !['200', '304', '503'].includes(s));
    assert.deepEqual(others, [], JSON.stringify(result.failures.slice(0, 3)));
    for (const f of result.failures) {
      assert.match(f.retryAfter ?? '', /^[1-9][0-9]*$/, `Retry-After of a 503 on ${f.path}`);
      assert.equal(JSON.parse(f.body).error.type, 'unavailable', f.path);
    }
    assert.ok((result.statuses[200] ?? 0) > 0, JSON.stringify(result.statuses));
  });

  it('SIGTERM: every process exits 0', async () => {
    assert.deepEqual(await Promise.all(all().map((p) => p.stop())), [0, 0, 0]);
  });
});

/** First pages, cursor pages and details, with ETags for conditional re-reads. */
async function loadPaths(fetcher: Fetcher): Promise<Array<{ path: string; etag: string | null }>> {
  const paths: Array<{ path: string; etag: string | null }> = [];
  for (const first of ['/v1/events?limit=20', '/v1/events?sort=updatedAt&limit=10', '/v1/artists?limit=20', '/v1/venues?limit=10', '/v1/series?limit=5']) {
    const pages = await traverse([fetcher], first, 3);
    for (const page of pages) paths.push({ path: page.path, etag: page.etag });
    for (const item of (pages[0]!.body.data as Array<{ publicId: string }>).slice(0, 3)) {
      const detail = await getPage(fetcher, `${first.split('?')[0]}/${item.publicId}`);
      paths.push({ path: detail.path, etag: detail.etag });
    }
  }
  return paths;
}

async function until(check: () => Promise<boolean>, what: string | (() => string), timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let failure = '';
  for (;;) {
    try {
      if (await check()) return;
    } catch (err) {
      failure = (err as Error).message; // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${typeof what === 'string' ? what : what()} ${failure}`);
    await sleep(100);
  }
}
