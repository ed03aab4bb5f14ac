/**
 * Token buckets and the identity store (specification, Limits: rate allowance, rate limiter
 * store, rule 1), driven by an injected clock in milliseconds.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  RateLimiter,
  type RateLimiterOptions,
  type TakeResult,
} from '../../../src/limits/token-bucket.js';

/** A limiter with the specification's defaults and a clock the test moves by hand. */
function setup(overrides: Partial<RateLimiterOptions> = {}) {
  const clock = { t: 0 };
  const limiter = new RateLimiter({
    burst: 60,
    refillPerSec: 1,
    maxIdentities: 10_000,
    now: () => clock.t,
    ...overrides,
  });
  return { clock, limiter };
}

function drain(limiter: RateLimiter, identity: string, count: number): void {
  for (let i = 0; i < count; i++) {
    assert.equal(limiter.take(identity).kind, 'allowed', `request ${i + 1}`);
  }
}

function retryAfter(result: TakeResult, kind: 'limited' | 'full'): number {
  if (result.kind === 'allowed') return assert.fail(`expected ${kind}, got allowed`);
  assert.equal(result.kind, kind);
  return result.retryAfterSeconds;
}

describe('RateLimiter: token bucket', () => {
  it('allows a burst of 60, then limits the 61st request', () => {
    const { limiter } = setup();
    for (let i = 1; i <= 60; i++) {
      assert.deepEqual(limiter.take('1.2.3.4'), { kind: 'allowed', remaining: 60 - i });
    }
    assert.deepEqual(limiter.take('1.2.3.4'), { kind: 'limited', retryAfterSeconds: 1 });
    // Another identity has its own full bucket.
    assert.deepEqual(limiter.take('5.6.7.8'), { kind: 'allowed', remaining: 59 });
  });

  it('gives Retry-After as whole seconds (digits only, at least 1) until one token exists', () => {
    const { clock, limiter } = setup({ burst: 1, refillPerSec: 0.25 });
    drain(limiter, 'a', 1);
    const observed: number[] = [];
    for (const t of [0, 1, 999, 1000, 2500, 3000, 3500, 3999, 3999.9]) {
      clock.t = t;
      const seconds = retryAfter(limiter.take('a'), 'limited');
      assert.ok(Number.isSafeInteger(seconds) && seconds >= 1, `${seconds} at ${t}`);
      assert.match(String(seconds), /^[0-9]+$/);
      observed.push(seconds);
    }
    // 4 s per token: ceil of the remaining wait.
    assert.deepEqual(observed, [4, 4, 4, 3, 2, 1, 1, 1, 1]);
    clock.t = 4000;
    assert.deepEqual(limiter.take('a'), { kind: 'allowed', remaining: 0 });
  });

  it('refills fractionally on arrival: half a token after 500 ms, one after 1000 ms', () => {
    const { clock, limiter } = setup();
    drain(limiter, 'a', 60);
    clock.t = 500; // half a token: not enough
    assert.deepEqual(limiter.take('a'), { kind: 'limited', retryAfterSeconds: 1 });
    clock.t = 1000; // one token (the rejected attempt at 500 ms did not reset the refill)
    assert.deepEqual(limiter.take('a'), { kind: 'allowed', remaining: 0 });
    assert.equal(limiter.take('a').kind, 'limited');
    clock.t = 2500; // 1.5 tokens: one spent, half a token kept
    assert.deepEqual(limiter.take('a'), { kind: 'allowed', remaining: 0 });
    clock.t = 3000; // the kept half plus another half
    assert.deepEqual(limiter.take('a'), { kind: 'allowed', remaining: 0 });
    assert.equal(limiter.take('a').kind, 'limited');
  });

  it('refills at the configured rate', () => {
    const { clock, limiter } = setup({ burst: 10, refillPerSec: 4 });
    drain(limiter, 'a', 10);
    clock.t = 1000; // 4 tokens
    drain(limiter, 'a', 4);
    assert.equal(limiter.take('a').kind, 'limited');
    clock.t = 1250; // 1 token
    assert.deepEqual(limiter.take('a'), { kind: 'allowed', remaining: 0 });
  });

  it('never holds more than the burst (ceiling 60)', () => {
    const { clock, limiter } = setup();
    assert.deepEqual(limiter.take('a'), { kind: 'allowed', remaining: 59 });
    clock.t = 200_000; // 200 s of refill, still within the idle window
    assert.deepEqual(limiter.take('a'), { kind: 'allowed', remaining: 59 });
    drain(limiter, 'a', 59);
    assert.equal(limiter.take('a').kind, 'limited');
  });

  it('does not spend tokens on rejected attempts', () => {
    const { clock, limiter } = setup({ burst: 2 });
    drain(limiter, 'a', 2);
    for (let i = 0; i < 100; i++) assert.equal(limiter.take('a').kind, 'limited');
    clock.t = 1000;
    assert.deepEqual(limiter.take('a'), { kind: 'allowed', remaining: 0 });
  });

  it('rejects invalid options', () => {
    const base = { burst: 60, refillPerSec: 1, maxIdentities: 10 };
    assert.throws(() => new RateLimiter({ ...base, burst: 0 }), RangeError);
    assert.throws(() => new RateLimiter({ ...base, refillPerSec: 0 }), RangeError);
    assert.throws(() => new RateLimiter({ ...base, maxIdentities: 0 }), RangeError);
    assert.throws(() => new RateLimiter({ ...base, idleMs: Number.NaN }), RangeError);
    assert.throws(() => new RateLimiter({ ...base, expiryChecksPerRequest: 0 }), RangeError);
    assert.doesNotThrow(() => new RateLimiter(base).take('x'));
  });
});

