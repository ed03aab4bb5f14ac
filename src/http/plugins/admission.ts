/**
 * Admission, after the request id and CORS headers are set: refused while stopping, the rate
 * limit (spec Limits rules 1-2), the route-execution cap (no queue), the URL length (414), and
 * request bodies (never read). An admitted request holds its execution slot until its response
 * is handed to the socket.
 */
import fp from 'fastify-plugin';
import type { Config } from '../../config/config.js';
import { pathOf } from '../../controls/query-string.js';
import { Gate } from '../../limits/admission.js';
import { RateLimiter } from '../../limits/token-bucket.js';
import type { Metrics } from '../../metrics/metrics.js';
import { MAX_URL_BYTES } from '../../plan/url-budget.js';
import { invalidQuery, methodNotAllowed, notFound, rateLimited, unavailable, uriTooLong } from '../errors.js';
import { refuse, scopeOf } from '../observe.js';
import { allows, knownPath, servedPaths } from '../routes/known-paths.js';
import type { ServiceState } from '../service-state.js';
import { addRequestStage } from './request-stages.js';

export interface AdmissionOptions {
  readonly config: Config;
  readonly state: ServiceState;
  readonly metrics: Metrics;
  /** Injected clock for the rate limiter (milliseconds). */
  readonly limiterNow?: () => number;
}

export const admission = fp<AdmissionOptions>(
  async (app, { config, state, metrics, limiterNow }) => {
    const limiter = new RateLimiter({
      burst: config.rateBurst,
      refillPerSec: config.rateRefillPerSec,
      maxIdentities: config.rateMaxIdentities,
      idleMs: config.rateIdleMs,
      ...(limiterNow ? { now: limiterNow } : {}),
    });
    const routeGate = new Gate(config.maxActiveRequests);
    const served = servedPaths(config.docs);
    const executions = new WeakMap<object, () => void>();
    metrics.watch({ routeExecutionsInUse: () => routeGate.active, limiterIdentities: () => limiter.size });

    addRequestStage(app, (request, reply) => {
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
      // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400 (the listener leaves it to us)
      if (request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor === 1 && request.headers.host === undefined) {
        throw invalidQuery('An HTTP/1.1 request needs a Host header.');
      }
      // RFC 9112 §3.2: more than one Host line is a 400 (Node keeps the first and drops the rest)
      if (hostLines(request.raw.rawHeaders) > 1) throw invalidQuery('A request may carry only one Host header.');
      if (Buffer.byteLength(request.raw.url ?? '', 'utf8') > MAX_URL_BYTES) throw uriTooLong();
      const length = request.headers['content-length'];
      if ((length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined) {
        // The body is never read: the connection cannot carry another request after this answer.
        reply.header('Connection', 'close');
        // Decisions §5: the path and the method are decided before the body (unknown path 404,
        // unsupported method 405 with Allow); only a supported method with a body is a 400.
        const known = knownPath(pathOf(request.raw.url ?? ''), served);
        if (!known) throw notFound();
        if (!allows(known, request.method)) throw methodNotAllowed(known.allow);
        throw invalidQuery('Request bodies are not accepted.');
      }
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      executions.get(request)?.();
      // while stopping, a connection carries no further request: the drain ends with its answer
      if (state.stopping) reply.header('Connection', 'close');
      done(null, payload);
    });
  },
  { name: 'lineup-admission' },
);

/** How many header lines of a request are Host (rawHeaders alternates names and values). */
export function hostLines(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}
