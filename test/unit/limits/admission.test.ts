/**
 * Admission (specification, Limits): a gate with a fixed number of slots and no queue, and the
 * statement budget of one read (at most 8 statements, at most 3 running at once).
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BudgetExceededError, Gate, StatementBudget } from '../../../src/limits/admission.js';

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Let every pending promise reaction run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Gate', () => {
  it('admits up to its capacity and refuses at once beyond it (no queue)', () => {
    const gate = new Gate(32);
    for (let i = 0; i < 32; i++) assert.equal(gate.tryEnter(), true);
    assert.equal(gate.active, 32);
    const refused = gate.tryEnter();
    assert.equal(refused, false); // a plain boolean, not a promise to wait on
    assert.equal(gate.tryEnter(), false);
    assert.equal(gate.active, 32);
    gate.leave();
    assert.equal(gate.active, 31);
    assert.equal(gate.tryEnter(), true);
    assert.equal(gate.tryEnter(), false);
  });

  it('with capacity 1 admits one database read at a time', () => {
    const gate = new Gate(1);
    assert.equal(gate.capacity, 1);
    assert.equal(gate.tryEnter(), true);
    assert.equal(gate.tryEnter(), false);
    gate.leave();
    assert.equal(gate.active, 0);
    assert.equal(gate.tryEnter(), true);
  });

  it('a refused attempt does not wait for a slot that frees later', () => {
    const gate = new Gate(1);
    gate.tryEnter();
    assert.equal(gate.tryEnter(), false);
    gate.leave();
    assert.equal(gate.active, 0); // the refused attempt was not queued and took nothing
  });

  it('rejects an unmatched leave and an invalid capacity', () => {
    assert.throws(() => new Gate(2).leave());
    assert.throws(() => new Gate(0), RangeError);
    assert.throws(() => new Gate(1.5), RangeError);
    assert.throws(() => new Gate(Number.NaN), RangeError);
  });
});

describe('StatementBudget', () => {
  it('defaults to 8 statements, 3 concurrent', () => {
    const budget = new StatementBudget({});
    assert.equal(budget.maxStatements, 8);
    assert.equal(budget.maxConcurrent, 3);
    assert.equal(new StatementBudget().maxStatements, 8);
  });

  it('runs at most 3 statements at once; the others wait, first come first served', async () => {
    const budget = new StatementBudget({});
    const gates = Array.from({ length: 8 }, () => deferred<number>());
    let running = 0;
    let maxRunning = 0;
    const startOrder: number[] = [];
    const results = gates.map((gate, i) =>
      budget.run(async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        startOrder.push(i);
        try {
          return await gate.promise;
        } finally {
          running--;
        }
      }),
    );
    const settled = Promise.allSettled(results); // observe every outcome from the start

    await settle();
    assert.equal(running, 3);
    assert.deepEqual(startOrder, [0, 1, 2]);
    assert.equal(budget.active, 3);
    assert.equal(budget.queued, 5);

    gates[1]?.resolve(1);
    await settle();
    assert.deepEqual(startOrder, [0, 1, 2, 3]);
    assert.equal(running, 3);

    // Finish the rest in a scrambled order; a failure also frees its slot.
    gates[0]?.reject(new Error('statement failed'));
    for (const i of [3, 2, 5, 4, 7, 6]) {
      await settle();
      gates[i]?.resolve(i);
    }
    const outcomes = await settled;
    assert.equal(maxRunning, 3);
    assert.equal(running, 0);
    assert.deepEqual(startOrder, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.equal(outcomes[0]?.status, 'rejected');
    assert.deepEqual(
      outcomes.slice(1).map((o) => (o.status === 'fulfilled' ? o.value : 'rejected')),
      [1, 2, 3, 4, 5, 6, 7],
    );
    assert.equal(budget.active, 0);
    assert.equal(budget.queued, 0);
  });

  it('refuses a ninth statement with BudgetExceededError without running it', async () => {
    const budget = new StatementBudget({});
    for (let i = 0; i < 8; i++) assert.equal(await budget.run(async () => i), i);
    assert.equal(budget.used, 8);
    let called = false;
    await assert.rejects(
      budget.run(async () => {
        called = true;
      }),
      (error: unknown) => {
        assert.ok(error instanceof BudgetExceededError);
        assert.ok(error instanceof Error);
        assert.equal(error.name, 'BudgetExceededError');
        assert.equal(error.maxStatements, 8);
        return true;
      },
    );
    assert.equal(called, false);
  });

  it('counts queued and failed statements against the total', async () => {
    const budget = new StatementBudget({ maxStatements: 4, maxConcurrent: 1 });
    const block = deferred<string>();
    const first = budget.run(() => block.promise);
    const queued = [
      budget.run(async () => 'b'),
      budget.run(async (): Promise<string> => {
        throw new Error('boom');
      }),
      budget.run(async () => 'd'),
    ];
    // Four accepted (one running, three waiting); the fifth is refused at once, not queued.
    assert.equal(budget.used, 4);
    assert.equal(budget.queued, 3);
    await assert.rejects(budget.run(async () => 'e'), BudgetExceededError);
    block.resolve('a');
    assert.equal(await first, 'a');
    const outcomes = await Promise.allSettled(queued);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.equal(budget.used, 4);
    assert.equal(budget.active, 0);
  });

  it('a statement that throws synchronously still releases its slot', async () => {
    const budget = new StatementBudget({ maxStatements: 8, maxConcurrent: 1 });
    await assert.rejects(
      budget.run((): Promise<void> => {
        throw new Error('sync');
      }),
      /sync/,
    );
    assert.equal(budget.active, 0);
    assert.equal(await budget.run(async () => 'next'), 'next');
  });

  it('rejects invalid options', () => {
    assert.throws(() => new StatementBudget({ maxStatements: 0 }), RangeError);
    assert.throws(() => new StatementBudget({ maxConcurrent: 0 }), RangeError);
  });
});