describe('RateLimiter: identity store', () => {
  it('expires an identity after 5 minutes without activity', () => {
    const { clock, limiter } = setup({ refillPerSec: 0.001 }); // slow refill: only expiry refills
    drain(limiter, 'a', 60);
    clock.t = 299_999;
    assert.equal(limiter.take('b').kind, 'allowed');
    assert.equal(limiter.size, 2); // 'a' idle for 299.999 s: kept
    clock.t = 300_000;
    assert.equal(limiter.take('b').kind, 'allowed');
    assert.equal(limiter.size, 1); // 'a' idle for 5 min: expired by the amortized check
    // Back after expiry: a fresh, full bucket.
    assert.deepEqual(limiter.take('a'), { kind: 'allowed', remaining: 59 });
  });

  it('treats an idle identity as forgotten even before the amortized check reaches it', () => {
    const { clock, limiter } = setup({ refillPerSec: 0.001, expiryChecksPerRequest: 1 });
    for (let i = 0; i < 5; i++) limiter.take(`other-${i}`);
    drain(limiter, 'a', 60);
    clock.t = 300_000;
    assert.deepEqual(limiter.take('a'), { kind: 'allowed', remaining: 59 });
  });

  it('counts rejected attempts as activity for expiry', () => {
    const { clock, limiter } = setup({ burst: 1, refillPerSec: 0.001 }); // 1 token per 1000 s
    drain(limiter, 'a', 1);
    clock.t = 200_000;
    assert.equal(retryAfter(limiter.take('a'), 'limited'), 800); // activity at 200 s
    clock.t = 450_000; // 450 s after the last allowed request, 250 s after the rejected one
    // Still known (not expired into a fresh bucket): 0.45 tokens, limited.
    assert.equal(retryAfter(limiter.take('a'), 'limited'), 550);
    clock.t = 700_000;
    assert.equal(retryAfter(limiter.take('a'), 'limited'), 300);
    clock.t = 1_000_000; // exactly one token accrued since the only allowed request
    assert.deepEqual(limiter.take('a'), { kind: 'allowed', remaining: 0 });
    assert.equal(limiter.size, 1);
  });

  it('checks at most 64 entries for expiry per call', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 1000; i++) limiter.take(`idle-${i}`);
    assert.equal(limiter.size, 1000);
    clock.t = 10 * 60_000; // every one of them idle for 10 minutes
    limiter.take('newcomer');
    assert.equal(limiter.size, 1000 - 64 + 1); // 64 expired, never a full sweep
    limiter.take('newcomer');
    assert.equal(limiter.size, 1000 - 128 + 1);
    // The backlog drains over later requests.
    for (let i = 0; i < 20; i++) limiter.take('newcomer');
    assert.equal(limiter.size, 1);
  });

  it('expires only idle entries, oldest first', () => {
    const { clock, limiter } = setup({ refillPerSec: 0.001 });
    for (let i = 0; i < 10; i++) limiter.take(`old-${i}`);
    clock.t = 100_000;
    for (let i = 0; i < 990; i++) limiter.take(`recent-${i}`);
    clock.t = 300_000; // the 10 old ones idle for 5 min, the rest for 200 s
    limiter.take('newcomer');
    assert.equal(limiter.size, 990 + 1);
  });

  it('stops the expiry check at the first entry that is still active', () => {
    // A clock stepping backwards puts an active entry in front of idle ones: the check stops
    // there instead of scanning on, so those idle entries wait for later calls.
    const { clock, limiter } = setup();
    clock.t = 100_000;
    limiter.take('active');
    clock.t = 0;
    for (let i = 0; i < 500; i++) limiter.take(`idle-${i}`);
    clock.t = 300_000; // 'active' idle for 200 s, the others for 5 min
    limiter.take('newcomer');
    assert.equal(limiter.size, 502);
  });

  it('answers full to new identities while known identities are still served', () => {
    const { clock, limiter } = setup({ maxIdentities: 3, refillPerSec: 0.001 });
    limiter.take('a');
    clock.t = 1_000;
    limiter.take('b');
    clock.t = 2_000;
    limiter.take('c');
    clock.t = 3_000;
    // Oldest activity is 'a' at 0 ms: it expires at 300 s, 297 s from now.
    assert.deepEqual(limiter.take('d'), { kind: 'full', retryAfterSeconds: 297 });
    assert.equal(limiter.size, 3); // the refused identity is not stored
    assert.deepEqual(limiter.take('a'), { kind: 'allowed', remaining: 58 });
    assert.deepEqual(limiter.take('b'), { kind: 'allowed', remaining: 58 });
    assert.deepEqual(limiter.take('c'), { kind: 'allowed', remaining: 58 });
    // A limited known identity is still 'limited', not 'full'.
    drain(limiter, 'c', 58);
    assert.equal(limiter.take('c').kind, 'limited');
    clock.t = 3_500;
    // Now 'a', 'b' and 'c' were all active at 3 s: the oldest expires at 303 s.
    const seconds = retryAfter(limiter.take('e'), 'full');
    assert.equal(seconds, 300); // ceil(299.5)
    assert.match(String(seconds), /^[0-9]+$/);
    clock.t = 303_000; // all three idle for 5 min: the amortized check frees room
    assert.deepEqual(limiter.take('e'), { kind: 'allowed', remaining: 59 });
    assert.equal(limiter.size, 1);
  });

  it('frees exactly the room the expired identities held', () => {
    const { clock, limiter } = setup({ maxIdentities: 3 });
    limiter.take('a');
    clock.t = 100_000;
    limiter.take('b');
    limiter.take('c');
    clock.t = 300_000; // only 'a' expires
    assert.equal(limiter.take('d').kind, 'allowed');
    assert.equal(limiter.take('e').kind, 'full');
    assert.equal(limiter.size, 3);
  });

  it('full Retry-After is at least 1 second', () => {
    const { clock, limiter } = setup({ maxIdentities: 1 });
    limiter.take('a');
    clock.t = 299_999.5;
    assert.deepEqual(limiter.take('b'), { kind: 'full', retryAfterSeconds: 1 });
  });
});
