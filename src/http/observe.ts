/**
 * What the service records about each request: one log line (`request`; a refusal by admission,
 * the database or capacity is counted in the interval's summary instead, refusal-log.ts, and its
 * own `refused` line with the reason is at debug level), the request metrics, and the
 * per-request scope the database layer adds its time to. Routes hand the scope to the read gate
 * (`scopeOf(request)`): AsyncLocalStorage would carry it implicitly, but its promise hooks cost
 * every promise of every request.
 *
 * A client's W3C `traceparent` is logged when valid (parsed by @opentelemetry/core), so one
 * request can be followed across a proxy and Lineup; the response keeps its own X-Request-ID.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseTraceParent } from '@opentelemetry/core';
import { clientIdentity } from '../limits/client-identity.js';
import type { Metrics, RefusalReason } from '../metrics/metrics.js';
import type { ParserRefusal } from './client-errors.js';
import type { RefusalLog } from './refusal-log.js';

export interface RequestScope {
  /** The rate limiter's identity key of the socket peer (spec Limits rule 2). */
  readonly peer: string;
  /** The client's traceparent, when valid. */
  readonly traceparent: string | null;
  /** Database time spent for this request (sum of its statements' durations). */
  dbSeconds: number;
  /** Why the request was refused, if it was. */
  refusal: RefusalReason | null;
}

const scopes = new WeakMap<FastifyRequest, RequestScope>();

/** A traceparent header's canonical form when valid (version-traceid-parentid-flags), else null. */
export function validTraceparent(header: string | string[] | undefined): string | null {
  // Node joins repeated headers with ", ", which then fails the format: several is invalid (W3C).
  if (typeof header !== 'string' || header.length > 512) return null;
  const context = parseTraceParent(header);
  if (context === null) return null;
  const version = header.trim().slice(0, 2);
  return `${version}-${context.traceId}-${context.spanId}-${context.traceFlags.toString(16).padStart(2, '0')}`;
}

export function scopeOf(request: FastifyRequest): RequestScope {
  let scope = scopes.get(request);
  if (scope === undefined) {
    scope = {
      peer: clientIdentity(request.socket.remoteAddress),
      traceparent: validTraceparent(request.headers.traceparent),
      dbSeconds: 0,
      refusal: null,
    };
    scopes.set(request, scope);
  }
  return scope;
}

/** Registers the per-request log line and metrics; refusals go to the interval's summary. */
export function observeRequests(app: FastifyInstance, metrics: Metrics, refusals: RefusalLog): void {
  app.addHook('onResponse', (request, reply, done) => {
    try {
      const scope = scopeOf(request);
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.request(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
      if (scope.refusal !== null) {
        refusals.add(scope.refusal);
        if (debugEnabled(request.log)) request.log.debug({ ...requestLine(request, reply, scope, route), reason: scope.refusal }, 'refused');
      } else {
        request.log.info(requestLine(request, reply, scope, route), 'request');
      }
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });
}

// request.log already carries reqId (Fastify's child logger): not repeated here
function requestLine(request: FastifyRequest, reply: FastifyReply, scope: RequestScope, route: string) {
  return {
    method: request.method,
    route,
    url: request.raw.url?.slice(0, 256),
    status: reply.statusCode,
    durationMs: round(reply.elapsedTime),
    peer: scope.peer,
    dbMs: round(scope.dbSeconds * 1000),
    ...(scope.traceparent ? { traceparent: scope.traceparent } : {}),
  };
}

/** Marks the request refused for this reason (its log line says why) and counts it. */
export function refuse(request: FastifyRequest, metrics: Metrics, reason: RefusalReason): void {
  const scope = scopeOf(request);
  if (scope.refusal === null) metrics.refused(reason);
  scope.refusal = reason;
}

/**
 * A refusal by Node's HTTP parser (no request object, no route): counted in the metrics and the
 * interval's summary; its own line, with the request id it answered with, at debug level.
 */
export function parserRefused(log: FastifyInstance['log'] | undefined, metrics: Metrics, refusals: RefusalLog, refusal: ParserRefusal): void {
  metrics.refused(refusal.reason);
  refusals.add(refusal.reason);
  if (log !== undefined && debugEnabled(log)) {
    log.debug(
      {
        reqId: refusal.requestId,
        reason: refusal.reason,
        status: refusal.status,
        code: refusal.code,
        route: null,
        peer: clientIdentity(refusal.remoteAddress),
        dbMs: 0,
      },
      'refused',
    );
  }
}

/**
 * An idle connection's error (the server closed it) is logged and counted, not swallowed; the
 * pool replaces the connection on the next checkout.
 */
export function observePool(app: FastifyInstance, pool: { on(event: 'error', listener: (err: Error) => void): unknown }, metrics: Metrics): void {
  pool.on('error', (err: Error) => {
    metrics.poolErrors.inc();
    app.log.warn({ err: { message: err.message, code: (err as { code?: unknown }).code } }, 'database pool error');
  });
}

/** Whether debug lines are written (pino's check; a logger without one, as Fastify's no-op logger, writes none). */
function debugEnabled(log: FastifyInstance['log']): boolean {
  const check = (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return typeof check === 'function' && check.call(log, 'debug');
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
