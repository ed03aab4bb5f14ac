/** Query-string parsing: decoding, repeated keys, `a=` vs `a`, and the refusals of malformed input. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { throws400 } from '../fixtures/events-errors.js';
import { MAX_QUERY_PARAMETERS, parseQueryString, pathOf, searchOf } from '../../src/controls/query-string.js';

describe('parseQueryString', () => {
  test('splits, decodes, keeps repeated values and the difference between absent and empty', () => {
    const q = parseQueryString('a=1&b=x+y&c=%C3%A9&a=2&d=&e');
    assert.deepEqual(q.get('a'), ['1', '2']);
    assert.deepEqual(q.get('b'), ['x y']);
    assert.deepEqual(q.get('c'), ['é']);
    assert.deepEqual(q.get('d'), ['']);
    assert.deepEqual(q.get('e'), ['']);
    assert.equal(q.has('f'), false);
    assert.equal(parseQueryString('').size, 0);
    assert.equal(parseQueryString('a=1&&b=2&').size, 2);
    assert.deepEqual(parseQueryString('a=b=c').get('a'), ['b=c']);
    assert.deepEqual(parseQueryString('%61=1').get('a'), ['1'], 'names are decoded too');
  });

  test('refuses malformed escapes, NUL and more than 32 parameters', () => {
    throws400(() => parseQueryString('nameContains=%E0%A4%A'), 'nameContains');
    throws400(() => parseQueryString('nameContains=%ZZ'), 'nameContains');
    throws400(() => parseQueryString('nameContains=%ED%A0%80'), 'nameContains');
    throws400(() => parseQueryString('a%00=1'), 'a\\0');
    throws400(() => parseQueryString('a=%00'), 'a');
    const n = (k: number) => Array.from({ length: k }, (_, i) => `p${i}=1`).join('&');
    assert.equal(parseQueryString(n(MAX_QUERY_PARAMETERS)).size, 32);
    throws400(() => parseQueryString(n(MAX_QUERY_PARAMETERS + 1)), '*');
    throws400(() => parseQueryString(Array.from({ length: 33 }, () => 'a=1').join('&')), '*');
  });

  test('property: a value is what decodeURIComponent makes of it (plus signs as spaces), or refused', () => {
    // values with and without escapes (the ones without are passed through as they are)
    const component = fc.array(fc.oneof(fc.constantFrom('%', '+', '%2', '%C3', '%A9', '%00', '\0', 'é', '€', '\u{1F600}'), fc.string({ maxLength: 6 })), { maxLength: 6 })
      .map((parts) => parts.join('').replace(/[&=]/g, ''));
    fc.assert(
      fc.property(component, (value) => {
        let expected: string | null;
        try {
          expected = decodeURIComponent(value.replace(/\+/g, ' '));
        } catch {
          expected = null;
        }
        if (expected === null || expected.includes('\0')) throws400(() => parseQueryString(`a=${value}`), 'a');
        else assert.deepEqual(parseQueryString(`a=${value}`).get('a'), [expected]);
      }),
      { numRuns: 2_000 },
    );
  });

  test('searchOf / pathOf', () => {
    assert.equal(searchOf('/v1/events?a=1&b=2'), 'a=1&b=2');
    assert.equal(searchOf('/v1/events'), '');
    assert.equal(searchOf('/v1/events?'), '');
    assert.equal(pathOf('/v1/events?a=1'), '/v1/events');
    assert.equal(searchOf('/v1/events?a=1?b'), 'a=1?b');
  });
});
