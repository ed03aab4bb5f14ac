/** Query-string parsing and the shared parameter refusals (spec: Endpoints, last paragraph). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { throws400 } from '../fixtures/events-errors.js';
import { MAX_QUERY_PARAMETERS, ParameterReader, parseQueryString, pathOf, searchOf } from '../../src/controls/query-string.js';

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

  test('searchOf / pathOf', () => {
    assert.equal(searchOf('/v1/events?a=1&b=2'), 'a=1&b=2');
    assert.equal(searchOf('/v1/events'), '');
    assert.equal(searchOf('/v1/events?'), '');
    assert.equal(pathOf('/v1/events?a=1'), '/v1/events');
    assert.equal(searchOf('/v1/events?a=1?b'), 'a=1?b');
  });
});

describe('ParameterReader', () => {
  const reader = (qs: string, allowed = ['a', 'b', 'list']) => new ParameterReader(parseQueryString(qs), allowed);

  test('unknown and dotted names fail; known names pass', () => {
    const r = reader('a=1&zzz=2&x.y=3');
    assert.deepEqual(r.details.map((d) => d.parameter).sort(), ['x.y', 'zzz']);
    assert.match(r.details.find((d) => d.parameter === 'x.y')!.message, /dotted/);
    throws400(() => r.finish(), 'zzz');
    const ok = reader('a=1');
    ok.finish();
    throws400(() => reader('=1').finish(), '(empty name)');
  });

  test('scalar: repeated and empty values fail', () => {
    const r = reader('a=1&a=2&b=');
    assert.equal(r.scalar('a'), undefined);
    assert.equal(r.scalar('b'), undefined);
    assert.equal(r.scalar('list'), undefined);
    assert.deepEqual(r.details.map((d) => d.parameter), ['a', 'b']);
    assert.equal(reader('a=x').scalar('a'), 'x');
  });

  test('oneOf and matching', () => {
    const r = reader('a=up&b=7');
    assert.equal(r.oneOf('a', ['up', 'down']), 'up');
    assert.equal(r.matching('b', (v) => /^\d$/.test(v), 'digit'), '7');
    const bad = reader('a=UP&b=77');
    assert.equal(bad.oneOf('a', ['up', 'down']), undefined);
    assert.equal(bad.matching('b', (v) => /^\d$/.test(v), 'a digit'), undefined);
    assert.deepEqual(bad.details.map((d) => [d.parameter, d.message.length > 0]), [['a', true], ['b', true]]);
  });

  test('csv: unique members of the allowed list, whitespace ignored, returned in registry order', () => {
    const allowed = ['x', 'y', 'z'];
    assert.deepEqual(reader('list=z,x').csv('list', allowed), ['x', 'z']);
    assert.deepEqual(reader('list=%20y%20,%20x').csv('list', allowed), ['x', 'y']);
    for (const bad of ['list=x,x', 'list=x,%20x', 'list=x,', 'list=,x', 'list=x,,y', 'list=w', 'list=x.y', 'list=X']) {
      const r = reader(bad);
      assert.equal(r.csv('list', allowed), undefined, bad);
      assert.equal(r.details[0]?.parameter, 'list', bad);
    }
  });
});
