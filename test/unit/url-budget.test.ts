/** URL budget (spec: Errors, last paragraph; Limits). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { publicError } from '../../src/http/errors.js';
import { MAX_URL_BYTES, checkUrlBudget } from '../../src/plan/url-budget.js';

const status = (fn: () => void): number | null => {
  try {
    fn();
    return null;
  } catch (err) {
    const { kind, error } = publicError(err);
    assert.equal(kind, 'refusal');
    return error.status;
  }
};

describe('checkUrlBudget', () => {
  const path = '/v1/events';
  // "/v1/events?" + q + "&cursor=" + 1024
  const room = MAX_URL_BYTES - path.length - 1 - '&cursor='.length - 1024;

  test('the normalized URL plus a maximal cursor must fit 4,096 bytes', () => {
    assert.equal(status(() => checkUrlBudget(path, `q=${'x'.repeat(room - 2)}`, 1)), null);
    assert.equal(status(() => checkUrlBudget(path, `q=${'x'.repeat(room - 1)}`, 1)), 414);
    // bytes, not characters
    assert.equal(status(() => checkUrlBudget(path, `q=${'é'.repeat(Math.floor((room - 2) / 2) + 1)}`, 1)), 414);
    assert.equal(status(() => checkUrlBudget(path, '', 0)), null);
  });

  test('an empty query reserves "?cursor=" and the cursor, with no "&"', () => {
    // "/v1/…" + "?cursor=" + 1024: the longest path that fits, then one byte more
    const longest = MAX_URL_BYTES - '?cursor='.length - 1024;
    assert.equal(status(() => checkUrlBudget(`/v1/${'p'.repeat(longest - 4)}`, '', 0)), null);
    assert.equal(status(() => checkUrlBudget(`/v1/${'p'.repeat(longest - 3)}`, '', 0)), 414);
    // the path's bytes count as the query's do
    assert.equal(status(() => checkUrlBudget(`/v1/${'é'.repeat((longest - 4) / 2)}`, '', 0)), null);
    assert.equal(status(() => checkUrlBudget(`/v1/${'é'.repeat((longest - 4) / 2)}p`, '', 0)), 414);
  });

  test('a parameter budget that cannot fit pagination → 400', () => {
    assert.equal(status(() => checkUrlBudget(path, 'a=1', 31)), null);
    assert.equal(status(() => checkUrlBudget(path, 'a=1', 32)), 400);
  });
});
