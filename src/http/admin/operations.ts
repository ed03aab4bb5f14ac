/**
 * What the public app and the operator listener share: the metrics registry and the one
 * readiness probe (so /ready on the operator port and /v1/ready answer the same, from one
 * in-flight probe).
 */
import type { Config } from '../../config/config.js';
import type { Database } from '../../db/database.js';
import { Metrics } from '../../metrics/metrics.js';
import { readinessProbe } from '../routes/operational.js';

export interface Operations {
  readonly metrics: Metrics;
  /** True when the database answers (the shared probe); stopping is the caller's to check. */
  readonly ready: () => Promise<boolean>;
}

export function createOperations(db: Database, config: Config): Operations {
  return {
    // process metrics (CPU, memory, GC, event-loop lag) only cost anything when someone can scrape them
    metrics: new Metrics({ processMetrics: config.adminPort !== null }),
    ready: readinessProbe(db, Math.min(config.statementTimeoutMs, 2000)),
  };
}
