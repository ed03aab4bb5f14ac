/**
 * One-term searches on generic plans (src/queries/search-shape.ts, src/db/plan-choices.ts): which
 * pages are shaped, what a choice depends on, how a plan is read, how choices are remembered, and
 * the statement each shape writes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encodeCursor } from '../../src/controls/cursor.js';
import { parseEventControls } from '../../src/controls/events.js';
import { parseQueryString } from '../../src/controls/query-string.js';
import { PlanChoices } from '../../src/db/plan-choices.js';
import { planEvents, type EventsPlan } from '../../src/plan/events.js';
import { eventsPageStatement } from '../../src/queries/events.js';
import { PIPELINED_COST, choiceOfPlan, searchShapeKey, shapeOfPlan, shapedSearch, type PlanNode } from '../../src/queries/search-shape.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const plan = (qs: string): EventsPlan => planEvents('/v1/events', parseEventControls(parseQueryString(qs)), NOW);

describe('shapedSearch: one term an index can narrow, and no other filter', () => {
  test('each term alone, in every order, with other fields', () => {
    for (const qs of [
      'nameContains=tour',
      'nameContains=se%C3%B1or+kalani+live+at+sirius+hall',
      'cityContains=london',
      'countryContains=france',
      'nameContains=tour&sort=-startLocalDate',
      'cityContains=london&sort=updatedAt&fields=name,updatedAt',
      'countryContains=fra&sort=startInstant&limit=50&include=artists&fields=name,artists',
    ]) {
      assert.equal(shapedSearch(plan(qs)), true, qs);
    }
  });

  test('not: no term, two terms, a term without a trigram (a bounded search), or any other filter', () => {
    for (const qs of [
      '',
      'nameContains=tour&cityContains=london',
      'nameContains=xx',
      'cityContains=dj',
      'nameContains=tour&temporalPhaseCode=upcoming',
      'nameContains=tour&administrativeStateCode=cancelled',
      'nameContains=tour&startInstantGte=2026-01-01T00:00:00Z',
      'nameContains=tour&startInstantLt=2026-01-01T00:00:00Z',
      'nameContains=tour&startLocalDateGte=2026-01-01',
      'nameContains=tour&startLocalDateLt=2026-01-01',
      'sort=updatedAt&fields=name,updatedAt&updatedSince=2025-01-01T00:00:00Z&nameContains=tour',
      'nameContains=tour&artistId=abcdefghijkl',
      'cityContains=london&near=51.5,-0.12',
    ]) {
      assert.equal(shapedSearch(plan(qs)), false, qs);
    }
  });

  test('a shape for any other page is refused by the statement builder', () => {
    assert.throws(() => eventsPageStatement(plan('nameContains=tour&cityContains=london'), undefined, { shape: 'walk', heavy: false }), /not a one-term search/);
    assert.throws(() => eventsPageStatement(plan('nameContains=xx'), { part: 'walked', rows: 10 }, { shape: 'matches', heavy: false }), /not a one-term search/);
  });
});

describe('searchShapeKey', () => {
  test('the term, its column, the order and whether a cursor is given; not the fields, limit, time or cursor position', () => {
    const key = (qs: string, now = NOW) => searchShapeKey(planEvents('/v1/events', parseEventControls(parseQueryString(qs)), now));
    assert.equal(key('nameContains=tour'), key('nameContains=tour&limit=50&fields=name'));
    assert.equal(key('nameContains=tour'), key('nameContains=tour', new Date('2027-01-01T00:00:00Z')));
    // a cursor's page has its own choice (the planner prices the rest of the order), whatever the cursor
    const after = (keys: unknown[]) => {
      const cursor = encodeCursor(plan('nameContains=tour').fingerprint, keys as never);
      return key(`nameContains=tour&cursor=${encodeURIComponent(cursor)}`);
    };
    assert.notEqual(after(['2026-03-14', 0, '2026-03-14 10:00:00+00', 'abcdefghijkl']), key('nameContains=tour'));
    assert.equal(after(['2026-03-14', 0, '2026-03-14 10:00:00+00', 'abcdefghijkl']), after(['2027-01-01', 1, '-infinity', 'zzzzzzzzzzzz']));
    const distinct = ['nameContains=tour', 'nameContains=tours', 'cityContains=tour', 'countryContains=tour', 'nameContains=tour&sort=updatedAt'];
    assert.equal(new Set(distinct.map((qs) => key(qs))).size, distinct.length);
  });
});

describe('shapeOfPlan', () => {
  const node = (type: string, ...plans: PlanNode[]): PlanNode => ({ 'Node Type': type, ...(plans.length ? { Plans: plans } : {}) });
  test('a walk of the order: no sort anywhere', () => {
    assert.equal(shapeOfPlan(node('Nested Loop', node('Limit', node('Nested Loop', node('Index Scan'), node('Index Scan'))), node('Index Scan'))), 'walk');
  });
  test('collected matches: a sort at any depth', () => {
    assert.equal(shapeOfPlan(node('Nested Loop', node('Limit', node('Sort', node('Bitmap Heap Scan', node('Bitmap Index Scan')))), node('Index Scan'))), 'matches');
    assert.equal(shapeOfPlan(node('Limit', node('Incremental Sort', node('Index Scan')))), 'matches');
    assert.equal(shapeOfPlan(node('Sort', node('Seq Scan'))), 'matches');
  });
});

describe('choiceOfPlan: the shape, and heavy above the pipelined cost', () => {
  const root = (cost: number | undefined, type = 'Limit'): PlanNode => ({ 'Node Type': type, ...(cost === undefined ? {} : { 'Total Cost': cost }) });
  test('light up to PIPELINED_COST, heavy above it or without a cost', () => {
    assert.deepEqual(choiceOfPlan(root(156.54)), { shape: 'walk', heavy: false });
    assert.deepEqual(choiceOfPlan(root(PIPELINED_COST)), { shape: 'walk', heavy: false });
    assert.deepEqual(choiceOfPlan(root(PIPELINED_COST + 0.01, 'Sort')), { shape: 'matches', heavy: true });
    assert.deepEqual(choiceOfPlan(root(undefined)), { shape: 'walk', heavy: true });
  });
  test('a heavy page is marked so (the pool, not a pipelined connection); a light one is not', () => {
    assert.equal(eventsPageStatement(plan('cityContains=london'), undefined, { shape: 'walk', heavy: true }).heavy, true);
    assert.equal(eventsPageStatement(plan('cityContains=london'), undefined, { shape: 'walk', heavy: false }).heavy, undefined);
  });
});

describe('PlanChoices', () => {
  test('one choice per key while it is fresh; concurrent asks share it', async () => {
    let clock = 0;
    const choices = new PlanChoices<string>(10, 1_000, () => clock);
    let asked = 0;
    const choose = async () => `choice ${++asked}`;
    const [a, b] = await Promise.all([choices.get('k', choose), choices.get('k', choose)]);
    assert.equal(a, 'choice 1');
    assert.equal(b, 'choice 1');
    clock = 999;
    assert.equal(await choices.get('k', choose), 'choice 1');
    clock = 1_000;
    assert.equal(await choices.get('k', choose), 'choice 2', 'asked again once its time is up');
    assert.equal(asked, 2);
  });

  test('a failed choice is forgotten: the next ask tries again', async () => {
    const choices = new PlanChoices<string>(10, 1_000, () => 0);
    await assert.rejects(choices.get('k', async () => Promise.reject(new Error('timeout'))), /timeout/);
    assert.equal(choices.size, 0);
    assert.equal(await choices.get('k', async () => 'walk'), 'walk');
  });

  test('bounded: the oldest key goes first', async () => {
    const choices = new PlanChoices<string>(2, 1_000, () => 0);
    let asked = 0;
    const choose = async () => String(++asked);
    await choices.get('a', choose);
    await choices.get('b', choose);
    await choices.get('c', choose);
    assert.equal(choices.size, 2);
    assert.equal(await choices.get('b', choose), '2');
    assert.equal(await choices.get('c', choose), '3');
    assert.equal(await choices.get('a', choose), '4', 'a was dropped');
  });
});

describe('the statement of each shape', () => {
  test('walk: the term through expressions no index holds, ordered by the order index; prepared', () => {
    for (const qs of ['nameContains=tour', 'cityContains=london', 'countryContains=france', 'nameContains=se%C3%B1or+kalani+live+at+sirius+hall']) {
      const s = eventsPageStatement(plan(qs), undefined, { shape: 'walk', heavy: false });
      assert.equal(s.stablePlan, true, qs);
      assert.doesNotMatch(s.text, /e\.(name_lower|name_folded|primary_locality_key|primary_country_key) LIKE/, qs);
      assert.doesNotMatch(s.text, /string_to_array|event_name_pairs/, `${qs}: not the word or pair index either`);
      assert.match(s.text, /ORDER BY e\.start_local_date ASC, e\.start_rank ASC/, qs);
      assert.match(s.text, /LIKE \(SELECT \$\d+::text\)/, `${qs}: its values priced as unknown`);
    }
  });

  test("matches: the term's index, ordered by keys no index holds, cut before the media join; prepared", () => {
    for (const qs of ['nameContains=tour', 'cityContains=london', 'nameContains=se%C3%B1or+kalani+live+at+sirius+hall']) {
      const s = eventsPageStatement(plan(qs), undefined, { shape: 'matches', heavy: false });
      assert.equal(s.stablePlan, true, qs);
      assert.match(s.text, /ORDER BY \(e\.start_local_date \+ 0\) ASC/, qs);
      assert.match(s.text, /FROM \(SELECT e\.\* FROM events e/, qs);
      assert.doesNotMatch(s.text, /LIKE \$\d+/, `${qs}: no value the planner sees`);
    }
    assert.match(eventsPageStatement(plan('cityContains=london'), undefined, { shape: 'matches', heavy: false }).text, /e\.primary_locality_key LIKE \(SELECT \$1::text\)/);
    assert.match(eventsPageStatement(plan('nameContains=se%C3%B1or+kalani+live+at+sirius+hall'), undefined, { shape: 'matches', heavy: false }).text, /event_name_pairs\(e\.name_folded\) @> ARRAY\[\(SELECT \$1::text\), \(SELECT \$2::text\)\]/);
    assert.match(eventsPageStatement(plan('nameContains=se%C3%B1or+kalani+sirius'), undefined, { shape: 'matches', heavy: false }).text, /string_to_array\(e\.name_folded, ' '\) @> ARRAY\[\(SELECT \$1::text\)\]/);
  });

  test('unshaped, the same search is planned per request, its values visible to the planner', () => {
    const s = eventsPageStatement(plan('cityContains=london'));
    assert.equal(s.stablePlan, false);
    assert.match(s.text, /e\.primary_locality_key LIKE \$1/);
  });
});
