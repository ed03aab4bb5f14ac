/**
 * buildApp(config, db): the HTTP service — hooks, routes and error rendering — without
 * listening (tests inject or listen on an ephemeral port; server.ts listens for real).
 *
 * Order of work for every request (onRequest): request id and CORS headers, stop admission when
 * shutting down, URL length (414), request bodies refused. Routes then run their stages;
 * every failure is rendered once, by the error handler, as the envelope.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import type { Database } from './db/database.js';
import { Reader, type StatementObserver, type StatementOutcome } from './db/reader.js';
import { PreparedStatements } from './db/prepared.js';
import { Gate } from './limits/admission.js';
import { ReadAdmission } from './limits/reads.js';
import { RateLimiter } from './limits/token-bucket.js';
import {
  ApiError,
  publicError,
  internalError,
  invalidQuery,
  methodNotAllowed,
  notFound,
  rateLimited,
  unavailable,
  uriTooLong,
} from './http/errors.js';
import { sendError, CACHE_NONE } from './http/respond.js';
import { createClientErrorHandler } from './http/client-errors.js';
import { knownPath, OPERATIONAL_PATHS, RESOURCE_PATHS } from './http/routes/known-paths.js';
import { operationalRoutes } from './http/routes/operational.js';
import { eventsRoutes } from './http/routes/events.js';
import { eventMemberRoutes } from './http/routes/event-members.js';
import { artistsRoutes } from './http/routes/artists.js';
import { venuesRoutes } from './http/routes/venues.js';
import { seriesRoutes } from './http/routes/series.js';
import { calendarRoutes } from './http/routes/calendars.js';
import type { RouteContext } from './http/routes/context.js';
import type { ServiceState } from './http/service-state.js';
import { pathOf } from './controls/query-string.js';
import { MAX_URL_BYTES } from './plan/url-budget.js';
import { createOperations, type Operations } from './http/admin/operations.js';
import { currentScope, observePool, observeRequests, parserRefused, refuse, scopeOf } from './http/observe.js';
import { acceptProxyProtocol } from './limits/proxy-protocol.js';
import { trustedMatcher } from './config/trusted-sources.js';

export interface AppOptions {
  readonly config: Config;
  readonly db: Database;
  readonly logger?: Logger;
  /** Test instrumentation: sees every statement a read issues. */
  readonly onStatement?: StatementObserver;
  readonly clock?: () => Date;
  readonly state?: ServiceState;
  /** Injected clock for the rate limiter (milliseconds). */
  readonly limiterNow?: () => number;
  /** Metrics and the readiness probe, shared with the operator listener (created if absent). */
  readonly operations?: Operations;
}

/** Spec default of LINEUP_MAX_REQUESTS_PER_CONNECTION. */
export const MAX_REQUESTS_PER_CONNECTION = 100;
export const EXPOSED_HEADERS = 'ETag, Retry-After, Age, X-Request-ID';

