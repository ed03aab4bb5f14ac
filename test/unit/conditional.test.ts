/** If-None-Match evaluation (spec: GET /v1/events, Conditional reads). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ifNoneMatchMatches } from '../../src/http/conditional.js';
import { weakEtag } from '../../src/present/envelope.js';

const etag = 'W/"abc123"';

describe('ifNoneMatchMatches', () => {
  test('weak and strong forms, lists and * match', () => {
    for (const h of ['W/"abc123"', '"abc123"', '"x", W/"abc123"', 'W/"x",W/"abc123"', ' "abc123" ', '*', ' * ', '"x" ,\t"abc123"']) {
      assert.equal(ifNoneMatchMatches(h, etag), true, h);
    }
    assert.equal(ifNoneMatchMatches(['"x"', 'W/"abc123"'], etag), true, 'several header lines');
  });

  test('no match and malformed headers (ignored entirely, no match from a valid fragment)', () => {
    for (const h of [
      '"abc"',
      'W/"abc1234"',
      'abc123',
      'W/abc123',
      'w/"abc123"',
      'W/"abc", garbage',
      'garbage, W/"abc123"',
      'W/"abc123", garbage',
      'W/"abc123",',
      ',W/"abc123"',
      '*, W/"abc123"',
      '**',
      '',
      'W/"abc123" W/"abc123"',
      '"abc"123"',
    ]) {
      assert.equal(ifNoneMatchMatches(h, etag), false, h);
    }
    assert.equal(ifNoneMatchMatches(undefined, etag), false);
  });

  test('weakEtag: weak, deterministic, body-dependent', () => {
    const a = weakEtag('{"ok":true}');
    assert.match(a, /^W\/"[\x21\x23-\x7E]+"$/);
    assert.equal(a, weakEtag('{"ok":true}'));
    assert.notEqual(a, weakEtag('{"ok":true }'));
    assert.equal(ifNoneMatchMatches(a, a), true);
  });
});
