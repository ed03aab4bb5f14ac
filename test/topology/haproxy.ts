/**
 * Debian's HAProxy in front of Lineup processes for the topology proof, with the configuration of
 * docs/operations.md ("Behind a load balancer"), and an HTTP client that chooses its source
 * address (127.0.0.x on loopback) so that HAProxy forwards different client addresses.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import type { Cleanup } from './cluster.js';
import type { Fetcher } from './traverse.js';

/**
 * Where the test binds its late listeners (HAProxy's frontends, Lineup's operator ports): a
 * loopback address of their own, since the fixed ports lie in the ephemeral range and, on
 * 127.0.0.1, may be held by the many client connections made before (seen: EADDRINUSE).
 */
export const LISTEN_HOST = '127.0.0.100';

export interface Backend {
  /** host:port of its public listener (PROXY protocol v2 expected from HAProxy). */
  readonly address: string;
  /** Its operator port on LISTEN_HOST (health check GET /ready). */
  readonly adminPort: number;
}

export interface HaproxyPorts {
  /** Round robin over every backend, as in the documented configuration. */
  readonly balanced: number;
  /** One frontend per backend (test only), so a client's requests reach one known process. */
  readonly single: readonly number[];
}

/** Check interval and fall count: Lineup's LINEUP_SHUTDOWN_DELAY_MS must exceed their product. */
export const CHECK_INTER_MS = 500;
export const CHECK_FALL = 2;

/**
 * The documented configuration (docs/operations.md), on loopback, with the check interval shorter
 * so the proof is quick. Runs in the foreground (-db) and is stopped by the cleanup.
 */
export async function startHaproxy(dir: string, ports: HaproxyPorts, backends: readonly Backend[], cleanup: Cleanup): Promise<void> {
  const servers = (list: readonly Backend[]) => list.map((b, i) => `    server lineup${i + 1} ${b.address} check addr ${LISTEN_HOST} port ${b.adminPort}`);
  const backend = (name: string, list: readonly Backend[]) => [
    `backend ${name}`,
    '    balance roundrobin',
    '    option httpchk GET /ready',
    '    http-check expect status 200',
    `    default-server send-proxy-v2 check inter ${CHECK_INTER_MS}ms fall ${CHECK_FALL} rise 2`,
    ...servers(list),
    '',
  ];
  const config = [
    'global',
    '    maxconn 1000',
    '',
    'defaults',
    '    mode http',
    '    timeout connect 2s',
    '    timeout client 30s',
    '    timeout server 30s',
    '    timeout http-keep-alive 4s',
    '    retry-on conn-failure empty-response response-timeout',
    '    retries 2',
    '    option redispatch',
    '',
    'frontend lineup_public',
    `    bind ${LISTEN_HOST}:${ports.balanced}`,
    '    default_backend lineup',
    '',
    ...backends.flatMap((_, i) => [`frontend lineup_only${i + 1}`, `    bind ${LISTEN_HOST}:${ports.single[i]}`, `    default_backend lineup_only${i + 1}`, '']),
    ...backend('lineup', backends),
    ...backends.flatMap((b, i) => backend(`lineup_only${i + 1}`, [b]).map((l) => l.replace(/server lineup1 /, `server lineup${i + 1} `))),
  ].join('\n');
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const checked = spawnSync('haproxy', ['-c', '-f', file], { encoding: 'utf8' });
  if (checked.status !== 0) throw new Error(`haproxy -c refused the configuration: ${checked.stderr}${checked.stdout}\n${config}`);
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c) => (err += String(c)));
  let exited = false;
  child.on('exit', () => (exited = true));
  cleanup.add(() => {
    if (!exited) child.kill('SIGTERM');
  });
  // up when a request through the balanced frontend is answered by a Lineup process
  const deadline = Date.now() + 20_000;
  const get = via(ports.balanced, '127.0.0.9');
  for (;;) {
    try {
      if ((await get('/v1/ready')).status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (exited || Date.now() > deadline) throw new Error(`haproxy did not serve: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A Fetcher through LISTEN_HOST:`port` whose connections leave from `localAddress` (keep-alive
 * connections, like a browser's; at most 4 at a time, within the processes' LINEUP_DB_READS, since
 * admission does not queue). A reset or other socket error rejects, as fetch does.
 */
export function via(port: number, localAddress: string | (() => string)): Fetcher {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  return (path, init) =>
    new Promise<Response>((resolveResponse, reject) => {
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      const req = http.get(
        { host: LISTEN_HOST, port, path, agent, headers, localAddress: typeof localAddress === 'string' ? localAddress : localAddress() },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const status = res.statusCode!;
            const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
            resolveResponse(new Response(body, { status, headers: h }));
          });
        },
      );
      req.on('error', reject);
    });
}
