/**
 * 3. Load: wrk (a C load generator: it takes far less of the shared CPU than a Node client) with
 * bench/wrk/statuses.lua, which counts responses per status. Throughput counts only responses
 * with the expected status; latency percentiles are wrk's, over every response (a run with
 * other statuses says so in the report).
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './config.mjs';

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
  return { rps: ok / seconds_, p50: r.p50Us / 1000, p99: r.p99Us / 1000, ok, other: total - ok, statuses: r.statuses, errors: r.errors };
}
