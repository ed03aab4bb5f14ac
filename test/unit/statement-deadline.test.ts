/**
 * A read's client-side statement deadline (src/db/reader.ts) never fires before its full time
 * has passed on the clock the statement timings use. libuv keeps timer time in whole
 * milliseconds (the monotonic clock, truncated), so a timer armed 0.95 ms into a millisecond
 * counts from that millisecond's start and fires ≈ 0.95 ms early by the high-resolution clock.
 * CI once logged a 100 ms timeout as 99.8 ms of database time. The test arms the deadline at that
 * point of a millisecond, twenty times: a plain timer fired early in about a third of such rounds
 * here, so twenty rounds without one early firing would be a chance of about 1 in 5,000.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Database } from '../../src/db/database.js';
import { Reader, StatementDeadlineError, type StatementOutcome } from '../../src/db/reader.js';

/** A database whose connections never come: only the deadline ends a statement. */
const neverAnswers = { engine: 'pglite', pool: { connect: () => new Promise(() => {}) } } as unknown as Database;

it('fails a statement no earlier than its deadline, even when armed late in a millisecond', async () => {
  for (let round = 0; round < 20; round++) {
    const timings: { seconds: number; outcome: StatementOutcome }[] = [];
    const reader = new Reader(neverAnswers, undefined, 100, undefined, (_kind, seconds, outcome) => timings.push({ seconds, outcome }));
    // wait (synchronously) for the last twentieth of a millisecond of the monotonic clock libuv reads
    while (process.hrtime.bigint() % 1_000_000n < 950_000n) {
      /* spin */
    }
    const started = performance.now();
    await assert.rejects(reader.rows({ name: 'probe', text: 'SELECT 1', values: [] }), StatementDeadlineError);
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 100, `round ${round}: failed after ${elapsed.toFixed(1)} ms`);
    assert.equal(timings.length, 1);
    assert.equal(timings[0]!.outcome, 'timeout');
    assert.ok(timings[0]!.seconds >= 0.1, `round ${round}: timed ${timings[0]!.seconds} s`);
  }
});
