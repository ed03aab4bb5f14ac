/** The SQL helpers: keyset predicates, and refusal of cursor values that are not of their key's type. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Params, keysetAfter, literalContains, wildcardContains, type SortKey } from '../../src/queries/sql.js';
import { InvalidQuery } from '../../src/controls/errors.js';
import { publicError } from '../../src/http/errors.js';

const asc = (expr: string, cast: string): SortKey => ({ expr, direction: 'asc', cast });
const desc = (expr: string, cast: string): SortKey => ({ expr, direction: 'desc', cast });

describe('keysetAfter', () => {
  it('uses a row comparison when every key has one direction', () => {
    const p = new Params();
    const sql = keysetAfter([asc('e.d', 'date'), asc('e.id', 'text')], ['2024-02-29', 'abcdefghijkl'], p);
    assert.equal(sql, '(e.d, e.id) > ($1::date, $2::text)');
    assert.deepEqual(p.values, ['2024-02-29', 'abcdefghijkl']);
  });

  it('expands mixed directions, with a leading range bound for the index', () => {
    const p = new Params();
    const sql = keysetAfter([desc('e.d', 'date'), asc('e.id', 'text')], ['2024-02-29', 'abcdefghijkl'], p);
    assert.equal(sql, '(e.d <= $1::date AND ((e.d < $1::date) OR (e.d = $1::date AND e.id > $2::text)))');
  });

  it('refuses values that are not of the key types with a 400 (never a database cast error)', () => {
    const keys = [asc('e.d', 'date'), asc('e.r', 'int2'), asc('e.t', 'timestamptz'), asc('e.id', 'text')];
    const good = ['2024-02-29', 0, '2024-02-29 10:00:00.123456+00', 'abcdefghijkl'];
    assert.doesNotThrow(() => keysetAfter(keys, good, new Params()));
    assert.doesNotThrow(() => keysetAfter(keys, ['2024-02-29', 1, '-infinity', 'x'], new Params()));
    assert.doesNotThrow(() => keysetAfter(keys, ['2024-02-29', 1, '2024-02-29 10:00:00.5+00', 'Caf\u00e9 \uD83C\uDFB8'], new Params()));
    const tie = { expr: 'e.public_id', direction: 'asc', cast: 'text', kind: 'publicId' } as const;
    assert.doesNotThrow(() => keysetAfter([asc('e.n', 'text'), tie], ['x', 'abcdefghijkl'], new Params()));
    assert.throws(() => keysetAfter([asc('e.n', 'text'), tie], ['x', 'abc'], new Params()), InvalidQuery);
    for (const bad of [
      ['2023-02-29', 0, '-infinity', 'x'],
      ['garbage', 0, '-infinity', 'x'],
      ['2024-02-29', 7, '-infinity', 'x'],
      ['2024-02-29', 0, 'not-a-time', 'x'],
      ['2024-02-29', 0, '-infinity', null],
      [null, 0, '-infinity', 'x'],
      ['2024-02-29', 0, '-infinity'],
      // text PostgreSQL cannot take, ranks that are strings, instants not in the exact form
      ['2024-02-29', 0, '-infinity', 'a\u0000b'],
      ['2024-02-29', 0, '-infinity', '\uD800'],
      ['2024-02-29', 0, '-infinity', 'x\uDC00'],
      ['2024-02-29', 0, '-infinity', 'x'.repeat(1025)],
      ['2024-02-29', '0', '-infinity', 'x'],
      ['2024-02-29', '', '-infinity', 'x'],
      ['2024-02-29', 0.5, '-infinity', 'x'],
      ['2024-02-29', 0, '2024-02-29 10:00:00.500000+00', 'x'],
      ['2024-02-29', 0, '2024-02-29 10:00:00.1234567+00', 'x'],
      ['2024-02-29', 0, '2024-02-30 10:00:00+00', 'x'],
    ]) {
      assert.throws(
        () => keysetAfter(keys, bad, new Params()),
        (e: unknown) => e instanceof InvalidQuery && publicError(e).error.status === 400 && publicError(e).error.type === 'invalid_query',
        JSON.stringify(bad),
      );
    }
  });
});

describe('literalContains', () => {
  it('escapes %, _ and backslash so they match themselves', () => {
    assert.equal(literalContains('50%_off\\!'), '%50\\%\\_off\\\\!%');
  });
});

describe('wildcardContains', () => {
  it('keeps % and _ as wildcards and writes each backslash twice (LIKE\'s default escape)', () => {
    assert.equal(wildcardContains('50%_off'), '%50%_off%');
    assert.equal(wildcardContains('a\\b\\'), '%a\\\\b\\\\%');
    assert.equal(wildcardContains(''), '%%');
  });
});
