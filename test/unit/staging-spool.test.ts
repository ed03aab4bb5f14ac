/**
 * src/catalogue/staging-spool.ts: batches staged while held come back, byte for byte and in order,
 * after `release`; batches staged while the held ones are COPYed queue behind them; nothing is
 * COPYed twice or while held; the caller's bytes may be reused as soon as `stage` resolves; a
 * failed COPY is rethrown and stops the rest; `close` waits for the COPY in flight.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Collection } from '../../src/catalogue/document.js';
import { StagingSpool } from '../../src/catalogue/staging-spool.js';

/** A COPY that records what it got and completes only when the test lets it (`next`). */
function gatedCopy() {
  const copied: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const waiting: (() => void)[] = [];
  const copy = async (collection: Collection, bytes: Uint8Array) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const text = `${collection}:${Buffer.from(bytes).toString()}`; // read at once, as COPY does
    await new Promise<void>((resolve) => waiting.push(resolve));
    copied.push(text);
    inFlight--;
  };
  const turns = () => new Promise<void>((resolve) => setImmediate(resolve));
  /** Lets every COPY waiting so far complete, and the ones they start, until none is left. */
  const flushAll = async () => {
    for (let i = 0; i < 1000 && (waiting.length > 0 || i < 3); i++) {
      waiting.splice(0).forEach((go) => go());
      await turns();
    }
  };
  return { copy, copied, waiting, flushAll, turns, maxInFlight: () => maxInFlight };
}

test('held batches come back in order after release, with batches staged meanwhile queued behind them', async () => {
  const gate = gatedCopy();
  const spool = new StagingSpool(gate.copy);
  // nothing held: straight through
  const direct = spool.stage('media', Buffer.from('m0'));
  await gate.turns();
  assert.equal(gate.waiting.length, 1);
  await gate.flushAll();
  await direct;
  assert.deepEqual(gate.copied, ['media:m0']);

  spool.hold();
  const reused = Buffer.alloc(4);
  for (let i = 0; i < 5; i++) {
    reused.write(`e${i}`.padEnd(4, '.'));
    await spool.stage('events', reused); // resolves at once: the bytes are in the file
  }
  await gate.turns();
  assert.equal(gate.waiting.length, 0, 'nothing is COPYed while held');
  assert.equal(spool.fileBytes, 20);
  spool.release();
  await gate.turns();
  assert.equal(gate.waiting.length, 1);
  // staged while the held ones are COPYed: behind them, not straight through
  await spool.stage('events', Buffer.from('late'));
  await gate.flushAll();
  await spool.drained();
  assert.deepEqual(gate.copied, ['media:m0', 'events:e0..', 'events:e1..', 'events:e2..', 'events:e3..', 'events:e4..', 'events:late']);
  assert.equal(gate.maxInFlight(), 1, 'one COPY at a time');
  assert.equal(spool.fileBytes, 0, 'drained: the file starts again from empty');
  // drained: straight through again
  const after = spool.stage('events', Buffer.from('x'));
  await gate.flushAll();
  await after;
  assert.equal(gate.copied.at(-1), 'events:x');
  await spool.close();
});

test('drained releases what is held and waits for every batch', async () => {
  const gate = gatedCopy();
  const spool = new StagingSpool(gate.copy);
  spool.hold();
  for (let i = 0; i < 3; i++) await spool.stage('events', Buffer.from(`b${i}`));
  let done = false;
  const drained = spool.drained().then(() => (done = true));
  await gate.turns();
  assert.equal(done, false);
  await gate.flushAll();
  await drained;
  assert.deepEqual(gate.copied, ['events:b0', 'events:b1', 'events:b2']);
  await spool.close();
});

test('a failed COPY is rethrown by the next stage and by drained, and stops the rest', async () => {
  const copied: string[] = [];
  const spool = new StagingSpool(async (collection, bytes) => {
    const text = Buffer.from(bytes).toString();
    if (text === 'b1') throw new Error('COPY refused');
    copied.push(text);
  });
  spool.hold();
  for (let i = 0; i < 4; i++) await spool.stage('events', Buffer.from(`b${i}`));
  spool.release();
  await assert.rejects(spool.drained(), /COPY refused/);
  await assert.rejects(spool.stage('events', Buffer.from('b9')), /COPY refused/);
  assert.deepEqual(copied, ['b0']);
  await spool.close();
});

test('close waits for the COPY in flight and drops the rest', async () => {
  const gate = gatedCopy();
  const spool = new StagingSpool(gate.copy);
  spool.hold();
  for (let i = 0; i < 3; i++) await spool.stage('events', Buffer.from(`b${i}`));
  spool.release();
  await gate.turns();
  assert.equal(gate.waiting.length, 1);
  let closed = false;
  const closing = spool.close().then(() => (closed = true));
  await gate.turns();
  assert.equal(closed, false, 'close waits for the COPY in flight');
  await gate.flushAll();
  await closing;
  assert.deepEqual(gate.copied, ['events:b0']);
  await assert.rejects(spool.stage('events', Buffer.from('z')), /closed/);
});
