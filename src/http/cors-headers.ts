/**
 * The anonymous CORS policy (spec: Pre-flight and CORS), one definition for the hooks, the
 * parser's raw refusals and the OpenAPI document: any origin, these response headers readable
 * by a page, and the preflight answer.
 */
import { ALLOWED_METHODS } from './routes/known-paths.js';

/** Every response, refusals included. */
export const ALLOW_ORIGIN = '*';
/** The response headers a browser page may read. */
export const EXPOSED_HEADERS = 'ETag, Retry-After, Age, X-Request-ID';

/** The preflight (OPTIONS) answer on every path. */
export const PREFLIGHT = {
  allowMethods: ALLOWED_METHODS,
  allowHeaders: 'If-None-Match',
  maxAgeSeconds: 600,
} as const;
