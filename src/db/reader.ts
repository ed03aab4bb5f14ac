/**
 * Runs the statements of one read. Counts them (spec Limits: at most 8 statements per read, at
 * most 3 at once), reports each to an optional observer (tests count statements per request),
 * and turns database unavailability (unreachable, timed out, connection lost, shutting down)
 * into `DatabaseUnavailableError` so the HTTP layer answers 503, never 500.
 */
import type pg from 'pg';
import { DatabaseUnavailableError } from './errors.js';
import { StatementBudget } from '../limits/admission.js';
import type { SearchChoice } from '../queries/search-shape.js';
import type { Statement } from '../queries/statement.js';
import type { Database } from './database.js';
import { queryNamed, queryUnnamed, type NamedStatement } from './named-query.js';
import type { PlanChoices } from './plan-choices.js';
import { PreparedStatements, isPoolerPrepareError } from './prepared.js';
import { connectionFailed, isUnavailable } from './unavailable.js';

export const MAX_STATEMENTS_PER_READ = 8;
export const MAX_CONCURRENT_STATEMENTS = 3;

export type StatementObserver = (statement: Statement) => void;

/** How one statement ended: the metrics' `outcome` label. */
export type StatementOutcome = 'ok' | 'timeout' | 'unavailable' | 'error';

/** Told of every statement's kind (its name), duration in seconds and outcome. */
export type StatementTiming = (kind: string, seconds: number, outcome: StatementOutcome) => void;

/** A statement that passed its client-side deadline (a statement timeout PGlite does not enforce). */
export class StatementDeadlineError extends DatabaseUnavailableError {}

/** 57014 query_canceled is what statement_timeout raises (the service cancels nothing else). */
function outcomeOf(err: unknown): StatementOutcome {
  if (err instanceof StatementDeadlineError || (err as { code?: unknown }).code === '57014') return 'timeout';
  return err instanceof DatabaseUnavailableError || isUnavailable(err) ? 'unavailable' : 'error';
}

/**
 * Prepared only on PostgreSQL: PGlite runs in this process (no network round trip to save) and
 * its node-postgres shim is one client shared by every read. The default policy (for readers
 * built without one) names statements; the app passes its own (LINEUP_PREPARED_STATEMENTS).
 */
const defaultPrepared = new PreparedStatements(true);

export class Reader {
  private readonly budget = new StatementBudget({
    maxStatements: MAX_STATEMENTS_PER_READ,
    maxConcurrent: MAX_CONCURRENT_STATEMENTS,
  });
  /** Database work this read started and that has not finished (a client wait or a statement). */
  private readonly pending = new Set<Promise<unknown>>();
  private abandoned = false;

  /**
   * @param deadlineMs client-side deadline per statement. PostgreSQL enforces
   *   statement_timeout itself (the deadline is a little longer, a backstop); PGlite accepts the
   *   setting but does not enforce it, so there the deadline is what bounds the wait.
   */
  constructor(
    private readonly db: Database,
    private readonly observer?: StatementObserver,
    private readonly deadlineMs?: number,
    private readonly prepared: PreparedStatements = defaultPrepared,
    private readonly timing?: StatementTiming,
    private readonly choices?: PlanChoices<SearchChoice>,
  ) {}

  /**
   * The process's remembered plan choices (queries/search-shape.ts), only while stable-plan
   * statements are prepared: a statement written for a chosen plan saves its planning only then.
   */
  get planChoices(): PlanChoices<SearchChoice> | undefined {
    return this.db.engine === 'postgres' && this.prepared.enabled ? this.choices : undefined;
  }

