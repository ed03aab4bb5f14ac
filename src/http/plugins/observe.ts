/**
 * First stage: the request's scope (peer, traceparent, database time), its one log line (or its
 * count in the refusals' summary) and metrics when answered, and the pool's idle-connection
 * errors (see http/observe.ts).
 */
import fp from 'fastify-plugin';
import type { Metrics } from '../../metrics/metrics.js';
import { observePool, observeRequests } from '../observe.js';
import type { RefusalLog } from '../refusal-log.js';

export interface ObserveOptions {
  readonly metrics: Metrics;
  readonly pool: Parameters<typeof observePool>[1];
  readonly refusals: RefusalLog;
}

export const observe = fp<ObserveOptions>(
  async (app, { metrics, pool, refusals }) => {
    observeRequests(app, metrics, refusals); // each request's log line and metrics when answered
    refusals.start();
    app.addHook('onClose', (_app, done) => {
      refusals.stop(); // what was refused since the last summary
      done();
    });
    observePool(app, pool, metrics);
  },
  { name: 'lineup-observe' },
);
