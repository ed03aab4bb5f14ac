/**
 * HAProxy (Debian's, send-proxy-v2, health check on the operator port's /ready) in front of two
 * Lineup processes on the hot standby, as docs/operations.md "Behind a load balancer" configures
 * it. Registered inside the topology describe (replicas.topology.ts), which owns the cluster.
 *
 * - client addresses: 127.0.0.2 and 127.0.0.3 through the proxy have their own buckets on each
 *   process (each process is reached through its own single-server frontend, so which process
 *   counts a request is known: rate limits are per process);
 * - the keep-alive rule: requests spaced around Lineup's keep-alive deadline through the proxy
 *   (one server, so HAProxy reuses the connection Lineup is closing) are never a 502;
 * - a graceful stop (SIGTERM) of one process during load: no 5xx and no reset to clients.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Cleanup, LineupProcess } from './cluster.js';
import { startLineup } from './cluster.js';
import { CHECK_FALL, CHECK_INTER_MS, LISTEN_HOST, startHaproxy, via } from './haproxy.js';
import { runLoad, sleep } from './load.js';
import type { Fetcher } from './traverse.js';

export interface ProxyContext {
  readonly cleanup: Cleanup;
  readonly dir: string;
  readonly databaseUrl: string;
  readonly portBase: number;
  readonly loadPaths: (fetcher: Fetcher) => Promise<Array<{ path: string; etag: string | null }>>;
}

/** Lineup's keep-alive deadline here (short, so requests can be spaced around it quickly). */
const KEEP_ALIVE_MS = 1500;
/** Longer than HAProxy's check interval × fall, so HAProxy takes the process out before it stops admitting. */
const SHUTDOWN_DELAY_MS = CHECK_INTER_MS * CHECK_FALL + 1500;

export function haproxyProof(context: () => ProxyContext): void {
  describe('behind HAProxy (send-proxy-v2, health check on /ready)', () => {
    let lineups: LineupProcess[];
    let ports: { balanced: number; single: number[] };

    before(async () => {
      const { cleanup, dir, databaseUrl, portBase } = context();
      const admin = [portBase + 10, portBase + 11];
      ports = { balanced: portBase + 20, single: [portBase + 21, portBase + 22] };
      lineups = await Promise.all(
        admin.map((adminPort, i) =>
          startLineup(
            `proxied-${i + 1}`,
            {
              DATABASE_URL: databaseUrl,
              // HAProxy connects from 127.0.0.1: only it is trusted to send a PROXY header
              LINEUP_PROXY_PROTOCOL: '127.0.0.1',
              LINEUP_ADMIN_PORT: String(adminPort),
              LINEUP_ADMIN_HOST: LISTEN_HOST,
              LINEUP_SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
              LINEUP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
              LINEUP_DB_READS: '4',
              // the spec's rate defaults: burst 60, refill 1/s
            },
            cleanup,
          ),
        ),
      );
      const backends = lineups.map((p, i) => ({ address: new URL(p.url).host, adminPort: admin[i]! }));
      await startHaproxy(dir, ports, backends, cleanup);
    });
    after(() => Promise.all((lineups ?? []).map((p) => p.stop())));

    it('two client addresses through the proxy have their own buckets on each process: the 61st of one is 429, the other is served', async () => {
      for (const [i, port] of ports.single.entries()) {
        const first = via(port, '127.0.0.2');
        const second = via(port, '127.0.0.3');
        const started = Date.now();
        const statuses = await Promise.all(Array.from({ length: 70 }, async () => (await first('/v1/venues?limit=1')).status));
        const seconds = (Date.now() - started) / 1000;
        const ok = statuses.filter((s) => s === 200).length;
        const limited = statuses.filter((s) => s === 429).length;
        // 60 of the burst, plus at most the tokens refilled (1/s) while they were sent
        assert.equal(ok + limited, 70, `${lineups[i]!.name}: ${statuses}`);
        assert.ok(ok >= 60 && ok <= 60 + Math.ceil(seconds), `${lineups[i]!.name}: ${ok} served in ${seconds} s`);
        assert.ok(limited > 0, lineups[i]!.name);
        // the other client address, through the same proxy to the same process: its own bucket
        assert.equal((await second('/v1/venues?limit=1')).status, 200, lineups[i]!.name);
        assert.equal((await first('/v1/venues?limit=1')).status, 429, lineups[i]!.name);
      }
    });

    it("the keep-alive rule: requests spaced around Lineup's keep-alive deadline through the proxy are never a 502", async () => {
      // one server, so HAProxy reuses its idle connections to the process that is closing them:
      // rounds of 4 concurrent requests (4 server connections, each idle since the last round),
      // the pause between rounds swept over Lineup's deadline in 2 ms steps
      const client = via(ports.single[0]!, '127.0.0.4');
      const statuses: number[] = [];
      const round = async () => statuses.push(...(await Promise.all([1, 2, 3, 4].map(async (i) => (await client(`/v1/series?limit=${i}`)).status))));
      for (let gap = KEEP_ALIVE_MS - 10; gap <= KEEP_ALIVE_MS + 10; gap += 2) {
        await round();
        await sleep(gap);
      }
      await round();
      assert.deepEqual(statuses.filter((s) => s !== 200), [], String(statuses));
    });

    it('one process stopped gracefully (SIGTERM) during load: no 5xx and no reset to the clients of the proxy', async () => {
      // many client addresses, so most of the load stays within each one's bucket (a fast run can
      // still empty some: 429s are allowed here, 5xx and resets are not)
      let n = 0;
      const client = via(ports.balanced, () => `127.0.0.${10 + (n++ % 40)}`);
      const paths = await context().loadPaths(client);
      let stop!: () => void;
      const finished = new Promise<void>((r) => (stop = r));
      const load = runLoad({ targets: [client], paths, concurrency: 4, until: finished });
      await sleep(1000);
      const exit = await lineups[0]!.stop();
      await sleep(1000);
      stop();
      const result = await load;
      console.log(`haproxy, one of two processes stopped: ${result.requests} requests, statuses ${JSON.stringify(result.statuses)}`);
      assert.equal(exit, 0, lineups[0]!.output());
      assert.deepEqual(result.failures.slice(0, 5), [], JSON.stringify(result.statuses));
      assert.ok((result.statuses[200] ?? 0) > 50, JSON.stringify(result.statuses));
      // the remaining process serves alone through the balanced frontend (to an address the load
      // did not use: its bucket is full, whatever the load spent of the others')
      assert.equal((await via(ports.balanced, '127.0.0.99')('/v1/events?limit=1')).status, 200);
    });
  });
}
