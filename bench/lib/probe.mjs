/**
 * The health probe of the overload scenario: a separate client timing `GET /v1/health`, one
 * request at a time, each on a new connection (as a load balancer's check or an uptime monitor
 * connects), from loopback addresses of its own (127.0.1.x), so that it never shares the
 * overloading client's rate-limit bucket and each address stays within its own burst.
 */
import http from 'node:http';
import { percentile, sleep } from './util.mjs';

/** Bounded in count and time: at most `count` probes, stopping after `seconds` in any case. */
export async function probeHealth(port, { count, seconds, pauseMs = 20, addresses = 40, path = '/v1/health' }) {
  const times = [];
  const statuses = {};
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  for (let i = 0; i < count && performance.now() < until; i++) {
    const localAddress = `127.0.1.${1 + (i % addresses)}`;
    const started = performance.now();
    const status = await once(port, path, localAddress, Math.max(1000, until - performance.now() + 10_000));
    times.push(performance.now() - started);
    if (status === 0) failed++;
    else statuses[status] = (statuses[status] ?? 0) + 1;
    await sleep(pauseMs);
  }
  return { times, statuses, failed };
}

/** Percentiles of probe times (milliseconds), pooled over rounds. */
export function probeSummary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

/** One request on a new connection: its status, or 0 when it failed or timed out. */
function once(port, path, localAddress, timeoutMs) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, localAddress, agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.setTimeout(timeoutMs, () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}
