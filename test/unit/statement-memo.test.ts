/**
 * First pages' statements built once per controls (src/queries/statement-memo.ts): a statement
 * is reused only where the builder was seen to use the operation time as a value and nothing
 * else; every Events first page from the memo equals the one built for its own operation time.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseEventControls } from '../../src/controls/events.js';
import { parseQueryString } from '../../src/controls/query-string.js';
import { planEvents } from '../../src/plan/events.js';
import { eventsPageStatement } from '../../src/queries/events.js';
import { detailStatement, eventDetailStatement } from '../../src/queries/event-detail.js';
import { parseEventDetailControls } from '../../src/controls/event-detail.js';
import { cursorPageInput, cursorPagesMemo, pageStatement } from '../../src/queries/events-read.js';
import { EVENT_SORT_KEYS } from '../../src/plan/events.js';
import type { CursorKey } from '../../src/controls/cursor.js';
import { NOW_PROBES, StatementMemo, detailStatements } from '../../src/queries/statement-memo.js';
import { ARTIST_DETAIL, EDITION_DETAIL, SERIES_DETAIL, VENUE_DETAIL } from '../../src/controls/lists.js';
import { parseDetailFields } from '../../src/controls/resource.js';
import { artistDetailStatement } from '../../src/queries/artists.js';
import { editionDetailStatement, seriesDetailStatement } from '../../src/queries/series.js';
import { venueDetailStatement } from '../../src/queries/venues.js';
import type { Statement } from '../../src/queries/statement.js';

interface Input {
  readonly now: string;
  readonly term: string;
}
const NOWS = ['2026-03-15T12:00:00.000Z', '2026-03-15T12:00:00.001Z', '2030-01-01T00:00:00.000Z', '1999-12-31T23:59:59.999Z'];

function counted(build: (i: Input) => Statement) {
  const calls = { n: 0 };
  return { calls, build: (i: Input) => (calls.n++, build(i)) };
}

describe('StatementMemo', () => {
  test('the operation time as a value: learnt on its second request from two builds, then every statement is the one built for its time', () => {
    const { calls, build } = counted((i) => ({ name: 'x', text: 'SELECT $1::timestamptz, $2, $3', values: [i.now, i.term, 7], stablePlan: true }));
    const memo = new StatementMemo<Input>(8, build, { now: NOW_PROBES });
    for (const now of NOWS) assert.deepEqual(memo.statement('k', { now, term: 'a' }), build({ now, term: 'a' }));
    // the first request built as without the memo, the second two builds to learn, then none; plus the direct builds of the comparison above
    assert.equal(calls.n, 3 + NOWS.length);
  });

  test('not kept: the time in the text, a value derived from it, the time inside a value, a differing label or mark', () => {
    const builders: Array<(i: Input) => Statement> = [
      (i) => ({ name: 'x', text: `SELECT '${i.now}'::timestamptz`, values: [] }),
      (i) => ({ name: 'x', text: 'SELECT $1::date', values: [i.now.slice(0, 10)] }),
      (i) => ({ name: 'x', text: 'SELECT $1::timestamptz[]', values: [[i.now]] }),
      (i) => ({ name: i.now < '2005' ? 'a' : 'b', text: 'SELECT $1', values: [i.now] }),
      (i) => ({ name: 'x', text: 'SELECT $1', values: [i.now], ...(i.now < '2005' ? { heavy: true } : {}) }),
    ];
    for (const [k, b] of builders.entries()) {
      const { calls, build } = counted(b);
      const memo = new StatementMemo<Input>(8, build, { now: NOW_PROBES });
      for (const now of NOWS) assert.deepEqual(memo.statement('k', { now, term: 'a' }), b({ now, term: 'a' }), `builder ${k}`);
      assert.equal(calls.n, 2 + NOWS.length, `builder ${k}: built for every statement after the two probes`);
    }
  });

  test('a builder that refuses a probe is built every time, and its own refusals still reach the caller', () => {
    const { calls, build } = counted((i) => {
      if (i.now < '2012') throw new Error(`refused ${i.now}`);
      return { name: 'x', text: 'SELECT $1', values: [i.now] };
    });
    const memo = new StatementMemo<Input>(8, build, { now: NOW_PROBES });
    const later = ['2026-03-15T12:00:00.000Z', '2030-01-01T00:00:00.000Z', '2026-03-15T12:00:00.001Z'];
    for (const now of later) assert.deepEqual(memo.statement('k', { now, term: 'a' }).values, [now]);
    // the first request built once, the second tried the probes (the first refused) and built, the third built
    assert.equal(calls.n, 1 + 2 + 1);
    assert.throws(() => memo.statement('k', { now: NOWS[3]!, term: 'a' }), /refused 1999/);
  });

  test('no key, no memo; at most `capacity` keys, forgotten all at once when full', () => {
    const { calls, build } = counted((i) => ({ name: 'x', text: `SELECT $1 /* ${i.term} */`, values: [i.now] }));
    const memo = new StatementMemo<Input>(3, build, { now: NOW_PROBES });
    memo.statement(null, { now: NOWS[0]!, term: 'a' });
    assert.equal(calls.n, 1);
    assert.equal(memo.size, 0);
    for (const term of ['a', 'b', 'c', 'd']) assert.equal(memo.statement(term, { now: NOWS[1]!, term }).text, `SELECT $1 /* ${term} */`);
    assert.ok(memo.size <= 3);
    assert.deepEqual(memo.statement('d', { now: NOWS[2]!, term: 'd' }).values, [NOWS[2]]);
  });
});

describe('Events first pages from the memo', () => {
  const queries = [
    '', 'limit=50', 'sort=-startLocalDate', 'sort=startInstant&limit=3', 'sort=-startInstant', 'sort=updatedAt&fields=name,updatedAt',
    'fields=name,schedule,artists,venues,links,ticketLinks&include=artists,venues', 'fields=name,directEventSeries,editionPrograms',
    'temporalPhaseCode=upcoming', 'temporalPhaseCode=current', 'temporalPhaseCode=current&sort=-startInstant', 'temporalPhaseCode=historical&sort=-startLocalDate',
    'temporalPhaseCode=indeterminate', 'nameContains=tour', 'nameContains=señor kalani live', 'nameContains=xx', 'cityContains=london', 'countryContains=de',
    'nameContains=tour&temporalPhaseCode=upcoming', 'administrativeStateCode=cancelled', 'startInstantGte=2026-01-01T00:00:00Z&startInstantLt=2026-02-01T00:00:00Z',
    'startLocalDateGte=2026-03-01&startLocalDateLt=2026-04-01', 'sort=updatedAt&updatedSince=2026-01-01T00:00:00Z&fields=name,updatedAt',
    'near=51.5072,-0.1276', 'near=51.5072,-0.1276&temporalPhaseCode=upcoming', 'near=-33.4489,-70.6693&radiusKm=50&sort=-startLocalDate', 'artistId=abcdefghijkl',
    'venueId=abcdefghijkl&temporalPhaseCode=upcoming', 'seriesId=abcdefghijkl', 'seriesId=abcdefghijkl&editionId=bcdefghijklm',
  ];
  const plan = (qs: string, now: string) => planEvents('/v1/events', parseEventControls(parseQueryString(qs)), new Date(now));
  test('every query, at every operation time, as eventsPageStatement builds it; the parts of a bounded search and the shapes too', () => {
    for (const qs of queries) {
      for (const now of NOWS) {
        const p = plan(qs, now);
        assert.deepEqual(pageStatement(p), eventsPageStatement(p), `${qs} at ${now}`);
      }
    }
    for (const now of NOWS) {
      const p = plan('nameContains=xx', now);
      for (const part of ['walked', 'rest'] as const) assert.deepEqual(pageStatement(p, { part, rows: 500 }), eventsPageStatement(p, { part, rows: 500 }));
      const q = plan('cityContains=london', now);
      for (const shape of ['walk', 'matches'] as const) {
        for (const heavy of [false, true]) assert.deepEqual(pageStatement(q, undefined, { shape, heavy }), eventsPageStatement(q, undefined, { shape, heavy }));
      }
    }
  });

  test('the pages the benchmark reads are kept (learnt once, not built per request)', () => {
    for (const qs of ['', 'temporalPhaseCode=current', 'temporalPhaseCode=upcoming', 'sort=updatedAt&updatedSince=2026-01-01T00:00:00Z&fields=name,updatedAt', 'near=51.5072,-0.1276&temporalPhaseCode=upcoming']) {
      const { calls, build } = counted((i) => eventsPageStatement({ ...plan(qs, i.now) }));
      const memo = new StatementMemo<Input>(8, build, { now: NOW_PROBES });
      for (const now of NOWS) memo.statement(qs, { now, term: '' });
      assert.equal(calls.n, 3, qs);
    }
  });

  test('a query seen once costs one build, as without the memo', () => {
    const { calls, build } = counted((i) => eventsPageStatement(plan(`nameContains=${i.term}`, i.now)));
    const memo = new StatementMemo<Input>(8, build, { now: NOW_PROBES });
    for (const term of ['tour', 'live', 'hall', 'club']) memo.statement(term, { now: NOWS[0]!, term });
    assert.equal(calls.n, 4);
  });

  // cursor keys of each sort's kinds (plan/events.ts EVENT_SORT_KEYS), -infinity among them
  const cursors: Record<string, ReadonlyArray<readonly CursorKey[]>> = {
    date: [['2026-03-15', 0, '2026-03-15 20:00:00+00', 'abcdefghijkl'], ['2032-12-01', 1, '-infinity', 'Ai7agZ000Itf'], ['0001-01-01', 0, '2026-03-15 20:00:00.5+00', '000000000000']],
    instant: [['2026-03-15 20:00:00+00', 'abcdefghijkl'], ['1999-12-31 23:59:59.999999+00', 'Ai7agZ000Itf']],
  };
  const cursorsOf = (p: ReturnType<typeof plan>) => cursors[EVENT_SORT_KEYS[p.controls.sort].length === 4 ? 'date' : 'instant']!;

  test('cursor pages: every query, cursor and operation time, as eventsPageStatement builds it; the parts and shapes too', () => {
    for (const qs of queries) {
      for (const now of NOWS) {
        for (const after of cursorsOf(plan(qs, now))) {
          const p = { ...plan(qs, now), after };
          assert.deepEqual(pageStatement(p), eventsPageStatement(p), `${qs} after ${after.join(' ')} at ${now}`);
        }
      }
    }
    for (const now of NOWS) {
      for (const after of cursors.date!) {
        const p = { ...plan('nameContains=xx', now), after };
        for (const part of ['walked', 'rest'] as const) assert.deepEqual(pageStatement(p, { part, rows: 500 }), eventsPageStatement(p, { part, rows: 500 }));
        const q = { ...plan('cityContains=london', now), after };
        for (const shape of ['walk', 'matches'] as const) {
          for (const heavy of [false, true]) assert.deepEqual(pageStatement(q, undefined, { shape, heavy }), eventsPageStatement(q, undefined, { shape, heavy }));
        }
      }
    }
  });

  test('a traversal\'s pages are kept: learnt on its second page, then its cursor keys put in', () => {
    for (const qs of ['', 'sort=-startLocalDate', 'sort=updatedAt&updatedSince=2026-01-01T00:00:00Z&fields=name,updatedAt', 'temporalPhaseCode=upcoming', 'near=51.5072,-0.1276&temporalPhaseCode=upcoming', 'sort=startInstant', 'nameContains=tour']) {
      const calls = { n: 0 };
      const first = plan(qs, NOWS[0]!);
      const memo = cursorPagesMemo(EVENT_SORT_KEYS[first.controls.sort], 8, (...args) => (calls.n++, eventsPageStatement(...args)));
      for (const now of NOWS) {
        for (const after of cursorsOf(first)) {
          const p = { ...plan(qs, now), after };
          assert.deepEqual(memo.statement(qs, cursorPageInput(p)), eventsPageStatement(p), `${qs} after ${after.join(' ')} at ${now}`);
        }
      }
      assert.equal(calls.n, 3, qs);
    }
  });

  test('a cursor whose keys are not of its sort\'s kinds is refused before any statement, as it was', () => {
    const p = plan('', NOWS[0]!);
    // the page's statement learnt first, so the refusal is not the builder's
    for (let i = 0; i < 3; i++) pageStatement({ ...p, after: ['2026-03-15', 0, '2026-03-15 20:00:00+00', 'abcdefghijkl'] });
    assert.throws(() => pageStatement({ ...p, after: ['2026-03-15', 0, 'not a time', 'abcdefghijkl'] }), /cursor/);
  });
});

describe('Event details from the memo', () => {
  test('every field selection, for any Event at any time, as eventDetailStatement builds it, and learnt once per selection', () => {
    const selections = ['', 'fields=name', 'fields=name,artists,venues', 'fields=name,artists,venues&include=artists', 'fields=name,directEventSeries,editionPrograms,schedule'];
    const ids = ['Ai7agZ00264V', 'bcdefghijklm', '000000000000'];
    for (const qs of selections) {
      const controls = parseEventDetailControls(parseQueryString(qs));
      for (const id of ids) for (const now of NOWS) assert.deepEqual(detailStatement(id, controls, now), eventDetailStatement(id, controls, now), `${qs} ${id} ${now}`);
      const { calls, build } = counted((i) => eventDetailStatement(i.term, controls, i.now));
      const memo = new StatementMemo<Input>(8, build, { now: NOW_PROBES, term: ['000000000000', 'zzzzzzzzzzzz'] });
      for (const id of ids) for (const now of NOWS) assert.deepEqual(memo.statement(qs, { now, term: id }), eventDetailStatement(id, controls, now));
      assert.equal(calls.n, 3, qs);
    }
  });
});

describe('Artist, Venue, Series and Edition details from the memo', () => {
  const IDS = [
    ['Ai7agZ00264V', '7dnmCd0006VD'],
    ['bcdefghijklm', '000000000000'],
    ['111111111111', 'zzzzzzzzzzzz'],
    ['yyyyyyyyyyyy', 'Ai7agZ00264V'],
  ] as const;
  const SELECTIONS = ['', 'fields=name', 'fields=profileMedia,name,links', 'fields=updatedAt'];

  test('each request\'s ids in their places, the text of the first build, learnt once per field selection', () => {
    const cases = [
      { spec: ARTIST_DETAIL, statement: (ids: readonly string[], f: never) => artistDetailStatement(ids[0]!, f), values: (ids: readonly string[]) => [ids[0]] },
      { spec: VENUE_DETAIL, statement: (ids: readonly string[], f: never) => venueDetailStatement(ids[0]!, f), values: (ids: readonly string[]) => [ids[0]] },
      { spec: SERIES_DETAIL, statement: (ids: readonly string[], f: never) => seriesDetailStatement(ids[0]!, f), values: (ids: readonly string[]) => [ids[0]] },
      // the Series' id first in the text's values, then the Edition's
      { spec: EDITION_DETAIL, statement: (ids: readonly string[], f: never) => editionDetailStatement(ids[0]!, ids[1]!, f), values: (ids: readonly string[]) => [ids[0], ids[1]] },
    ];
    for (const { spec, statement, values } of cases) {
      const texts = new Set<string>();
      for (const qs of SELECTIONS) {
        let fields: never;
        try {
          fields = parseDetailFields(parseQueryString(qs), spec) as never;
        } catch {
          continue; // a field this resource does not have
        }
        const statements = IDS.map((ids) => statement(ids, fields));
        statements.forEach((s, i) => assert.deepEqual(s.values, values(IDS[i]!), `${s.name} ${qs} ${i}`));
        for (const s of statements.slice(1)) assert.equal(s.text, statements[0]!.text, `${s.name} ${qs}: one text`);
        assert.equal(statements[2]!.text, statements[3]!.text);
        texts.add(statements[0]!.text);
      }
      assert.ok(texts.size >= 3, 'a text per selection');
    }
  });

  test('a builder that writes an id into its text is built every time, with each request\'s id', () => {
    const calls = { n: 0 };
    const unsafe = detailStatements<string>((fields, id) => (calls.n++, { name: 'x', text: `SELECT '${id}' ${fields.join()}`, values: [] }));
    for (const [id] of IDS) assert.equal(unsafe(['a'], id).text, `SELECT '${id}' a`);
    assert.equal(calls.n, 2 + IDS.length, 'the first build, two probes, then one build per later request');
  });
});
