/**
 * CORS: every response may be read by any origin (its headers set before any refusal, so
 * refusals carry them too), and a browser's preflight is answered 204 on every path,
 * operational ones and the API reference's included (spec: Pre-flight and CORS).
 */
import fp from 'fastify-plugin';
import { ALLOW_ORIGIN, EXPOSED_HEADERS, PREFLIGHT } from '../cors-headers.js';
import { CACHE_NONE } from '../respond.js';
import { OPERATIONAL_PATHS, REFERENCE_PATHS, RESOURCE_PATHS } from '../routes/known-paths.js';
import { addRequestStage } from './request-stages.js';

export interface CorsOptions {
  /** Whether the API reference is served (its paths answer preflights too). */
  readonly reference: boolean;
}

export const cors = fp<CorsOptions>(
  async (app, { reference }) => {
    addRequestStage(app, (_request, reply) => {
      reply.header('Access-Control-Allow-Origin', ALLOW_ORIGIN);
      reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    });
    for (const path of [...RESOURCE_PATHS, ...OPERATIONAL_PATHS, ...(reference ? REFERENCE_PATHS : [])]) {
      app.options(path, async (_request, reply) =>
        reply
          .code(204)
          .header('Access-Control-Allow-Methods', PREFLIGHT.allowMethods)
          .header('Access-Control-Allow-Headers', PREFLIGHT.allowHeaders)
          .header('Access-Control-Max-Age', String(PREFLIGHT.maxAgeSeconds))
          .header('Cache-Control', CACHE_NONE)
          .send(),
      );
    }
  },
  { name: 'lineup-cors' },
);