  rows<R extends pg.QueryResultRow>(statement: Statement): Promise<R[]> {
    return this.budget.run(async () => {
      if (this.abandoned) throw new DatabaseUnavailableError(`statement ${statement.name} of an abandoned read`);
      this.observer?.(statement);
      const started = performance.now();
      try {
        const name = statement.stablePlan && this.db.engine === 'postgres' ? this.prepared.nameOf(statement.text) : undefined;
        let rows: R[];
        try {
          rows = await this.run<R>(statement, name);
        } catch (err) {
          if (name === undefined || !isPoolerPrepareError(err)) throw err;
          this.prepared.disable(err as Error);
          rows = await this.run<R>(statement, undefined); // the same statement, unnamed: one retry
        }
        this.timing?.(statement.name, (performance.now() - started) / 1000, 'ok');
        return rows;
      } catch (err) {
        this.timing?.(statement.name, (performance.now() - started) / 1000, outcomeOf(err));
        if (err instanceof DatabaseUnavailableError) throw err;
        if (isUnavailable(err)) throw new DatabaseUnavailableError((err as Error).message);
        throw err;
      }
    });
  }

  /** One statement, tracked as pending work of this read until it has finished or failed. */
  private async run<R extends pg.QueryResultRow>(statement: Statement, name: string | undefined): Promise<R[]> {
    const work = this.execute<R>(statement, name);
    this.pending.add(work);
    void work.then(
      () => this.pending.delete(work),
      () => this.pending.delete(work),
    );
    const result = this.deadlineMs ? await withDeadline(work, this.deadlineMs, statement.name) : await work;
    return result.rows;
  }

  /**
   * The read is over (answered, failed or past its deadline): statements still waiting for a
   * connection or a concurrency slot never start. On PGlite (one connection, a FIFO) such work
   * would otherwise run after the request got its 503, ahead of new requests.
   */
  abandon(): void {
    this.abandoned = true;
  }

  /**
   * Resolves when every statement this read started has finished or been cancelled (by
   * statement_timeout on PostgreSQL): until then the read still occupies the database.
   */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /**
   * One statement: on a pipelined connection when one can take it now, else on a pool connection
   * of its own, unless the read was abandoned while it waited for one.
   */
  private async execute<R extends pg.QueryResultRow>(statement: Statement, name: string | undefined): Promise<pg.QueryResult<R>> {
    // a named statement goes on a pipelined connection when one can take it now (src/db/pipeline.ts),
    // unless it is heavy
    const piped = name === undefined || statement.heavy === true ? null : this.db.pipeline?.tryQuery<R>(named(statement, name));
    if (piped) return piped;
    const client = await this.db.pool.connect().catch((err: unknown) => {
      throw connectionFailed(err);
    });
    if (this.abandoned) {
      client.release();
      throw new DatabaseUnavailableError(`statement ${statement.name} of an abandoned read`);
    }
    // Every client listens for its own errors from its creation (db/raw-text.ts): a connection
    // lost now fails this statement's promise, and a failed client is not reused.
    try {
      const result =
        name !== undefined
          ? await queryNamed<R>(client, named(statement, name))
          : statement.rawText !== undefined && this.db.engine === 'postgres'
            ? await queryUnnamed<R>(client, { text: statement.text, values: statement.values, rawText: statement.rawText })
            : await client.query<R>({ text: statement.text, values: statement.values as unknown[] });
      client.release();
      return result;
    } catch (err) {
      // as pg.Pool#query does: a client whose statement failed is not reused
      client.release(err as Error);
      throw err;
    }
  }
}

/** A statement under its prepared name (with the text columns it takes raw, db/raw-text.ts). */
const named = (statement: Statement, name: string): NamedStatement => ({ name, text: statement.text, values: statement.values, rawText: statement.rawText });

/**
 * Fails `work` once `ms` have passed on the high-resolution clock the statement timings use.
 * A timer alone may fire up to a millisecond early by that clock (libuv keeps timer time in
 * whole milliseconds): a statement would then be reported as having run 99.8 ms of a 100 ms
 * timeout. The timer is armed again for what is left.
 */
function withDeadline<T>(work: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const start = performance.now();
    const arm = (wait: number): void => {
      timer = setTimeout(() => {
        const left = ms - (performance.now() - start);
        if (left > 0) arm(Math.ceil(left));
        else reject(new StatementDeadlineError(`statement ${name} passed its ${ms} ms deadline`));
      }, wait);
    };
    arm(ms);
  });
  work.catch(() => {}); // a late failure after the deadline is not unhandled
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
