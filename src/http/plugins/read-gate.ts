/**
 * Admitted database reads: at most LINEUP_DB_READS at once, no queue (spec Limits). A slot is
 * held until the database has finished the read's work (limits/reads.ts). Each read gets its
 * own Reader (statement budget, deadline, prepared statements, timing into the request's scope
 * and the metrics). Routes read through `app.reads`.
 */
import fp from 'fastify-plugin';
import type { Config } from '../../config/config.js';
import type { Database } from '../../db/database.js';
import { PlanChoices } from '../../db/plan-choices.js';
import type { SearchChoice } from '../../queries/search-shape.js';
import { PreparedStatements } from '../../db/prepared.js';
import { Reader, type StatementObserver, type StatementOutcome } from '../../db/reader.js';
import { ReadAdmission } from '../../limits/reads.js';
import type { Metrics } from '../../metrics/metrics.js';
import { type RequestScope } from '../observe.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database read gate (plugins/read-gate.ts). */
    reads: ReadAdmission<RequestScope>;
  }
}

export interface ReadGateOptions {
  readonly config: Config;
  readonly db: Database;
  readonly metrics: Metrics;
  /** Test instrumentation: sees every statement a read issues. */
  readonly onStatement?: StatementObserver | undefined;
}

export const readGate = fp<ReadGateOptions>(
  async (app, { config, db, metrics, onStatement }) => {
    const statementDeadlineMs = config.statementTimeoutMs + (db.engine === 'postgres' ? 250 : 0);
    const prepared = new PreparedStatements(config.preparedStatements, (message) => app.log.warn(message));
    const choices = new PlanChoices<SearchChoice>();
    const reads = new ReadAdmission<RequestScope>(
      config.dbReads,
      (scope) => {
        const timing = (kind: string, seconds: number, outcome: StatementOutcome) => {
          metrics.statement(kind, seconds, outcome);
          scope.dbSeconds += seconds;
        };
        return new Reader(db, onStatement, statementDeadlineMs, prepared, timing, choices);
      },
      (scope) => {
        if (scope.refusal === null) {
          scope.refusal = 'database_reads_full';
          metrics.refused('database_reads_full');
        }
      },
    );
    metrics.watch({ pool: db.pool, readSlots: config.dbReads, readSlotsInUse: () => reads.active, ...(db.pipeline ? { pipeline: db.pipeline } : {}) });
    app.decorate('reads', reads);
  },
  { name: 'lineup-read-gate' },
);
