/**
 * 3. Load: wrk (a C load generator: it takes far less of the shared CPU than a Node client) with
 * bench/wrk/statuses.lua, which counts responses per status. Throughput counts only responses
 * with the expected status; latency percentiles are wrk's, over every response (a run with
 * other statuses says so in the report). measureInTurns runs a scenario's sides (Lineup and its
 * references) in turns, round after round.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import os from 'node:os';
import { DURATION, ROOT, ROUNDS, WARMUP } from './config.mjs';
import { cpuTimes, median, sleep, stealShare } from './util.mjs';

const SCRIPT = path.join(ROOT, 'bench', 'wrk', 'statuses.lua');

/** Exits with instructions when wrk is missing. */
export function requireWrk() {
  const r = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  if (r.error) {
    console.error('The benchmark drives its load with wrk, which is not installed.\n' +
      'Debian/Ubuntu: sudo apt-get install wrk    macOS: brew install wrk    (https://github.com/wg/wrk)');
    process.exit(2);
  }
  return (r.stdout + r.stderr).split('\n')[0].trim();
}

export async function load(url, connections, seconds, headers, expected) {
  const args = ['-t', String(Math.min(2, connections)), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '30s', '-s', SCRIPT];
  for (const [k, v] of Object.entries(headers ?? {})) args.push('-H', `${k}: ${v}`);
  args.push(url);
  const out = await new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
  });
  const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (!line) throw new Error(`no result from wrk: ${out}`);
  const r = JSON.parse(line.slice('WRK_JSON '.length));
  const seconds_ = r.durationUs / 1e6;
  const total = Object.values(r.statuses).reduce((a, b) => a + b, 0);
  const ok = r.statuses[expected] ?? 0;
  return { rps: ok / seconds_, p50: r.p50Us / 1000, p99: r.p99Us / 1000, ok, other: total - ok, statuses: r.statuses, errors: r.errors, seconds: seconds_ };
}

/**
 * Measures the sides of one scenario (Lineup and its references) in turns: ROUNDS rounds in which
 * each side runs DURATION seconds, one after the other, each run right after WARMUP seconds of
 * its own requests (not measured). A side's req/s, p50 and p99 are the medians of its rounds;
 * Lineup ÷ a reference is the median of the rounds' ratios (each round's runs are seconds apart,
 * so what the machine's other tenants do weighs on both alike).
 *
 * The warm-up comes before every run, not only before the first round: otherwise a run's
 * conditions depend on what ran before it (a server left idle for seconds by the references' runs
 * answers its next few pages more slowly, which skews a ratio of two Lineup pages by 5–10%).
 */
export async function measureInTurns(c, sides) {
  const names = Object.keys(sides);
  const run = async (name, seconds) => {
    const { url, headers, status } = sides[name];
    // wrk ends a run by closing its connections with requests in flight; Lineup keeps those reads'
    // slots until their statements finish (no queue: a read over LINEUP_DB_READS is a 503), so a
    // run started at once could count 503s that belong to the run before
    await sleep(250);
    const before = cpuTimes();
    const result = await load(url, c, seconds, headers, status);
    // what the hypervisor gave other guests meanwhile: a run on a shared host can lose a third of
    // its cores, which no load average shows
    result.steal = stealShare(before, cpuTimes());
    return result;
  };
  const rounds = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of names) {
      if (WARMUP > 0) await run(name, WARMUP);
      const one = await run(name, DURATION);
      one.load = os.loadavg()[0];
      rounds[name].push(one);
    }
  }
  const out = { ratio: {} };
  for (const name of names) {
    const rs = rounds[name];
    const statuses = {};
    for (const x of rs) for (const [k, v] of Object.entries(x.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
    out[name] = {
      rps: median(rs.map((x) => x.rps)),
      p50: median(rs.map((x) => x.p50)),
      p99: median(rs.map((x) => x.p99)),
      ok: rs.reduce((a, x) => a + x.ok, 0),
      other: rs.reduce((a, x) => a + x.other, 0),
      statuses,
      errors: rs.reduce((a, x) => a + (x.errors || 0), 0),
      load: median(rs.map((x) => x.load)),
      steal: rs.every((x) => x.steal !== null) ? median(rs.map((x) => x.steal)) : null,
      rounds: rs.map((x) => x.rps),
    };
  }
  // each other side against Lineup, round by round (the fixed body alone has no Lineup side): req/s
  // (read for a reference) and p50 (read for Lineup's own first page, the side of a page whose p50
  // is held to the first page's: both measured in the same rounds, seconds apart, not minutes)
  out.p50Ratio = {};
  for (const name of sides.lineup ? names.filter((n) => n !== 'lineup') : []) {
    const each = rounds.lineup.map((l, i) => l.rps / rounds[name][i].rps);
    out.ratio[name] = { median: median(each), rounds: each };
    const p50s = rounds.lineup.map((l, i) => l.p50 / rounds[name][i].p50);
    out.p50Ratio[name] = { median: median(p50s), rounds: p50s };
  }
  return out;
}
