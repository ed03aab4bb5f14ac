/** ControlsMemo: a route's controls kept per query string (src/controls/controls-memo.ts). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ControlsMemo, MAX_KEPT_QUERY } from '../../src/controls/controls-memo.js';
import { parseEventControls } from '../../src/controls/events.js';
import { encodeCursor } from '../../src/controls/cursor.js';
import { parseQueryString, type RawQuery } from '../../src/controls/query-string.js';
import { planEvents, type EventsPlan } from '../../src/plan/events.js';
import { throws400 } from '../fixtures/events-errors.js';

/** A memo of parseEventControls that counts its parses. */
function counted(capacity: number) {
  let parses = 0;
  const memo = new ControlsMemo(capacity, (raw: RawQuery) => {
    parses++;
    return parseEventControls(raw);
  });
  return { memo, parses: () => parses };
}

describe('ControlsMemo', () => {
  test('a query read again is parsed once; its controls are the parse of it, shared and frozen whole', () => {
    const { memo, parses } = counted(8);
    const search = 'nameContains=f%C3%AAte&fields=name,artists&include=artists';
    const first = memo.get(search);
    assert.equal(memo.get(search), first);
    assert.equal(parses(), 1);
    assert.deepEqual(first, parseEventControls(parseQueryString(search)));
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.fields) && Object.isFrozen(first.normalized));
    for (const pair of first.normalized) assert.ok(Object.isFrozen(pair));
    assert.throws(() => (first.fields as string[]).push('slug'), TypeError);
    // another spelling of the same controls is another query string: parsed on its own
    assert.deepEqual(memo.get('include=artists&fields=artists,name&nameContains=f%C3%AAte'), first);
    assert.equal(parses(), 2);
  });

  test('a refused query is never kept: each read is parsed and refused again, with every problem', () => {
    const { memo, parses } = counted(8);
    for (let i = 1; i <= 3; i++) {
      const error = throws400(() => memo.get('limit=0&sort=nope'), 'limit');
      assert.ok(error.details.some((d) => d.parameter === 'sort'));
      assert.equal(parses(), i);
    }
    assert.throws(() => memo.get('a=%zz'));
    assert.equal(memo.size, 0);
  });

  test('the least recently read query goes first; a query over MAX_KEPT_QUERY characters is not kept', () => {
    const { memo, parses } = counted(2);
    memo.get('limit=1');
    memo.get('limit=2');
    memo.get('limit=1'); // read again: limit=2 is now the least recent
    memo.get('limit=3');
    assert.equal(memo.size, 2);
    assert.equal(parses(), 3);
    memo.get('limit=1');
    assert.equal(parses(), 3);
    memo.get('limit=2');
    assert.equal(parses(), 4);

    const long = `nameContains=${'%20'.repeat(MAX_KEPT_QUERY / 3)}abc`;
    assert.ok(long.length > MAX_KEPT_QUERY);
    const { memo: other, parses: parsed } = counted(8);
    assert.equal(other.get(long).nameContains, 'abc');
    other.get(long);
    assert.equal(parsed(), 2);
    assert.equal(other.size, 0);
  });
});

describe('plans of kept controls', () => {
  const strip = ({ controls: _c, ...plan }: EventsPlan) => plan;

  test('are the plans of freshly parsed controls, per path, time and cursor', () => {
    const memo = new ControlsMemo(8, parseEventControls);
    const search = 'nameContains=tour&limit=2';
    const fresh = (path: string, at: Date, q = search) => strip(planEvents(path, parseEventControls(parseQueryString(q)), at));
    const t1 = new Date('2026-12-02T01:00:00.000Z');
    const t2 = new Date('2026-12-02T01:00:00.001Z');
    for (const [path, at] of [['/v1/events', t1], ['/v1/events', t2], ['/v1/artists/abcdefghijkl/events', t1], ['/v1/events', t1]] as const) {
      assert.deepEqual(strip(planEvents(path, memo.get(search), at)), fresh(path, at));
    }
    // a cursor is opened against its own path's fingerprint: sealed for one path, refused on another
    const plan = planEvents('/v1/events', memo.get(search), t1);
    const cursor = encodeCursor(plan.fingerprint, ['2027-01-01', 0, '2027-01-01 20:00:00+00', 'abcdefghijkl']);
    const withCursor = `${search}&cursor=${cursor}`;
    assert.deepEqual(strip(planEvents('/v1/events', memo.get(withCursor), t1)), fresh('/v1/events', t1, withCursor));
    assert.deepEqual(planEvents('/v1/events', memo.get(withCursor), t2).after, ['2027-01-01', 0, '2027-01-01 20:00:00+00', 'abcdefghijkl']);
    throws400(() => planEvents('/v1/venues/abcdefghijkl/events', memo.get(withCursor), t1), 'cursor');
    throws400(() => planEvents('/v1/venues/abcdefghijkl/events', memo.get(withCursor), t1), 'cursor');
  });
});
