/**
 * buildApp(config, db): the HTTP service without listening (tests inject or listen on an
 * ephemeral port; server.ts listens for real). It reads as the list of its stages, each a
 * Fastify plugin named for its concern (src/http/plugins/), registered in request order:
 *
 *   errors      every failure rendered once as the envelope (first: routes take its handler)
 *   observe     the request's scope, then its log line and metrics
 *   connection  X-Request-ID, requests per connection
 *   cors        CORS headers on every response, preflight answers
 *   admission   stopping, rate limit, route executions, URL length, no bodies
 *   read-gate   admitted database reads
 *   routes      controls → plan → SQL → projection → envelope → ETag
 *   reference   /openapi.json and /docs, unless LINEUP_DOCS=false
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import type { Database } from './db/database.js';
import type { StatementObserver } from './db/reader.js';
import { createOperations, type Operations } from './http/admin/operations.js';
import { createClientErrorHandler } from './http/client-errors.js';
import { createListener } from './http/listener.js';
import { parserRefused, scopeOf } from './http/observe.js';
import { RefusalLog } from './http/refusal-log.js';
import { admission } from './http/plugins/admission.js';
import { connection } from './http/plugins/connection.js';
import { cors } from './http/plugins/cors.js';
import { errors, routerRefusal } from './http/plugins/errors.js';
import { observe } from './http/plugins/observe.js';
import { readGate } from './http/plugins/read-gate.js';
import { artistsRoutes } from './http/routes/artists.js';
import { calendarRoutes } from './http/routes/calendars.js';
import type { RouteContext } from './http/routes/context.js';
import { eventMemberRoutes } from './http/routes/event-members.js';
import { eventsRoutes } from './http/routes/events.js';
import { operationalRoutes } from './http/routes/operational.js';
import { servedPaths } from './http/routes/known-paths.js';
import { referenceRoutes } from './http/routes/reference.js';
import { seriesRoutes } from './http/routes/series.js';
import { venuesRoutes } from './http/routes/venues.js';
import type { ServiceState } from './http/service-state.js';

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

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { db, config } = opts;
  const state: ServiceState = opts.state ?? { stopping: false };
  const clock = opts.clock ?? (() => new Date());
  const ops = opts.operations ?? createOperations(db, config);
  const { metrics } = ops;
  const served = servedPaths(config.docs);
  const options: FastifyServerOptions = {
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // one structured line per request is written by the observe stage instead
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: false,
    bodyLimit: 1024,
    routerOptions: { maxParamLength: 500 },
    serverFactory: ((handler: http.RequestListener) => createListener(config, ops, handler)) as FastifyServerOptions['serverFactory'],
    // Parser-level refusals never reach a hook: logged with the request id they answered with.
    clientErrorHandler: createClientErrorHandler({
      requestTimeoutMs: config.requestTimeoutMs,
      onRefusal: (refusal) => parserRefused(app.log, metrics, refusals, refusal),
    }),
    frameworkErrors: routerRefusal(() => app, served),
  };
  const app: FastifyInstance = Fastify({ ...options, ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }) });
  const refusals = new RefusalLog(app.log, config.refusalLogIntervalMs);

  await app.register(errors, { metrics, served });
  await app.register(observe, { metrics, pool: db.pool, refusals });
  await app.register(connection, { maxRequestsPerConnection: config.maxRequestsPerConnection });
  await app.register(cors, { reference: config.docs });
  await app.register(admission, { config, state, metrics, limiterNow: opts.limiterNow });
  await app.register(readGate, { config, db, metrics, onStatement: opts.onStatement });

  const ctx: RouteContext = { clock, read: (request, fn) => app.reads.run(scopeOf(request), fn) };
  operationalRoutes(app, ops.ready, state);
  eventsRoutes(app, ctx);
  eventMemberRoutes(app, ctx);
  artistsRoutes(app, ctx);
  venuesRoutes(app, ctx);
  seriesRoutes(app, ctx);
  calendarRoutes(app, ctx);
  if (config.docs) referenceRoutes(app);

  await app.ready();
  return app;
}
