/**
 * Admission without queues, and the per-read statement budget (specification, Limits: active
 * HTTP route executions, admitted database reads, database statements per read). `Gate` is a
 * counter-based semaphore that never waits: `tryEnter()` either takes a slot or answers false at
 * once (the caller responds 503), and every successful `tryEnter()` is paired with one `leave()`.
 * It serves both "at most 32 active route executions" and "at most N admitted database reads,
 * no queue". `StatementBudget` bounds the statements of ONE admitted read: at most
 * `maxStatements` in total (the next one is refused with `BudgetExceededError`, a programming
 * error surfacing as a sanitized 500) and at most `maxConcurrent` running at once; beyond that a
 * statement waits, first come first served, because it already belongs to an admitted read.
 * Pure: no timers, no framework.
 */

/** A non-waiting semaphore: a fixed number of slots, no queue. */
export class Gate {
  readonly capacity: number;
  private count = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`Gate: capacity must be a positive integer, got ${String(capacity)}`);
    }
    this.capacity = capacity;
  }

  /** Slots currently taken. */
  get active(): number {
    return this.count;
  }

  /** Take a slot if one is free; never waits. */
  tryEnter(): boolean {
    if (this.count >= this.capacity) return false;
    this.count++;
    return true;
  }

  /** Give back a slot taken by a successful `tryEnter()`. */
  leave(): void {
    if (this.count === 0) throw new Error('Gate.leave() without a matching tryEnter()');
    this.count--;
  }
}

/** A read tried to run more statements than its budget allows. */
export class BudgetExceededError extends Error {
  override readonly name = 'BudgetExceededError';

  constructor(readonly maxStatements: number) {
    super(`a read may run at most ${maxStatements} database statements`);
  }
}

export interface StatementBudgetOptions {
  /** Statements allowed in total for this read (spec: 8). */
  readonly maxStatements?: number;
  /** Statements running at once (spec: 3); further ones wait for a slot. */
  readonly maxConcurrent?: number;
}

/** The statement budget of one admitted database read: create one per read. */
export class StatementBudget {
  readonly maxStatements: number;
  readonly maxConcurrent: number;
  private started = 0;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor({ maxStatements = 8, maxConcurrent = 3 }: StatementBudgetOptions = {}) {
    if (!Number.isInteger(maxStatements) || maxStatements < 1) {
      throw new RangeError(`StatementBudget: invalid maxStatements: ${String(maxStatements)}`);
    }
    if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
      throw new RangeError(`StatementBudget: invalid maxConcurrent: ${String(maxConcurrent)}`);
    }
    this.maxStatements = maxStatements;
    this.maxConcurrent = maxConcurrent;
  }

  /** Statements accepted so far (running, waiting or finished). */
  get used(): number {
    return this.started;
  }

  /** Statements running now. */
  get active(): number {
    return this.running;
  }

  /** Statements waiting for a concurrency slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Run one statement within the budget. Rejects with `BudgetExceededError` (without calling
   * `fn`) when the read has already used all its statements; waits while `maxConcurrent`
   * statements are running.
   */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.started >= this.maxStatements) throw new BudgetExceededError(this.maxStatements);
    this.started++;
    if (this.running >= this.maxConcurrent) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      // The slot was handed over by `release()` without being given back: `running` is unchanged.
    } else {
      this.running++;
    }
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  /** Hand the slot to the next waiting statement, or give it back. */
  private release(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next();
    else this.running--;
  }
}
