/**
 * How failures leave: every error a stage throws is rendered once, here, as the envelope
 * (http/errors.ts `publicError` decides status, type and message; this logs and counts it as
 * what it is). Unknown paths are 404, known paths with another method 405 with Allow; the
 * router's own refusals pass the request stages first, like any request.
 *
 * Registered before any route: a route takes the error handler in force when it is added.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { pathOf } from '../../controls/query-string.js';
import type { Metrics } from '../../metrics/metrics.js';
import { frameworkRefusalStatus, methodNotAllowed, notFound, publicError } from '../errors.js';
import { refuse } from '../observe.js';
import { sendError } from '../respond.js';
import { ALLOWED_METHODS, allows, knownPath, type ServedPaths } from '../routes/known-paths.js';
import { runRequestStages } from './request-stages.js';

export interface ErrorsOptions {
  readonly metrics: Metrics;
  /** The paths this service answers (a 405 on them, a 404 elsewhere). */
  readonly served: ServedPaths;
}

export const errors = fp<ErrorsOptions>(
  async (app, { metrics, served }) => {
    app.setErrorHandler((err, request, reply) => {
      // Fastify's own 4xx for a method no route serves (QUERY: Fastify parses its body before the
      // not-found handler, and refuses it) is decided by path and method first, as decisions §5
      // says: an unknown path 404, a known one 405 with Allow.
      if (!SERVED_METHODS.has(request.method) && frameworkRefusalStatus(err) !== null) {
        const known = knownPath(pathOf(request.raw.url ?? ''), served);
        return sendError(reply, known && !allows(known, request.method) ? methodNotAllowed(known.allow) : notFound());
      }
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
      const known = knownPath(pathOf(request.raw.url ?? ''), served);
      return sendError(reply, known ? methodNotAllowed(known.allow) : notFound());
    });
  },
  { name: 'lineup-errors' },
);

/** The methods Lineup's routes answer (every known path allows exactly these). */
const SERVED_METHODS: ReadonlySet<string> = new Set(ALLOWED_METHODS.split(', '));

/**
 * Fastify's `frameworkErrors`: the router's own refusals (a path segment that is not valid
 * percent-encoded UTF-8, or a path parameter longer than maxParamLength) bypass the hooks and
 * would answer Fastify's bare 400/414. They get the same stages, headers and envelope as any
 * request. Such a path holds no well-formed publicId, so it is a 404 (decisions §2), or a 405
 * for a method the path shape does not allow.
 */
export function routerRefusal(app: () => FastifyInstance, served: ServedPaths) {
  return (_err: unknown, request: FastifyRequest, reply: FastifyReply): void => {
    runRequestStages(app(), request, reply)
      .then(() => {
        const known = knownPath(pathOf(request.raw.url ?? ''), served);
        throw known && !allows(known, request.method) ? methodNotAllowed(known.allow) : notFound();
      })
      .catch((err: unknown) => sendError(reply, publicError(err).error));
  };
}
