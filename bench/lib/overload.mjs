/**
 * The overload scenario: a closed loop of OVERLOAD_CONNECTIONS (256) wrk connections on the
 * Events first page against `lineup serve` with its DEFAULT limits (rate limit, route
 * executions, database reads: most answers are 429/503 refusals), while a separate client
 * (bench/lib/probe.mjs, its own addresses, so its own rate-limit buckets) times `GET /v1/health`
 * on new connections. The bare reference (bench/reference.mjs, no limits: every request reads
 * the database) gets the same load and the same probe. Lineup and the reference take turns,
 * --rounds rounds; the probe's percentiles pool its rounds. Target: the probe's p99 ≤ 250 ms.
 *
 * Lineup's log goes to /dev/null (its level is the default, info). A side's Node CPU per
 * request is its process's utime+stime (/proc) over the load's requests.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { DB_READS, DATABASE_URL, ENGINE, PG_URL, ROOT, ROUNDS, WORK, log } from './config.mjs';
import { load } from './load.mjs';
import { probeHealth, probeSummary } from './probe.mjs';
import { freePort, sleep, stopProcess, waitReady } from './util.mjs';
import fs from 'node:fs';

export const OVERLOAD_CONNECTIONS = 256;
export const PROBE_TARGET_MS = 250;
export const OVERLOAD_LOAD_SECONDS = 16;
const PROBE_DELAY_MS = 3000;
const PROBES_PER_ROUND = 300;

/** Process CPU time (utime + stime, seconds) from /proc, or null. */
function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

function startSide(side, port) {
  const common = { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] };
  if (side === 'lineup') {
    // the default limits: only where to listen and what to read
    const env = { ...process.env, DATABASE_URL, LINEUP_SEED_DEMO: 'false', HOST: '127.0.0.1', PORT: String(port) };
    for (const name of Object.keys(env)) if (name.startsWith('LINEUP_') && name !== 'LINEUP_SEED_DEMO') delete env[name];
    return spawn(path.join(ROOT, 'bin', 'lineup.js'), ['serve'], { ...common, env });
  }
  return spawn(process.execPath, [path.join(ROOT, 'bench', 'reference.mjs')], {
    ...common,
    env: {
      ...process.env, PORT: String(port), DATABASE_URL: PG_URL, BODY_FILE: path.join(WORK, 'fixed-body.json'),
      SCENARIOS_FILE: path.join(WORK, 'scenarios.json'), POOL_SIZE: String(DB_READS),
    },
  });
}

async function oneRound(side, firstPagePath) {
  const port = await freePort();
  const server = startSide(side, port);
  try {
    await waitReady(`http://127.0.0.1:${port}/v1/ready`, server);
    const url = `http://127.0.0.1:${port}${side === 'lineup' ? firstPagePath : '/ref/events-first'}`;
    const cpuBefore = cpuSeconds(server.pid);
    const loading = load(url, OVERLOAD_CONNECTIONS, OVERLOAD_LOAD_SECONDS, {}, 200);
    await sleep(PROBE_DELAY_MS);
    const probe = await probeHealth(port, { count: PROBES_PER_ROUND, seconds: OVERLOAD_LOAD_SECONDS - PROBE_DELAY_MS / 1000 - 1 });
    const wrk = await loading;
    const cpu = cpuSeconds(server.pid);
    const requests = wrk.ok + wrk.other;
    const seconds = wrk.seconds;
    const refused = Object.entries(wrk.statuses).filter(([s]) => s === '429' || s === '503').reduce((a, [, n]) => a + n, 0);
    return {
      probe,
      statuses: wrk.statuses,
      rps: requests / seconds,
      refusalsPerSec: refused / seconds,
      wrkP50: wrk.p50,
      wrkP99: wrk.p99,
      cpuUsPerRequest: cpuBefore !== null && cpu !== null && requests > 0 ? ((cpu - cpuBefore) * 1e6) / requests : NaN,
    };
  } finally {
    await stopProcess(server);
  }
}

/** Lineup and (on PostgreSQL) the bare reference in turns, ROUNDS rounds; the probe's times pooled per side. */
export async function measureOverload(firstPagePath) {
  const sides = ENGINE === 'postgres' ? ['lineup', 'ref'] : ['lineup'];
  const rounds = Object.fromEntries(sides.map((s) => [s, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of sides) {
      const x = await oneRound(side, firstPagePath);
      rounds[side].push(x);
      const p = probeSummary(x.probe.times);
      log(`overload round ${r + 1} ${side}: probe n ${p.n}, p50 ${p.p50.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms, max ${p.max.toFixed(1)} ms; load ${Math.round(x.rps)} req/s, refusals ${Math.round(x.refusalsPerSec)}/s, Node CPU ${x.cpuUsPerRequest.toFixed(0)} µs/request, statuses ${JSON.stringify(x.statuses)}`);
    }
  }
  const out = {};
  for (const side of sides) {
    const rs = rounds[side];
    const statuses = {};
    for (const x of rs) for (const [k, v] of Object.entries(x.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
    const probeStatuses = {};
    for (const x of rs) for (const [k, v] of Object.entries(x.probe.statuses)) probeStatuses[k] = (probeStatuses[k] ?? 0) + v;
    const med = (f) => [...rs.map(f)].sort((a, b) => a - b)[Math.floor((rs.length - 1) / 2)];
    out[side] = {
      probe: { ...probeSummary(rs.flatMap((x) => x.probe.times)), statuses: probeStatuses, failed: rs.reduce((a, x) => a + x.probe.failed, 0) },
      roundsP99: rs.map((x) => probeSummary(x.probe.times).p99),
      rps: med((x) => x.rps),
      refusalsPerSec: med((x) => x.refusalsPerSec),
      cpuUsPerRequest: med((x) => x.cpuUsPerRequest),
      wrkP50: med((x) => x.wrkP50),
      wrkP99: med((x) => x.wrkP99),
      statuses,
    };
  }
  return out;
}
