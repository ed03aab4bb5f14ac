#!/usr/bin/env node
/**
 * `npm run bench` — the performance benchmark of issue 7 (see docs/performance.md).
 *
 *   1. Prepare: a deterministic demo catalogue of N Events (default 1,000,000; --quick = 100,000;
 *      --events N) through `lineup seed`, kept between runs (table bench_catalogue / a meta file
 *      records size and seed; a matching store is reused), then VACUUM ANALYZE.
 *   2. In process: build the app with a statement observer, capture each scenario's SQL, time that
 *      SQL through `pg` alone, and EXPLAIN (ANALYZE, BUFFERS) it; any sequential scan of the events
 *      table fails the run.
 *   3. Load: Lineup (`lineup serve`, its own process, limits raised) and a bare Fastify ceiling
 *      route (a fixed body the size of the Events first page) driven by autocannon at concurrency
 *      1 and 16 after a warm-up; the server's peak RSS is sampled from /proc.
 *   4. Report: bench/results.md (1M on PostgreSQL) or bench/results-<engine>-<N>.md.
 *
 * Options: --events N | --quick, --engine postgres|pglite, --database URL (PostgreSQL; default
 * $BENCH_DATABASE_URL or postgresql://app:app@127.0.0.1:5432/bench), --seed S, --duration SEC (5),
 * --warmup SEC (1), --connections 1,16, --db-reads N (max(4, connections)), --only REGEX, --out FILE, --reseed, --prepare-only (seed or reuse the catalogue, then stop).
 * The PostgreSQL database must exist (create it once as a superuser, see docs/performance.md);
 * its public schema is dropped and recreated when the catalogue must be (re)seeded.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);
const log = (...a) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...a);

// ---------------------------------------------------------------------------------------------
// Options
const { values: opt } = parseArgs({
  options: {
    events: { type: 'string' },
    quick: { type: 'boolean', default: false },
    engine: { type: 'string', default: 'postgres' },
    database: { type: 'string' },
    seed: { type: 'string', default: 'lineup-bench' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '1,16' },
    // LINEUP_DB_READS admits reads without a queue (beyond → 503 at once). At 4 (the issue's figure),
    // 12 of 16 connections get instant 503s that autocannon re-sends in a tight loop, so the run
    // measures a 503 storm; the default admits as many reads as the highest concurrency.
    'db-reads': { type: 'string' },
    only: { type: 'string' },
    out: { type: 'string' },
    reseed: { type: 'boolean', default: false },
    'prepare-only': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opt.help) {
  console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('*/')[0]);
  process.exit(0);
}
const EVENTS = opt.events ? Number(opt.events) : opt.quick ? 100_000 : 1_000_000;
if (!Number.isSafeInteger(EVENTS) || EVENTS < 100) throw new Error(`--events must be a whole number >= 100`);
const ENGINE = opt.engine;
if (ENGINE !== 'postgres' && ENGINE !== 'pglite') throw new Error('--engine must be postgres or pglite');
const SEED = opt.seed;
const DURATION = Number(opt.duration);
const WARMUP = Number(opt.warmup);
const CONNECTIONS = opt.connections.split(',').map(Number);
const DB_READS = Number(opt['db-reads'] ?? Math.max(4, ...CONNECTIONS));
const PG_URL = opt.database ?? process.env.BENCH_DATABASE_URL ?? 'postgresql://app:app@127.0.0.1:5432/bench';
const PGLITE_DIR = path.join(ROOT, 'bench', '.data', `pglite-${EVENTS}-${SEED}`);
const DATABASE_URL = ENGINE === 'postgres' ? PG_URL : `pglite:${PGLITE_DIR}`;
const OUT = opt.out ?? path.join(ROOT, 'bench', ENGINE === 'postgres' && EVENTS === 1_000_000 ? 'results.md' : `results-${ENGINE}-${EVENTS}.md`);
const WORK = path.join(ROOT, 'bench', '.work');
const { MAX_REQUESTS_PER_CONNECTION } = await dist('app.js');
const { PreparedNames } = await dist('db/prepared.js');
const preparedNames = new PreparedNames();
const { prepareValue } = (await import('pg/lib/utils.js')).default;
fs.mkdirSync(WORK, { recursive: true });

const SERVER_ENV = {
  DATABASE_URL,
  LINEUP_SEED_DEMO: 'false',
  LINEUP_DB_READS: String(DB_READS),
  LINEUP_RATE_BURST: '1000000000',
  LINEUP_RATE_REFILL_PER_SEC: '1000000',
  LINEUP_MAX_ACTIVE_REQUESTS: '10000',
  LINEUP_LOG_LEVEL: 'silent',
};

