/**
 * First stage: the request's scope (peer, traceparent, database time), its one log line and
 * metrics when answered, and the pool's idle-connection errors (see http/observe.ts).
 */
import fp from 'fastify-plugin';
import type { Metrics } from '../../metrics/metrics.js';
import { observePool, observeRequests } from '../observe.js';

export interface ObserveOptions {
  readonly metrics: Metrics;
  readonly pool: Parameters<typeof observePool>[1];
}

export const observe = fp<ObserveOptions>(
  async (app, { metrics, pool }) => {
    observeRequests(app, metrics); // each request's log line and metrics when answered
    observePool(app, pool, metrics);
  },
  { name: 'lineup-observe' },
);
