/**
 * Admitted database reads (spec Limits: at most LINEUP_DB_READS at once, no queue). A read's
 * slot is given back only when the database is done with it: when every statement it started
 * has finished or been cancelled, not when its first statement failed or its client-side
 * deadline fired (the request is answered then; the slot follows later). Statements of an
 * answered read that had not started yet never start (Reader.abandon).
 */
import type { Reader } from '../db/reader.js';
import { Gate } from './admission.js';

/** Every read slot is taken (no queue): the client may retry shortly (503). */
export class ReadSlotsFullError extends Error {
  override readonly name = 'ReadSlotsFullError';
}

/**
 * `C` is what a read is opened for (the HTTP layer passes its request scope, so the Reader can add
 * its statement time to it): passed explicitly, not found through AsyncLocalStorage, whose promise
 * hooks cost every promise of every request.
 */
export class ReadAdmission<C> {
  private readonly gate: Gate;

  constructor(
    capacity: number,
    private readonly open: (context: C) => Reader,
    /** Told of each refusal (metrics and the request's log line). */
    private readonly onRefused: (context: C) => void = () => {},
  ) {
    this.gate = new Gate(capacity);
  }

  /** Reads holding a slot (answered or not). */
  get active(): number {
    return this.gate.active;
  }

  async run<T>(context: C, fn: (reader: Reader) => Promise<T>): Promise<T> {
    if (!this.gate.tryEnter()) {
      this.onRefused(context);
      throw new ReadSlotsFullError('every database read slot is taken');
    }
    const reader = this.open(context);
    try {
      return await fn(reader);
    } finally {
      reader.abandon();
      void reader.settled().then(() => this.gate.leave());
    }
  }
}