// ---------------------------------------------------------------------------------------------
// Helpers
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const ms = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '–');
const mb = (kb) => (Number.isFinite(kb) ? (kb / 1024).toFixed(0) : '–');

function procStatus(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number((text.match(new RegExp(`^${k}:\\s+(\\d+)`, 'm')) ?? [])[1]);
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** Runs a child process, sampling its peak RSS; resolves with its exit code, time and output. */
function runChild(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let peakKb = 0;
    const timer = setInterval(() => {
      const s = procStatus(child.pid);
      if (s) peakKb = Math.max(peakKb, s.hwm || 0, s.rss || 0);
    }, 250);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ code, ms: Date.now() - started, peakKb, out });
    });
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function waitReady(url, child, seconds = 120) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {}
    await sleep(200);
  }
  throw new Error(`${url} not ready after ${seconds} s`);
}

function startProcess(args, env) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  return child;
}

async function stopProcess(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

function versionOf(pkg) {
  try {
    return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Prepare the catalogue (kept between runs)
async function prepare() {
  const todayUtc = new Date().toISOString().slice(0, 10);
  if (ENGINE === 'postgres') {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect().catch((err) => {
      throw new Error(
        `cannot connect to ${PG_URL} (${err.message}). Create the benchmark database once, as a superuser:\n` +
          `  su postgres -c "psql -c \\"CREATE DATABASE bench OWNER app TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C.UTF-8'\\""`,
      );
    });
    try {
      const dbName = (await client.query('SELECT current_database() AS d')).rows[0].d;
      // JIT compiles any plan estimated above jit_above_cost (100,000): a LIMIT 21 walk whose
      // full-scan estimate is large (cityContains at 1M: 21 ms of execution, ~900 ms of JIT).
      // Short OLTP reads never gain from it; recommended setting for Lineup (docs/performance.md).
      await client.query(`ALTER DATABASE "${dbName.replace(/"/g, '""')}" SET jit = off`);
      const meta = await readPgMeta(client);
      if (!opt.reseed && meta && Number(meta.events) === EVENTS && meta.seed === SEED) {
        const { rows } = await client.query('SELECT count(*)::int AS n FROM events');
        if (rows[0].n === Number(meta.event_rows)) {
          log(`reusing the catalogue in ${dbName}: ${EVENTS} Events, seed "${SEED}", seeded ${meta.seeded_at}`);
          return { reused: true, ...normalizeMeta(meta) };
        }
      }
      if (!/bench/i.test(dbName)) throw new Error(`refusing to reset database "${dbName}": its name must contain "bench"`);
      log(`resetting the public schema of ${dbName} and seeding ${EVENTS} Events (seed "${SEED}")…`);
      await client.query('DROP SCHEMA public CASCADE');
      await client.query('CREATE SCHEMA public');
    } finally {
      await client.end();
    }
  } else {
    const metaFile = path.join(PGLITE_DIR, 'bench-meta.json');
    if (!opt.reseed && fs.existsSync(metaFile)) {
      const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
      log(`reusing the PGlite catalogue in ${PGLITE_DIR}`);
      return { reused: true, ...meta };
    }
    fs.rmSync(PGLITE_DIR, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(PGLITE_DIR), { recursive: true });
    log(`seeding ${EVENTS} Events into PGlite ${PGLITE_DIR} (seed "${SEED}")…`);
  }
  const seed = await runChild(process.execPath, [path.join(ROOT, 'bin', 'lineup.js'), 'seed', '--events', String(EVENTS), '--seed', SEED], {
    DATABASE_URL,
    LINEUP_LOG_LEVEL: 'silent',
  });
  if (seed.code !== 0) throw new Error(`lineup seed failed (exit ${seed.code}):\n${seed.out}`);
  log(`seeded in ${(seed.ms / 1000).toFixed(1)} s, importer peak RSS ${mb(seed.peakKb)} MB`);
  const meta = {
    events: EVENTS,
    seed: SEED,
    anchor_date: todayUtc,
    seeded_at: new Date().toISOString(),
    seed_ms: seed.ms,
    seed_peak_rss_kb: seed.peakKb,
    seed_path: 'lineup seed (the streaming importer, one transaction)',
  };
  if (ENGINE === 'postgres') {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const t = Date.now();
      await client.query('VACUUM (ANALYZE)');
      meta.vacuum_ms = Date.now() - t;
      meta.event_rows = (await client.query('SELECT count(*)::int AS n FROM events')).rows[0].n;
      await client.query(`CREATE TABLE IF NOT EXISTS bench_catalogue (events int, seed text, anchor_date text, seeded_at text,
        seed_ms int, seed_peak_rss_kb int, vacuum_ms int, event_rows int, seed_path text)`);
      await client.query('DELETE FROM bench_catalogue');
      await client.query(
        `INSERT INTO bench_catalogue VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [meta.events, meta.seed, meta.anchor_date, meta.seeded_at, meta.seed_ms, meta.seed_peak_rss_kb, meta.vacuum_ms, meta.event_rows, meta.seed_path],
      );
    } finally {
      await client.end();
    }
  } else {
    fs.writeFileSync(path.join(PGLITE_DIR, 'bench-meta.json'), JSON.stringify(meta, null, 2));
  }
  return { reused: false, ...meta };
}

async function readPgMeta(client) {
  const { rows } = await client.query(`SELECT to_regclass('public.bench_catalogue') IS NOT NULL AS present`);
  if (!rows[0].present) return null;
  return (await client.query('SELECT * FROM bench_catalogue LIMIT 1')).rows[0] ?? null;
}
const normalizeMeta = (m) => ({ ...m, events: Number(m.events) });

// ---------------------------------------------------------------------------------------------
// 2. Scenarios, captured in process
async function openInProcess() {
  const { loadConfig } = await dist('config/config.js');
  const { openStore } = await dist('server.js');
  const { buildApp } = await dist('app.js');
  const config = loadConfig({ ...process.env, ...SERVER_ENV, LINEUP_STATEMENT_TIMEOUT_MS: '60000' });
  const db = await openStore(config);
  const sink = { statements: null };
  const app = await buildApp({ config, db, onStatement: (s) => sink.statements?.push(s) });
  await app.ready();
  return { app, db, sink };
}

async function one(db, text, values = []) {
  return (await db.pool.query(text, values)).rows[0];
}

async function defineScenarios(app, db, meta) {
  const mid = await one(db, 'SELECT (min(id) + max(id)) / 2 AS id FROM events');
  const event = await one(
    db,
    `SELECT e.public_id FROM events e WHERE e.active AND e.id >= $1
        AND EXISTS (SELECT 1 FROM event_artists ea WHERE ea.event_id = e.id)
        AND EXISTS (SELECT 1 FROM event_venues ev WHERE ev.event_id = e.id)
      ORDER BY e.id LIMIT 1`,
    [mid.id],
  );
  const venueMid = await one(db, 'SELECT (min(id) + max(id)) / 2 AS id FROM venues');
  const venue = await one(db, 'SELECT public_id FROM venues WHERE active AND id >= $1 ORDER BY id LIMIT 1', [venueMid.id]);
  // A rare name term: the full name of one "<headliner> live at <venue>" Event.
  const rare = await one(
    db,
    `SELECT name_lower FROM events WHERE active AND id >= $1 AND name_lower LIKE '% live at %' AND length(name_lower) <= 60 ORDER BY id LIMIT 1`,
    [mid.id],
  );
  const common = 'tour';
  const city = 'london';
  const anchor = meta.anchor_date ?? new Date().toISOString().slice(0, 10);
  const addDays = (d, n) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  const since = `${Number(anchor.slice(0, 4)) - 1}-06-01T00:00:00Z`;

  // The first page, its ETag and its next cursor; the deep cursor is the position of the 60th
  // Event from the end of the default ordering, sealed with the first page's fingerprint.
  const first = await app.inject({ method: 'GET', url: '/v1/events' });
  if (first.statusCode !== 200) throw new Error(`GET /v1/events → ${first.statusCode}: ${first.body}`);
  const etag = first.headers.etag;
  const next = new URL(JSON.parse(first.body).links.next, 'http://x').searchParams.get('cursor');
  const [version, fingerprint, firstKeys] = JSON.parse(Buffer.from(next.split('.')[0], 'base64url').toString('utf8'));
  const deepRow = await one(
    db,
    `SELECT start_local_date::text AS k0, start_rank AS k1, start_key::text AS k2, public_id AS k3 FROM events
      WHERE active ORDER BY start_local_date DESC, start_rank DESC, start_key DESC, public_id DESC OFFSET 60 LIMIT 1`,
  );
  const deepKeys = [deepRow.k0, deepRow.k1, deepRow.k2, deepRow.k3].map((v, i) => (typeof firstKeys[i] === 'number' ? Number(v) : v));
  const { encodeCursor } = await dist('controls/cursor.js');
  if (version !== 1) throw new Error(`unexpected cursor version ${version}`);
  const deepCursor = encodeCursor(fingerprint, deepKeys);

  const q = (params) => `/v1/events?${new URLSearchParams(params)}`;
  const list = [
    { id: 'events-first', title: 'Events first page (defaults)', path: '/v1/events' },
    { id: 'events-deep', title: 'Events deep page (cursor 60 from the end)', path: q({ cursor: deepCursor }) },
    { id: 'name-rare', title: `nameContains rare ("${rare.name_lower}")`, path: q({ nameContains: rare.name_lower }) },
    { id: 'name-common', title: `nameContains common ("${common}")`, path: q({ nameContains: common }) },
    { id: 'city', title: `cityContains ("${city}")`, path: q({ cityContains: city }) },
    { id: 'upcoming', title: 'temporalPhaseCode=upcoming', path: q({ temporalPhaseCode: 'upcoming' }) },
    {
      id: 'date-range',
      title: 'startLocalDate range (30 days)',
      path: q({ startLocalDateGte: addDays(anchor, 30), startLocalDateLt: addDays(anchor, 60) }),
    },
    { id: 'feed', title: 'feed: sort=updatedAt&updatedSince (fields=name,schedule,updatedAt)', path: q({ sort: 'updatedAt', fields: 'name,schedule,updatedAt', updatedSince: since }) },
    {
      id: 'fields-include',
      title: 'fields=…,links,ticketLinks&include=artists,venues',
      path: q({ fields: 'name,schedule,artists,venues,links,ticketLinks', include: 'artists,venues' }),
    },
    { id: 'conditional-304', title: 'conditional request (304)', path: '/v1/events', headers: { 'if-none-match': etag }, status: 304 },
    { id: 'event-detail', title: 'Event detail', path: `/v1/events/${event.public_id}` },
    { id: 'event-artists', title: "an Event's artists route", path: `/v1/events/${event.public_id}/artists` },
    { id: 'venues-first', title: 'Venues first page', path: '/v1/venues' },
    { id: 'venue-detail', title: 'Venue detail', path: `/v1/venues/${venue.public_id}` },
  ].map((s) => ({ status: 200, headers: {}, ...s }));
  const filter = opt.only ? new RegExp(opt.only) : null;
  return {
    firstBody: first.body,
    scenarios: list.filter((s) => !filter || filter.test(s.id) || s.id === 'events-first'),
    params: { event: event.public_id, venue: venue.public_id, rare: rare.name_lower, common, city, since, anchor },
  };
}

async function capture(app, sink, scenario) {
  sink.statements = [];
  const res = await app.inject({ method: 'GET', url: scenario.path, headers: scenario.headers });
  const statements = sink.statements;
  sink.statements = null;
  if (res.statusCode !== scenario.status) throw new Error(`${scenario.id}: GET ${scenario.path} → ${res.statusCode} (expected ${scenario.status}): ${res.body.slice(0, 300)}`);
  let items = null;
  try {
    const body = JSON.parse(res.body);
    items = Array.isArray(body.data) ? body.data.length : body.data ? 1 : null;
  } catch {}
  return { statements, bytes: res.rawPayload.length, items };
}

/** The scenario's SQL through `pg` alone: statements in sequence, per-request total time. */
/**
 * Runs a statement as the server does: those it prepares (Statement.stablePlan, PostgreSQL only)
 * are named, so PostgreSQL keeps a generic plan after its five custom plans.
 */
function asServer(s) {
  const name = s.stablePlan && ENGINE === 'postgres' ? preparedNames.nameOf(s.text) : undefined;
  return name ? { name, text: s.text, values: s.values } : { text: s.text, values: s.values };
}

async function timeRawSql(pool, statements, seconds = 1.5, maxIterations = 400) {
  for (let i = 0; i < 6; i++) for (const s of statements) await pool.query(asServer(s));
  const times = [];
  const until = performance.now() + seconds * 1000;
  while (times.length < maxIterations && (performance.now() < until || times.length < 20)) {
    const t = performance.now();
    for (const s of statements) await pool.query(asServer(s));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), n: times.length };
}

function seqScans(node, found = []) {
  if (node['Node Type'] === 'Seq Scan') found.push(node['Relation Name']);
  for (const child of node.Plans ?? []) seqScans(child, found);
  return found;
}

/**
 * The plan the server gets: a prepared statement (already executed by timeRawSql on the same
 * single connection) is explained through EXECUTE, showing the generic plan PostgreSQL chose.
 */
async function explain(pool, statement) {
  const { name } = asServer(statement);
  const target = name
    ? { text: `EXECUTE ${name}${statement.values.length ? `(${statement.values.map((v) => pg.escapeLiteral(String(prepareValue(v)))).join(', ')})` : ''}`, values: [] }
    : { text: statement.text, values: statement.values };
  const json = (await pool.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${target.text}`, target.values)).rows[0]['QUERY PLAN'][0];
  const text = (await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${target.text}`, target.values)).rows.map((r) => r['QUERY PLAN']).join('\n');
  const scans = seqScans(json.Plan);
  return { name: statement.name, text, executionMs: json['Execution Time'], seqScans: scans, eventsSeqScan: scans.includes('events') };
}

// ---------------------------------------------------------------------------------------------
// 3. Load
async function load(url, connections, seconds, headers, expected) {
  const latencies = [];
  const statuses = {};
  const started = performance.now();
  // Lineup closes a connection after its 100th response (MAX_REQUESTS_PER_CONNECTION). When a
  // server ends a connection, autocannon 8 reconnects without clearing its queue of pending
  // requests: the request it wrote onto the closing socket stays queued, so every later response
  // is timed from the start of an older request (each reconnect adds one more request of lag).
  // That is why the first runs showed ~25 ms "latencies" at 1,300 req/s on ONE connection.
  // reconnectRate makes autocannon reconnect itself after 100 responses, clearing the queue.
  // It then skips the 'response' event of that 100th response, so statuses and throughput are
  // counted from each response's headers; latencies come from the other 99 of every 100.
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        headers,
        timeout: 30,
        reconnectRate: MAX_REQUESTS_PER_CONNECTION,
        setupClient: (client) => client.on('headers', (h) => { statuses[h.statusCode] = (statuses[h.statusCode] ?? 0) + 1; }),
      },
      (err, r) => (err ? reject(err) : resolve(r)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode === expected) latencies.push(responseTime);
    });
  });
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  const ok = statuses[expected] ?? 0;
  return {
    rps: ok / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    ok,
    other: total - ok,
    statuses,
    errors: result.errors + result.timeouts,
  };
}

// ---------------------------------------------------------------------------------------------
// Main
async function main() {
  const runStarted = new Date();
  log(`engine ${ENGINE}, ${EVENTS.toLocaleString('en')} Events, ${DATABASE_URL}`);
  const meta = await prepare();
  if (opt['prepare-only']) return;

  // -- in process: capture, raw SQL, EXPLAIN
  const { app, db, sink } = await openInProcess();
  const serverVersion = (await one(db, 'SELECT version() AS v')).v;
  const counts = await one(
    db,
    `SELECT (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM events WHERE active)::int AS active_events,
            (SELECT count(*) FROM artists)::int AS artists, (SELECT count(*) FROM venues)::int AS venues,
            (SELECT count(*) FROM series)::int AS series, (SELECT count(*) FROM editions)::int AS editions,
            (SELECT count(*) FROM media)::int AS media, (SELECT count(*) FROM event_artists)::int AS event_artists,
            (SELECT count(*) FROM event_venues)::int AS event_venues`,
  );
  const sizes =
    ENGINE === 'postgres'
      ? await one(
          db,
          `SELECT pg_size_pretty(pg_total_relation_size('events')) AS events_total, pg_size_pretty(pg_relation_size('events')) AS events_heap,
                  pg_size_pretty(pg_database_size(current_database())) AS database, current_setting('shared_buffers') AS shared_buffers,
                  current_setting('work_mem') AS work_mem, current_setting('effective_cache_size') AS effective_cache_size,
                  current_setting('random_page_cost') AS random_page_cost, current_setting('jit') AS jit`,
        )
      : null;
  const { firstBody, scenarios, params } = await defineScenarios(app, db, meta);
  fs.writeFileSync(path.join(WORK, 'ceiling-body.json'), firstBody);
  log(`scenarios: ${scenarios.map((s) => s.id).join(', ')}`);

  // one connection with Lineup's planner settings (src/db/database.ts)
  const rawPool = ENGINE === 'postgres' ? new pg.Pool({ connectionString: PG_URL, max: 1, options: '-c jit=off -c max_parallel_workers_per_gather=0' }) : db.pool;
  for (const s of scenarios) {
    const c = await capture(app, sink, s);
    s.statements = c.statements;
    s.bytes = c.bytes;
    s.items = c.items;
    s.raw = await timeRawSql(rawPool, s.statements);
    s.plans = [];
    for (const st of s.statements) s.plans.push(await explain(rawPool, st));
    log(`${s.id}: ${s.statements.length} statement(s), raw SQL p50 ${ms(s.raw.p50)} ms, ${s.bytes} B${s.plans.some((p) => p.eventsSeqScan) ? '  ** SEQ SCAN ON events **' : ''}`);
  }
  if (rawPool !== db.pool) await rawPool.end();
  await app.close();
  await db.close();

  // -- load: the ceiling, then Lineup
  const results = {}; // results[connections][scenario id]
  const ceilingPort = await freePort();
  const ceiling = startProcess([path.join(ROOT, 'bench', 'ceiling.mjs')], { PORT: String(ceilingPort), BODY_FILE: path.join(WORK, 'ceiling-body.json') });
  const lineupPort = await freePort();
  const server = startProcess([path.join(ROOT, 'bin', 'lineup.js'), 'serve'], { ...SERVER_ENV, HOST: '127.0.0.1', PORT: String(lineupPort) });
  let rss = { peakKb: 0, maxSampleKb: 0 };
  const rssTimer = setInterval(() => {
    const s = procStatus(server.pid);
    if (s) rss = { peakKb: Math.max(rss.peakKb, s.hwm || 0), maxSampleKb: Math.max(rss.maxSampleKb, s.rss || 0) };
  }, 200);
  try {
    await waitReady(`http://127.0.0.1:${ceilingPort}/v1/ready`, ceiling);
    await waitReady(`http://127.0.0.1:${lineupPort}/v1/ready`, server);
    const startupRssKb = procStatus(server.pid)?.rss;
    for (const c of CONNECTIONS) {
      results[c] = {};
      const ceilingUrl = `http://127.0.0.1:${ceilingPort}/fixed`;
      await load(ceilingUrl, c, WARMUP, {}, 200);
      results[c].ceiling = await load(ceilingUrl, c, DURATION, {}, 200);
      log(`c=${c} ceiling: ${int(results[c].ceiling.rps)} req/s, p50 ${ms(results[c].ceiling.p50)} ms, p99 ${ms(results[c].ceiling.p99)} ms`);
      for (const s of scenarios) {
        const url = `http://127.0.0.1:${lineupPort}${s.path}`;
        await load(url, c, WARMUP, s.headers, s.status);
        const r = await load(url, c, DURATION, s.headers, s.status);
        results[c][s.id] = r;
        log(`c=${c} ${s.id}: ${int(r.rps)} req/s, p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms${r.other ? `, other statuses ${JSON.stringify(r.statuses)}` : ''}`);
      }
    }
    rss.startupKb = startupRssKb;
  } finally {
    clearInterval(rssTimer);
    const last = procStatus(server.pid);
    if (last) rss.peakKb = Math.max(rss.peakKb, last.hwm || 0);
    await stopProcess(server);
    await stopProcess(ceiling);
  }

  const report = renderReport({ runStarted, meta, counts, sizes, serverVersion, scenarios, params, results, rss });
  fs.writeFileSync(OUT, report);
  log(`wrote ${path.relative(ROOT, OUT)}`);
  const seq = scenarios.filter((s) => s.plans.some((p) => p.eventsSeqScan));
  if (seq.length > 0) {
    console.error(`FAIL: sequential scan of events in: ${seq.map((s) => s.id).join(', ')}`);
    process.exitCode = 1;
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Report
function renderReport({ runStarted, meta, counts, sizes, serverVersion, scenarios, params, results, rss }) {
  const cpus = os.cpus();
  const cTop = Math.max(...CONNECTIONS);
  const top = results[cTop];
  const first = top?.['events-first'];
  const targets = [];
  const L = [];
  L.push(`# Lineup benchmark — ${ENGINE === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${EVENTS.toLocaleString('en')} Events`);
  L.push('');
  L.push(`Generated by \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\` (bench/run.mjs); see docs/performance.md for the method, indexes and query shapes.`);
  L.push('');
  L.push('## Run');
  L.push('');
  L.push(`| | |`);
  L.push(`|---|---|`);
  L.push(`| date | ${runStarted.toISOString()} |`);
  L.push(`| load average at the end (1/5/15 min) | ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')} — other work on the machine inflates latencies; compare ratios within one run |`);
  L.push(`| machine | ${cpus.length} × ${cpus[0]?.model ?? '?'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, ${os.type()} ${os.release()} |`);
  L.push(`| Node | ${process.version} |`);
  L.push(`| database | ${ENGINE === 'postgres' ? serverVersion : `PGlite ${versionOf('@electric-sql/pglite')} (${serverVersion.split(',')[0]})`} |`);
  if (sizes) L.push(`| PostgreSQL settings | shared_buffers ${sizes.shared_buffers}, work_mem ${sizes.work_mem}, effective_cache_size ${sizes.effective_cache_size}, random_page_cost ${sizes.random_page_cost} (defaults), jit ${sizes.jit} (set per database by the benchmark) |`);
  L.push(`| libraries | fastify ${versionOf('fastify')}, pg ${versionOf('pg')}, autocannon ${versionOf('autocannon')} |`);
  L.push(`| server | \`lineup serve\` in its own process: LINEUP_DB_READS=${DB_READS}, LINEUP_RATE_BURST=1e9, LINEUP_MAX_ACTIVE_REQUESTS=10000, LINEUP_LOG_LEVEL=silent |`);
  L.push(`| load | autocannon (programmatic, same machine), connections ${CONNECTIONS.join(' and ')}, ${WARMUP} s warm-up then ${DURATION} s per scenario; latencies from autocannon's per-response times (sub-millisecond), autocannon reconnecting itself every ${MAX_REQUESTS_PER_CONNECTION} responses (see bench/notes.md); only responses with the expected status count |`);
  L.push('');
  L.push('## Catalogue');
  L.push('');
  L.push(`| | |`);
  L.push(`|---|---|`);
  L.push(`| Events | ${int(counts.events)} (${int(counts.active_events)} active) — seed "${meta.seed}", anchor date ${meta.anchor_date} |`);
  L.push(`| Artists / Venues / Series / Editions / media | ${int(counts.artists)} / ${int(counts.venues)} / ${int(counts.series)} / ${int(counts.editions)} / ${int(counts.media)} |`);
  L.push(`| event_artists / event_venues | ${int(counts.event_artists)} / ${int(counts.event_venues)} |`);
  if (sizes) L.push(`| sizes | events heap ${sizes.events_heap}, events with indexes ${sizes.events_total}, database ${sizes.database} |`);
  L.push(`| import | ${meta.seed_path ?? 'lineup seed'}: ${f1(meta.seed_ms / 1000)} s (${int(EVENTS / (meta.seed_ms / 1000))} Events/s), importer peak RSS ${mb(meta.seed_peak_rss_kb)} MB${meta.vacuum_ms ? `; then VACUUM (ANALYZE) ${f1(meta.vacuum_ms / 1000)} s` : ''}${meta.reused ? ` — seeded ${meta.seeded_at}, reused by this run` : ''} |`);
  L.push('');
  L.push('Scenario parameters: ' + Object.entries(params).map(([k, v]) => `${k} = \`${v}\``).join(', ') + '.');
  L.push('');
  for (const c of CONNECTIONS) {
    const r = results[c];
    if (!r) continue;
    L.push(`## Concurrency ${c}`);
    L.push('');
    L.push(`Ceiling (bare Fastify, fixed ${int(Buffer.byteLength(fs.readFileSync(path.join(WORK, 'ceiling-body.json'))))} B JSON body = the Events first page): **${int(r.ceiling.rps)} req/s**, p50 ${ms(r.ceiling.p50)} ms, p99 ${ms(r.ceiling.p99)} ms.`);
    L.push('');
    L.push('| scenario | req/s | p50 ms | p99 ms | statements | ÷ ceiling req/s | raw SQL p50 ms | API p50 ÷ raw SQL p50 | p50 ÷ first page p50 | body B | other statuses |');
    L.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    const firstP50 = r['events-first']?.p50;
    for (const s of scenarios) {
      const x = r[s.id];
      if (!x) continue;
      const other = Object.entries(x.statuses).filter(([k]) => Number(k) !== s.status).map(([k, v]) => `${k}×${v}`).join(' ');
      L.push(`| ${s.title} | ${int(x.rps)} | ${ms(x.p50)} | ${ms(x.p99)} | ${s.statements.length} | ${f2(x.rps / r.ceiling.rps)} | ${ms(s.raw.p50)} | ${f1(x.p50 / s.raw.p50)} | ${f2(x.p50 / firstP50)} | ${int(s.bytes)} | ${other || '–'}${x.errors ? ` errors ${x.errors}` : ''} |`);
    }
    L.push('');
  }
  L.push(`Server RSS: at start ${mb(rss.startupKb)} MB, largest sample ${mb(rss.maxSampleKb)} MB, **peak (VmHWM) ${mb(rss.peakKb)} MB**.`);
  L.push('');

  // Targets (at the highest concurrency)
  if (top && first) {
    for (const s of scenarios) {
      const x = top[s.id];
      if (!x) continue;
      targets.push({ target: `p99 < 25 ms — ${s.id}`, value: `${ms(x.p99)} ms`, met: x.p99 < 25, s });
      targets.push({ target: `req/s ≥ 35% of ceiling — ${s.id}`, value: `${f1((100 * x.rps) / top.ceiling.rps)}%`, met: x.rps >= 0.35 * top.ceiling.rps, s });
      if (s.id !== 'events-first') targets.push({ target: `p50 ≤ 3× first page — ${s.id}`, value: `${f2(x.p50 / first.p50)}×`, met: x.p50 <= 3 * first.p50, s });
    }
    const deep = top['events-deep'];
    if (deep) targets.push({ target: 'deep page p50 ≤ 1.25× first page p50', value: `${f2(deep.p50 / first.p50)}×`, met: deep.p50 <= 1.25 * first.p50 });
  }
  targets.push({ target: 'server peak RSS < 250 MB', value: `${mb(rss.peakKb)} MB`, met: rss.peakKb < 250 * 1024 });
  targets.push({ target: 'import in bounded memory (importer peak RSS < 512 MB)', value: `${mb(meta.seed_peak_rss_kb)} MB`, met: meta.seed_peak_rss_kb > 0 && meta.seed_peak_rss_kb < 512 * 1024 });
  const noSeq = scenarios.filter((s) => s.plans.some((p) => p.eventsSeqScan));
  targets.push({ target: 'no sequential scan of events', value: noSeq.length ? noSeq.map((s) => s.id).join(', ') : 'none', met: noSeq.length === 0 });
  const missed = targets.filter((t) => !t.met);
  L.push(`## Targets (concurrency ${cTop}${EVENTS === 1_000_000 && ENGINE === 'postgres' ? '' : `; the issue's targets are stated for 1,000,000 Events on PostgreSQL — this run is ${EVENTS.toLocaleString('en')} on ${ENGINE}`})`);
  L.push('');
  L.push(`${targets.length - missed.length} of ${targets.length} met.${missed.length ? ' Missed:' : ''}`);
  L.push('');
  if (missed.length) {
    L.push('| target | measured | slowest plan nodes of the scenario (EXPLAIN ANALYZE) |');
    L.push('|---|---:|---|');
    for (const t of missed) L.push(`| ${t.target} | ${t.value} | ${t.s ? planSummary(t.s) : '–'} |`);
    L.push('');
  }
  L.push('<details><summary>Every target</summary>');
  L.push('');
  L.push('| target | measured | met |');
  L.push('|---|---:|---|');
  for (const t of targets) L.push(`| ${t.target} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`);
  L.push('');
  L.push('</details>');
  L.push('');
  const notes = path.join(ROOT, 'bench', 'notes.md');
  if (fs.existsSync(notes)) {
    L.push(fs.readFileSync(notes, 'utf8').trim());
    L.push('');
  }
  L.push('## Plans: EXPLAIN (ANALYZE, BUFFERS) of every scenario statement');
  L.push('');
  L.push('Statements as the app issued them (captured through `buildApp({ onStatement })`), replayed through `pg` with their parameters.');
  L.push('');
  for (const s of scenarios) {
    L.push(`### ${s.title}`);
    L.push('');
    L.push(`\`GET ${s.path.length > 160 ? `${s.path.slice(0, 160)}…` : s.path}\` → ${s.status}, ${s.statements.length} statement(s), raw SQL p50 ${ms(s.raw.p50)} ms / p99 ${ms(s.raw.p99)} ms (${s.raw.n} runs)`);
    L.push('');
    for (const p of s.plans) {
      L.push(`${p.name} — execution ${ms(p.executionMs)} ms${p.seqScans.length ? `, sequential scans: ${p.seqScans.join(', ')}` : ''}${p.eventsSeqScan ? ' — **FAILS: sequential scan of events**' : ''}`);
      L.push('');
      L.push('```');
      L.push(p.text);
      L.push('```');
      L.push('');
    }
  }
  return `${L.join('\n')}\n`;
}

function planSummary(s) {
  const worst = [...s.plans].sort((a, b) => b.executionMs - a.executionMs)[0];
  if (!worst) return '–';
  const lines = worst.text.split('\n').filter((l) => /->|^\w/.test(l.trim()) && /actual time/.test(l)).slice(0, 3);
  return `${worst.name} ${ms(worst.executionMs)} ms: ${lines.map((l) => `\`${l.trim().replace(/\|/g, '\\|').slice(0, 140)}\``).join('<br>')}`;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
