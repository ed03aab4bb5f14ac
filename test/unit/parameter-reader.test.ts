/**
 * ParameterReader: the names a route accepts are its specs' names, and every value is checked by
 * its spec's schema, so changing a schema changes what is accepted; the refusals a schema cannot
 * express (repetition, emptiness, integer spelling, duplicate members) stay by hand.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { throws400 } from '../fixtures/events-errors.js';
import { ParameterReader } from '../../src/controls/parameter-reader.js';
import { LIMIT, csvParameter, enumParameter, pathId, queryParameter, type ParameterSpec } from '../../src/controls/parameter-schemas.js';
import { parseQueryString } from '../../src/controls/query-string.js';

const dir = enumParameter('a', ['up', 'down'], 'direction');
const digit = queryParameter('b', Type.String({ pattern: '^\\d$' }), 'one digit', 'must be one digit');
const list = csvParameter('list', ['x', 'y', 'z'], 'a list');
const count = queryParameter('n', Type.Integer({ minimum: 1, maximum: 5 }), 'a count', 'must be 1-5');
const SPECS: readonly ParameterSpec[] = [dir, digit, list, count];
const reader = (qs: string, specs: readonly ParameterSpec[] = SPECS, refused: readonly string[] = []) =>
  new ParameterReader(parseQueryString(qs), specs, refused);

describe('ParameterReader', () => {
  test('the accepted names are the query specs: unknown and dotted names fail', () => {
    const r = reader('a=up&zzz=2&x.y=3&id=Ab0123456789', [...SPECS, pathId('id', 'a path id')]);
    assert.deepEqual(r.details.map((d) => d.parameter).sort(), ['id', 'x.y', 'zzz']);
    assert.match(r.details.find((d) => d.parameter === 'x.y')!.message, /dotted/);
    assert.equal(r.details.find((d) => d.parameter === 'zzz')!.message, 'unknown parameter (accepted: a, b, list, n)');
    throws400(() => r.finish(), 'zzz');
    throws400(() => reader('=1').finish(), '(empty name)');
    assert.equal(reader('a=1', []).details[0]!.message, 'unknown parameter (accepted: none)');
    const refused = reader('include=x', SPECS, ['include']);
    assert.deepEqual(refused.details, [], 'a refused name is recognized, for the route to refuse it itself');
    refused.finish();
  });

  test('scalar: repeated and empty values fail (by hand: a schema sees one value)', () => {
    const r = reader('a=up&a=down&b=');
    assert.equal(r.value(dir), undefined);
    assert.equal(r.value(digit), undefined);
    assert.equal(r.csv(list), undefined);
    assert.deepEqual(r.details, [
      { parameter: 'a', message: 'must not be repeated' },
      { parameter: 'b', message: 'must not be empty' },
    ]);
  });

  test('value: the schema decides (literal unions, patterns), the spec gives the message', () => {
    const r = reader('a=up&b=7');
    assert.equal(r.value(dir), 'up');
    assert.equal(r.value(digit), '7');
    r.finish();
    const bad = reader('a=UP&b=77');
    assert.equal(bad.value(dir), undefined);
    assert.equal(bad.value(digit), undefined);
    assert.deepEqual(bad.details, [
      { parameter: 'a', message: 'unsupported value (accepted: up, down)' },
      { parameter: 'b', message: 'must be one digit' },
    ]);
  });

  test('changing a schema changes validation', () => {
    const twoDigits = { ...digit, schema: Type.String({ pattern: '^\\d{2}$' }) };
    assert.equal(reader('b=77').value(digit), undefined);
    assert.equal(reader('b=77', [twoDigits]).value(twoDigits), '77');
    const short = { ...digit, schema: Type.String({ maxLength: 3 }) };
    assert.equal(reader('b=abc', [short]).value(short), 'abc');
    assert.equal(reader('b=abcd', [short]).value(short), undefined);
    const sideways = enumParameter('a', ['left', 'right'], 'direction');
    assert.equal(reader('a=up', [sideways]).value(sideways), undefined);
    assert.equal(reader('a=left', [sideways]).value(sideways), 'left');
    const xOnly = { ...list, schema: Type.String({ pattern: '^x$' }) };
    assert.deepEqual(reader('list=y').csv(list), ['y']);
    assert.equal(reader('list=y', [xOnly]).csv(xOnly), undefined, 'the schema, not the member list, decides');
    const upTo9 = { ...count, schema: Type.Integer({ minimum: 1, maximum: 9 }) };
    assert.equal(reader('n=7').integer(count), undefined);
    assert.equal(reader('n=7', [upTo9]).integer(upTo9), 7);
  });

  test('integer: digits only, no sign or leading zero (by hand), then the schema bounds the number', () => {
    for (const ok of ['1', '3', '5']) assert.equal(reader(`n=${ok}`).integer(count), Number(ok), ok);
    for (const bad of ['0', '6', '01', '+3', '-1', '3.0', '1e0', '%203', '0x3', '３', '9'.repeat(400)]) {
      const r = reader(`n=${bad}`);
      assert.equal(r.integer(count), undefined, bad);
      assert.deepEqual(r.details, [{ parameter: 'n', message: 'must be 1-5' }], bad);
    }
  });

  test('limit: 1-50 from its schema, digits only, no leading zero, sign or exponent', () => {
    for (const ok of [1, 20, 50]) assert.equal(reader(`limit=${ok}`, [LIMIT]).integer(LIMIT), ok);
    for (const bad of ['0', '51', '01', '1e1', '-1', '%2B1', '1.0', '%201', '1%20', 'ten', '0x1', '99999999999999999999', '５']) {
      const r = reader(`limit=${bad}`, [LIMIT]);
      assert.equal(r.integer(LIMIT), undefined, bad);
      assert.deepEqual(r.details, [{ parameter: 'limit', message: 'must be a whole number from 1 to 50' }], bad);
    }
  });

  test('csv: unique members the schema accepts, whitespace ignored, returned in spec order', () => {
    assert.deepEqual(reader('list=z,x').csv(list), ['x', 'z']);
    assert.deepEqual(reader('list=%20y%20,%20x').csv(list), ['x', 'y']);
    assert.deepEqual(reader('list=%09y%0A,x').csv(list), ['x', 'y'], 'the whitespace trim() removes is the whitespace \\s matches');
    const refusals: [string, string][] = [
      ['list=x,x', 'duplicate member "x"'],
      ['list=x,%20x', 'duplicate member "x"'],
      ['list=x,x,w', 'duplicate member "x"'],
      ['list=x,', 'must not contain empty members'],
      ['list=,x', 'must not contain empty members'],
      ['list=x,,y', 'must not contain empty members'],
      ['list=w', 'unsupported member "w" (accepted: x, y, z)'],
      ['list=X', 'unsupported member "X" (accepted: x, y, z)'],
      ['list=x.y', 'dotted paths are not supported ("x.y")'],
    ];
    for (const [qs, message] of refusals) {
      const r = reader(qs);
      assert.equal(r.csv(list), undefined, qs);
      assert.deepEqual(r.details, [{ parameter: 'list', message }], qs);
    }
  });

  test('a parser can only read its specs, and must read every parameter it accepts', () => {
    assert.throws(() => reader('').value(enumParameter('c', ['k'], 'other')), /not among the route's specs/);
    const unread = reader('a=up');
    assert.throws(() => unread.finish(), /accepted but never read/);
  });
});
