#!/usr/bin/env node
/**
 * `npm run bench` — the performance benchmark (bench/README.md: method, targets, set-up).
 *
 *   1. Prepare: a deterministic demo catalogue of N Events (default 1,000,000; --quick = 100,000;
 *      --events N) through `lineup seed`, kept between runs (table bench_catalogue / a meta file
 *      records size and seed; a matching store is reused), then VACUUM ANALYZE.
 *   2. In process: build the app with a statement observer, capture each scenario's SQL, time that
 *      SQL through `pg` alone, and EXPLAIN (ANALYZE, BUFFERS) it; any sequential scan of the events
 *      table fails the run.
 *   3. Load (wrk, bench/wrk/statuses.lua): for every scenario, Lineup (`lineup serve`, its own
 *      process, limits raised) and its bare reference (bench/reference.mjs: Fastify + pg
 *      replaying the scenario's captured statements, rows → JSON.stringify), and for the Events
 *      first page the PostgreSQL-rendered reference (json_agg, text passed through), in turns:
 *      --rounds rounds of --duration seconds per side, each run right after --warmup seconds of
 *      its own requests; medians of the rounds; a fixed-body route as context; concurrency 1 and 16; the server's peak RSS from /proc.
 *   4. Overload (bench/lib/overload.mjs): wrk c=256 closed loop on the Events first page against
 *      `lineup serve` with its default limits, a separate client timing GET /v1/health (p99 ≤
 *      250 ms), the bare reference under the same load and probe, in turns.
 *   5. Report: bench/results.md (1M on PostgreSQL) or bench/results-<engine>-<N>.md.
 *
 * One module per stage in bench/lib/: config.mjs (options), prepare.mjs, scenarios.mjs (capture, raw
 * SQL, plans), load.mjs, report.mjs, util.mjs; this file runs them in order.
 *
 * Options: --events N | --quick, --engine postgres|pglite, --database URL (PostgreSQL; default
 * $BENCH_DATABASE_URL or postgresql://app:app@127.0.0.1:5432/bench), --seed S, --duration SEC (3),
 * --rounds N (3), --warmup SEC (1), --connections 1,16, --db-reads N (max(4, connections)), --only REGEX, --out FILE, --reseed, --prepare-only (seed or reuse the catalogue, then stop),
 * --overload-only (the overload scenario alone → bench/results-overload-<engine>-<N>.md), --no-overload.
 * The PostgreSQL database must exist (create it once as a superuser, see bench/README.md);
 * its public schema is dropped and recreated when the catalogue must be (re)seeded.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { CONNECTIONS, DATABASE_URL, ENGINE, EVENTS, OUT, PG_URL, ROOT, SERVER_ENV, WORK, log, opt } from './lib/config.mjs';
import { measureInTurns, requireWrk } from './lib/load.mjs';
import { prepare } from './lib/prepare.mjs';
import { measureOverload } from './lib/overload.mjs';
import { AGAINST_FIRST, renderOverloadReport, renderReport } from './lib/report.mjs';
import { asServer, capture, defineScenarios, explain, one, openInProcess, timeRawSql } from './lib/scenarios.mjs';
import { prepareValue } from './lib/config.mjs';
import { autogroup, f2, freePort, int, ms, pct, procStatus, startLineup, startProcess, stopProcess, waitReady } from './lib/util.mjs';

async function main() {
  const runStarted = new Date();
  const wrkVersion = requireWrk();
  log(`engine ${ENGINE}, ${EVENTS.toLocaleString('en')} Events, ${DATABASE_URL}`);
  const meta = await prepare();
  if (opt['prepare-only']) return;
  if (autogroup() === 'on') {
    log('note: autogroup scheduling is on (kernel.sched_autogroup_enabled=1): every PostgreSQL backend shares the postmaster session\'s CPU share, which lengthens the p99 tails on shared cores; `sysctl kernel.sched_autogroup_enabled=0` turns it off (bench/README.md#the-machine)');
  }

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
  const defined = await defineScenarios(app, db, meta);
  const { firstBody, params } = defined;
  // --overload-only: the first page alone (the reference replays its statements under the load)
  const scenarios = opt['overload-only'] ? defined.scenarios.filter((s) => s.id === 'events-first') : defined.scenarios;
  fs.writeFileSync(path.join(WORK, 'fixed-body.json'), firstBody);
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

  // -- load: for each scenario Lineup, then its references (bench/reference.mjs), in the same run
  const replay = Object.fromEntries(scenarios.map((s) => [s.id, s.statements.map((st) => {
    const { name, text, values } = asServer(st);
    return { ...(name ? { name } : {}), text, values: values.map((v) => prepareValue(v)) };
  })]));
  fs.writeFileSync(path.join(WORK, 'scenarios.json'), JSON.stringify(replay));
  const firstPage = scenarios.find((s) => s.id === 'events-first');
  if (opt['overload-only']) {
    const overload = await measureOverload(firstPage.path);
    fs.writeFileSync(OUT, renderOverloadReport({ runStarted, wrkVersion, overload }));
    log(`wrote ${path.relative(ROOT, OUT)}`);
    return;
  }
  const results = {}; // results[connections][scenario id] = { lineup, ref, pgJson? }
  const referencePort = await freePort();
  const reference = ENGINE === 'postgres'
    ? startProcess([path.join(ROOT, 'bench', 'reference.mjs')], {
        PORT: String(referencePort), BODY_FILE: path.join(WORK, 'fixed-body.json'), DATABASE_URL: PG_URL,
        SCENARIOS_FILE: path.join(WORK, 'scenarios.json'), POOL_SIZE: SERVER_ENV.LINEUP_DB_READS,
      })
    : null;
  const lineupPort = await freePort();
  const server = startLineup(['serve'], { ...SERVER_ENV, HOST: '127.0.0.1', PORT: String(lineupPort) });
  let rss = { peakKb: 0, maxSampleKb: 0, loads: [] };
  const rssTimer = setInterval(() => {
    const s = procStatus(server.pid);
    if (s) rss = { peakKb: Math.max(rss.peakKb, s.hwm || 0), maxSampleKb: Math.max(rss.maxSampleKb, s.rss || 0) };
  }, 200);
  try {
    if (reference) await waitReady(`http://127.0.0.1:${referencePort}/v1/ready`, reference);
    await waitReady(`http://127.0.0.1:${lineupPort}/v1/ready`, server);
    const startupRssKb = procStatus(server.pid)?.rss;
    const line = (r) => `${int(r.rps)} req/s, p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms${r.other ? `, other statuses ${JSON.stringify(r.statuses)}` : ''}`;
    for (const c of CONNECTIONS) {
      results[c] = {};
      const ref = `http://127.0.0.1:${referencePort}`;
      if (reference) {
        results[c].fixed = (await measureInTurns(c, { fixed: { url: `${ref}/fixed`, status: 200 } })).fixed;
        log(`c=${c} fixed body (context): ${line(results[c].fixed)}  [load ${results[c].fixed.load.toFixed(1)}, steal ${pct(results[c].fixed.steal)}]`);
      }
      for (const s of scenarios) {
        const sides = { lineup: { url: `http://127.0.0.1:${lineupPort}${s.path}`, headers: s.headers, status: s.status } };
        if (reference) sides.ref = { url: `${ref}/ref/${s.id}`, status: 200 };
        if (reference && s.id === 'events-first') sides.pgJson = { url: `${ref}/pg-json/${s.id}`, status: 200 };
        // a page whose p50 is held to the first page's (report.mjs AGAINST_FIRST) takes turns with it
        if (AGAINST_FIRST.test(s.id) && firstPage) sides.first = { url: `http://127.0.0.1:${lineupPort}${firstPage.path}`, headers: firstPage.headers, status: firstPage.status };
        const x = (results[c][s.id] = await measureInTurns(c, sides));
        log(`c=${c} ${s.id}: ${line(x.lineup)}  [load ${x.lineup.load.toFixed(1)}, steal ${pct(x.lineup.steal)}]`);
        if (x.ref) log(`c=${c} ${s.id} bare reference: ${line(x.ref)} → Lineup ÷ reference ${f2(x.ratio.ref.median)} (rounds ${x.ratio.ref.rounds.map(f2).join(', ')})`);
        if (x.first) log(`c=${c} ${s.id} p50 ÷ the first page's in the same rounds: ${f2(x.p50Ratio.first.median)} (rounds ${x.p50Ratio.first.rounds.map(f2).join(', ')})`);
        if (x.pgJson) log(`c=${c} ${s.id} PostgreSQL-rendered reference: ${line(x.pgJson)} → Lineup ÷ it ${f2(x.ratio.pgJson.median)} (rounds ${x.ratio.pgJson.rounds.map(f2).join(', ')})`);
      }
    }
    rss.startupKb = startupRssKb;
  } finally {
    clearInterval(rssTimer);
    const last = procStatus(server.pid);
    if (last) rss.peakKb = Math.max(rss.peakKb, last.hwm || 0);
    await stopProcess(server);
    if (reference) await stopProcess(reference);
  }

  // the overload scenario: its own servers (default limits), after the others stopped
  const overload = opt['no-overload'] ? null : await measureOverload(firstPage.path);

  const report = renderReport({ runStarted, wrkVersion, meta, counts, sizes, serverVersion, scenarios, params, results, rss, overload });
  fs.writeFileSync(OUT, report);
  log(`wrote ${path.relative(ROOT, OUT)}`);
  const seq = scenarios.filter((s) => s.plans.some((p) => p.eventsSeqScan));
  if (seq.length > 0) {
    console.error(`FAIL: sequential scan of events in: ${seq.map((s) => s.id).join(', ')}`);
    process.exitCode = 1;
  }
}


main().catch((err) => {
  console.error(err);
  process.exit(1);
});

