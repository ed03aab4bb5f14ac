/**
 * The operator listener (LINEUP_ADMIN_PORT, off by default; LINEUP_ADMIN_HOST, 127.0.0.1): a
 * second Fastify instance on its own port, in the manner of PostgREST's admin server. It is
 * never rate-limited nor admission-gated (none of the public app's hooks run here) and serves
 * no catalogue data:
 * - GET /live: 200 while the process runs (no database work), for a liveness probe;
 * - GET /ready: 200 when the database answers (the same shared probe as /v1/ready), 503 while
 *   stopping or while the database is unavailable, for a readiness probe or a load balancer;
 * - GET /metrics: Prometheus text format.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { CACHE_NONE } from '../respond.js';
import type { ServiceState } from '../service-state.js';
import type { Operations } from './operations.js';

export interface AdminOptions {
  readonly operations: Operations;
  readonly state: ServiceState;
  readonly logger?: Logger;
}

export async function buildAdminApp({ operations, state, logger }: AdminOptions): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    ...(logger ? { loggerInstance: logger.child({ listener: 'admin' }) } : { logger: false }),
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: false,
  }) as unknown as FastifyInstance;
  const noStore = { 'Cache-Control': CACHE_NONE };
  app.get('/live', async (_request, reply) => reply.headers(noStore).send({ status: 'live' }));
  app.get('/ready', async (_request, reply) => {
    if (state.stopping || state.notReady) return reply.code(503).headers(noStore).send({ status: 'stopping' });
    if (!(await operations.ready())) return reply.code(503).headers(noStore).send({ status: 'database unavailable' });
    return reply.headers(noStore).send({ status: 'ready' });
  });
  app.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await operations.metrics.text();
    return reply.headers(noStore).type(contentType).send(body);
  });
  await app.ready();
  return app;
}

export interface RunningAdmin {
  readonly app: FastifyInstance;
  readonly url: string;
  close(): Promise<void>;
}

export async function startAdmin(host: string, port: number, options: AdminOptions): Promise<RunningAdmin> {
  const app = await buildAdminApp(options);
  await app.listen({
    host,
    port,
    listenTextResolver: (address) => `Lineup operator listener on ${address} (/live, /ready, /metrics)`,
  });
  const address = app.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
  return {
    app,
    url,
    async close() {
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
    },
  };
}
