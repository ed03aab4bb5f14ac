/** 3. Load: autocannon against a running server. */
import autocannon from 'autocannon';
import { MAX_REQUESTS_PER_CONNECTION } from './config.mjs';
import { percentile } from './util.mjs';

export async function load(url, connections, seconds, headers, expected) {
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