/** Listener limits of the spec's Limits table (the deadlines are settings, the spec's by default). */
function serverFactory(config: Config, ops: Operations, handler: http.RequestListener): http.Server {
  const server = http.createServer(
    // connectionsCheckingInterval: enforce the deadlines promptly (Node's default checks every 30 s)
    {
      maxHeaderSize: 16 * 1024,
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(500, config.headersTimeoutMs),
    },
    handler,
  );
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  if (config.proxyProtocol.length > 0) {
    acceptProxyProtocol(server, {
      trusted: trustedMatcher(config.proxyProtocol),
      headerTimeoutMs: config.headersTimeoutMs,
      onReject: (reason) => ops.metrics.proxyRejections.inc({ reason }),
    });
  }
  // A connection with no traffic either way for 15 s (e.g. a client that stopped reading) is closed.
  server.setTimeout(15_000);
  // At most 100 requests per connection (LINEUP_MAX_REQUESTS_PER_CONNECTION) is enforced in the onRequest hook (the 100th response
  // carries Connection: close) rather than by server.maxRequestsPerSocket, whose bare 503 for a
  // pipelined 101st request would carry neither the envelope nor a request id.
  return server;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { db, config } = opts;
  const state: ServiceState = opts.state ?? { stopping: false };
  const clock = opts.clock ?? (() => new Date());
  const ops = opts.operations ?? createOperations(db, config);
  const { metrics } = ops;
  // Parser-level refusals never reach a hook: logged with the request id they answered with.
  let log: FastifyInstance['log'] | undefined;
  const clientErrorHandler = createClientErrorHandler({
    requestTimeoutMs: config.requestTimeoutMs,
    onRefusal: (refusal) => parserRefused(log, metrics, refusal),
  });
  const options: FastifyServerOptions = {
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // one structured line per request is written by the onResponse hook instead
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: false,
    bodyLimit: 1024,
    routerOptions: { maxParamLength: 500 },
    serverFactory: ((handler: http.RequestListener) => serverFactory(config, ops, handler)) as FastifyServerOptions['serverFactory'],
    clientErrorHandler,
    // The router's own refusals (a path segment that is not valid percent-encoded UTF-8, or a
    // path parameter longer than maxParamLength) bypass the hooks and would answer Fastify's
    // bare 400/414: give them the same admission, headers and envelope as any request. Such a
    // path holds no well-formed publicId, so it is a 404 (decisions §2), or a 405 for a method
    // the path shape does not allow.
    frameworkErrors: (_err, request, reply) => {
      admit(request, reply)
        .then(() => {
          const known = knownPath(pathOf(request.raw.url ?? ''));
          const allowed = known?.allow.split(', ').includes(request.method) ?? true;
          throw known && !allowed ? methodNotAllowed(known.allow) : notFound();
        })
        .catch((err: unknown) => sendError(reply, err instanceof ApiError ? err : internalError()));
    },
  };
  const app = Fastify({ ...options, ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }) });
  log = app.log;

  const limiter = new RateLimiter({
    burst: config.rateBurst,
    refillPerSec: config.rateRefillPerSec,
    maxIdentities: config.rateMaxIdentities,
    idleMs: config.rateIdleMs,
    ...(opts.limiterNow ? { now: opts.limiterNow } : {}),
  });
  const routeGate = new Gate(config.maxActiveRequests);

  const requestsPerSocket = new WeakMap<object, number>();
  const executions = new WeakMap<object, () => void>();

  /** Every request's admission (onRequest; also the router's own refusals, above). */
  async function admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.header('X-Request-ID', request.id);
    const served = (requestsPerSocket.get(request.socket) ?? 0) + 1;
    requestsPerSocket.set(request.socket, served);
    if (served >= config.maxRequestsPerConnection) reply.header('Connection', 'close');
    reply.header('Access-Control-Allow-Origin', '*');
    reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (state.stopping) {
      reply.header('Connection', 'close');
      refuse(request, metrics, 'stopping');
      throw unavailable('The service is stopping.');
    }
    // Spec Limits rule 1: every request the limiter lets through spends a token, including
    // ones that later fail validation and preflights. Identity is the socket peer (rule 2),
    // which the PROXY protocol, when trusted, has set to the real client.
    const verdict = limiter.take(scopeOf(request).peer);
    if (verdict.kind === 'limited') {
      refuse(request, metrics, 'rate_limited');
      throw rateLimited(verdict.retryAfterSeconds);
    }
    if (verdict.kind === 'full') {
      refuse(request, metrics, 'identity_store_full');
      throw unavailable('Too many clients right now; retry later.', verdict.retryAfterSeconds);
    }
    if (!routeGate.tryEnter()) {
      refuse(request, metrics, 'route_executions_full');
      throw unavailable('The service is at capacity; retry later.');
    }
    // The execution ends when its response is handed to the socket (onSend), so a client that
    // never reads cannot hold execution slots; 'close' covers a client that left before that.
    let left = false;
    const leave = () => {
      if (!left) {
        left = true;
        routeGate.leave();
      }
    };
    executions.set(request, leave);
    reply.raw.once('close', leave);
    if (Buffer.byteLength(request.raw.url ?? '', 'utf8') > MAX_URL_BYTES) throw uriTooLong();
    const length = request.headers['content-length'];
    if ((length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined) {
      // The body is never read: the connection cannot carry another request after this answer.
      reply.header('Connection', 'close');
      // Decisions §5: the path and the method are decided before the body (unknown path 404,
      // unsupported method 405 with Allow); only a supported method with a body is a 400.
      const known = knownPath(pathOf(request.raw.url ?? ''));
      if (!known) throw notFound();
      if (!known.allow.split(', ').includes(request.method)) throw methodNotAllowed(known.allow);
      throw invalidQuery('Request bodies are not accepted.');
    }
  }
  observeRequests(app, metrics); // first: the request scope, then the request's log line and metrics
  app.addHook('onRequest', admit);
  app.addHook('onSend', async (request, reply) => {
    executions.get(request)?.();
    // while stopping, a connection carries no further request: the drain ends with its answer
    if (state.stopping) reply.header('Connection', 'close');
  });

  app.setErrorHandler((err, request, reply) => {
    const { kind, error } = publicError(err);
    if (kind === 'unavailable') {
      refuse(request, metrics, 'database_unavailable');
      request.log.warn({ cause: (err as Error).message }, 'database unavailable');
    } else if (kind === 'stored-data') {
      request.log.error({ cause: (err as Error).message }, 'invalid stored projection');
    } else if (kind === 'programming') {
      request.log.error({ err }, 'programming error: a read ran over its statement budget');
    } else if (kind === 'unknown') {
      request.log.error({ err }, 'unexpected failure');
    }
    return sendError(reply, error);
  });

  app.setNotFoundHandler((request, reply) => {
    const known = knownPath(pathOf(request.raw.url ?? ''));
    return sendError(reply, known ? methodNotAllowed(known.allow) : notFound());
  });

  // Browser preflight for every path, operational ones included (spec: Pre-flight and CORS).
  for (const path of [...RESOURCE_PATHS, ...OPERATIONAL_PATHS]) {
    app.options(path, async (_request, reply) =>
      reply
        .code(204)
        .header('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS')
        .header('Access-Control-Allow-Headers', 'If-None-Match')
        .header('Access-Control-Max-Age', '600')
        .header('Cache-Control', CACHE_NONE)
        .send(),
    );
  }

  const statementDeadlineMs = config.statementTimeoutMs + (db.engine === 'postgres' ? 250 : 0);
  const prepared = new PreparedStatements(config.preparedStatements, (message) => app.log.warn(message));
  // Admitted database reads: at most LINEUP_DB_READS at once, no queue (spec Limits). A slot is
  // held until the database has finished the read's work (limits/reads.ts).
  const reads = new ReadAdmission(
    config.dbReads,
    () => {
      const scope = currentScope();
      const timing = (kind: string, seconds: number, outcome: StatementOutcome) => {
        metrics.statement(kind, seconds, outcome);
        if (scope) scope.dbSeconds += seconds;
      };
      return new Reader(db, opts.onStatement, statementDeadlineMs, prepared, timing);
    },
    () => {
      const scope = currentScope();
      if (scope && scope.refusal === null) {
        scope.refusal = 'database_reads_full';
        metrics.refused('database_reads_full');
      }
    },
  );
  const ctx: RouteContext = { clock, read: (fn) => reads.run(fn) };
  metrics.watch({
    pool: db.pool,
    readSlots: config.dbReads,
    readSlotsInUse: () => reads.active,
    routeExecutionsInUse: () => routeGate.active,
    limiterIdentities: () => limiter.size,
  });
  observePool(app, db.pool, metrics);
  operationalRoutes(app, ops.ready, state);
  eventsRoutes(app, ctx);
  eventMemberRoutes(app, ctx);
  artistsRoutes(app, ctx);
  venuesRoutes(app, ctx);
  seriesRoutes(app, ctx);
  calendarRoutes(app, ctx);

  await app.ready();
  return app;
}
