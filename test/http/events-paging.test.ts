/**
 * GET /v1/events paging: a property test (random controls and limit, following
 * links.next to the end yields exactly the model's ordered list, each Event once), cursor rules
 * 7-9, the next-link determinism of rule 9, hasMore, and the URL budget (414 / 400).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { controlsFingerprint, encodeCursor } from '../../src/controls/cursor.js';
import { engines } from '../helper.js';
import { ARTISTS, EDITIONS, IDS, NOW, SERIES, VENUES, catalogueWithActive, eventsCatalogue, withActive } from '../fixtures/events-catalogue.js';
import { call, expect400, importDoc, openEventsWorld, qs, traverse, type EventsWorld } from '../fixtures/events-setup.js';
import { ALL_FIELDS, Catalogue, DEFAULT_FIELDS, modelEvent, modelEvents, type Field, type ModelControls, type Sort } from '../model/events-model.js';

const SORTS: Sort[] = ['startLocalDate', '-startLocalDate', 'startInstant', '-startInstant', 'updatedAt'];
const NAME_TERMS = ['fête', 'FETE', 'beyoncé', 'a', 'e', 'night', '%', '_', 'a%e', '50_50', '\\', 'k\\s', '東京', 'ﬁ', 'august', 'tie', 'gig', 'zzz', ' show '];
const CITY_TERMS = ['paris', 'berlin', 'lyon', 'a', 'z_rich', 'amsterdam', '%', '東京', 'springfield', 'aachen'];
const COUNTRY_TERMS = ['france', 'germany', 'a', 'austria', 'united_', '%', '日本', 'netherlands', 'zimbabwe'];
const INSTANTS = [
  '1970-01-01T00:00:00Z',
  '2025-07-01T10:30:00Z',
  '2025-07-01T10:30:00.000001Z',
  '2025-08-15T07:00:00Z',
  '2025-09-01T18:00:00Z',
  '2025-09-01T18:00:00.000001Z',
  '2025-10-01T12:00:00.123456Z',
  '2025-10-01T12:00:00.12345Z',
  '2026-01-01T00:00:00Z',
];
const DATES = ['0001-01-01', '2024-07-02', '2025-07-01', '2025-07-02', '2025-08-15', '2025-08-16', '2025-09-10', '2025-12-31', '2026-02-01'];
const MARKERS = ['2025-04-10T00:00:00Z', '2025-04-20T08:00:00.5Z', '2025-05-05T05:05:05.123401Z', '2025-05-05T05:05:05.1234Z', '2025-05-06T00:00:00Z'];
const CONTEXTS: ModelControls[] = [
  { artistId: ARTISTS.zed },
  { artistId: ARTISTS.beyonce },
  { artistId: ARTISTS.inactive },
  { venueId: VENUES.paris },
  { venueId: VENUES.berlin },
  { venueId: VENUES.inactiveAachen },
  { seriesId: SERIES.direct },
  { seriesId: SERIES.editioned },
  { seriesId: SERIES.editioned, editionId: EDITIONS.ed2024 },
  { seriesId: SERIES.editioned, editionId: EDITIONS.edInactive },
  { seriesId: SERIES.direct, editionId: EDITIONS.ed2025 },
  { seriesId: 'Nonexistent1' },
];
const FIELD_SETS: (readonly Field[] | undefined)[] = [
  undefined,
  ['publicId'],
  ['name', 'schedule'],
  ['updatedAt', 'artists', 'venues', 'profileMedia'],
  ALL_FIELDS,
];

interface Case {
  controls: ModelControls;
  limit: number | undefined;
  fields: readonly Field[] | undefined;
  include: ('artists' | 'venues')[];
  reverse: boolean;
}

/** Mostly absent: a filter is present with probability 1/(1+absentWeight). */
const sometimes = <T>(arb: fc.Arbitrary<T>, absentWeight: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: absentWeight }, { arbitrary: arb, weight: 1 });

const caseArb: fc.Arbitrary<Case> = fc
  .record(
    {
      sort: sometimes(fc.constantFrom(...SORTS), 1),
      nameContains: sometimes(fc.constantFrom(...NAME_TERMS), 4),
      cityContains: sometimes(fc.constantFrom(...CITY_TERMS), 5),
      countryContains: sometimes(fc.constantFrom(...COUNTRY_TERMS), 5),
      temporalPhaseCode: sometimes(fc.constantFrom('upcoming', 'current', 'historical', 'indeterminate' as const), 4),
      administrativeStateCode: sometimes(fc.constantFrom('scheduled', 'cancelled' as const), 4),
      startInstantGte: sometimes(fc.constantFrom(...INSTANTS), 5),
      startInstantLt: sometimes(fc.constantFrom(...INSTANTS), 5),
      startLocalDateGte: sometimes(fc.constantFrom(...DATES), 4),
      startLocalDateLt: sometimes(fc.constantFrom(...DATES), 4),
      updatedSince: sometimes(fc.constantFrom(...MARKERS), 3),
      context: sometimes(fc.constantFrom(...CONTEXTS), 3),
      limit: sometimes(fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 50 })), 6),
      fields: fc.constantFrom(...FIELD_SETS),
      include: fc.subarray(['artists', 'venues'] as ('artists' | 'venues')[]),
      reverse: fc.boolean(),
    },
    { requiredKeys: ['sort', 'fields', 'include', 'reverse', 'limit', 'context', 'updatedSince'] },
  )
  .map((r) => {
    const { context, limit, fields: f, include: inc, reverse, ...rest } = r;
    const controls: ModelControls = { ...rest, ...(context ?? {}) };
    for (const k of Object.keys(controls) as (keyof ModelControls)[]) if (controls[k] === undefined) delete controls[k];
    // prerequisites: updatedSince needs sort=updatedAt and updatedAt selected; date bounds must not invert
    let fields = f;
    if (controls.updatedSince !== undefined) {
      controls.sort = 'updatedAt';
      fields = [...new Set([...(fields ?? DEFAULT_FIELDS), 'updatedAt' as Field])];
    }
    if (controls.startLocalDateGte !== undefined && controls.startLocalDateLt !== undefined && !(controls.startLocalDateGte < controls.startLocalDateLt)) {
      delete controls.startLocalDateLt;
    }
    const selected = fields ?? DEFAULT_FIELDS;
    const include = inc.filter((rel) => selected.includes(rel));
    return { controls, limit, fields, include, reverse };
  });

function urlOf(c: Case): string {
  const pairs: [string, string][] = Object.entries(c.controls).map(([k, v]) => [k, String(v)]);
  if (c.limit !== undefined) pairs.push(['limit', String(c.limit)]);
  if (c.fields !== undefined) pairs.push(['fields', [...c.fields].reverse().join(',')]);
  if (c.include.length > 0) pairs.push(['include', c.include.join(',')]);
  if (c.reverse) pairs.reverse();
  return `/v1/events?${qs(pairs)}`;
}

for (const engine of engines()) {
  describe(`GET /v1/events paging [${engine.name}]`, () => {
    let w: EventsWorld;
    before(async () => {
      w = await openEventsWorld(engine);
    });
    after(async () => {
      await w?.close();
    });

    test('property: following links.next to the end yields exactly the model list, each Event once, each item as the model projects it', async () => {
      let nonEmpty = 0;
      await fc.assert(
        fc.asyncProperty(caseArb, async (c) => {
          const url = urlOf(c);
          const { ids, pages } = await traverse(w.server, url);
          const expected = modelEvents(w.cat, c.controls, NOW);
          assert.deepEqual(ids, expected, url);
          assert.equal(new Set(ids).size, ids.length, 'each Event once');
          const limit = c.limit ?? 20;
          const fields = c.fields ?? DEFAULT_FIELDS;
          const byId = new Map(w.cat.events.map((e) => [e.publicId, e]));
          for (const [i, p] of pages.entries()) {
            assert.equal(p.body.meta.pagination.limit, limit);
            assert.ok(p.body.data.length <= limit);
            if (i < pages.length - 1) assert.equal(p.body.data.length, limit, 'only the last page may be short');
            for (const item of p.body.data) {
              assert.deepEqual(item, modelEvent(w.cat, byId.get(item.publicId)!, fields, c.include, NOW), `${url}: item ${item.publicId}`);
            }
          }
          if (expected.length > 0) nonEmpty++;
        }),
        { numRuns: Number(process.env.LINEUP_PROPERTY_RUNS ?? 250), seed: process.env.LINEUP_PROPERTY_SEED ? Number(process.env.LINEUP_PROPERTY_SEED) : undefined },
      );
      assert.ok(nonEmpty > 10, `enough non-empty cases (${nonEmpty})`);
    });

    test('limit=1 traversals of every sort keep full microsecond precision in cursors', async () => {
      for (const sort of SORTS) {
        const { ids } = await traverse(w.server, `/v1/events?${qs({ sort, limit: '1', fields: 'publicId', startLocalDateGte: '2025-05-01', startLocalDateLt: '2025-11-30' })}`);
        assert.deepEqual(ids, modelEvents(w.cat, { sort, startLocalDateGte: '2025-05-01', startLocalDateLt: '2025-11-30' }, NOW), sort);
      }
    });

    test('cursors depend only on data and controls: another server process continues the traversal', async () => {
      const { startServer } = await import('../helper.js');
      const other = await startServer(w.db, {}, () => NOW);
      try {
        const first = await call(w.server, `/v1/events?${qs({ limit: '4', sort: '-startInstant' })}`);
        const rest = await traverse(other, first.body.links.next);
        const ids = [...first.body.data.map((e: { publicId: string }) => e.publicId), ...rest.ids];
        assert.deepEqual(ids, modelEvents(w.cat, { sort: '-startInstant' }, NOW));
        const again = await call(other, `/v1/events?${qs({ limit: '4', sort: '-startInstant' })}`);
        assert.equal(again.headers.get('etag'), first.headers.get('etag'), 'the same ETag from another process');
        assert.equal(again.body.links.next, first.body.links.next);
      } finally {
        await other.close();
      }
    });

    test('hasMore ⇔ next non-null; an exactly full last page has next null', async () => {
      const day = { startLocalDateGte: '2025-08-15', startLocalDateLt: '2025-08-16' }; // 6 Events
      const one = await call(w.server, `/v1/events?${qs({ ...day, limit: '6' })}`);
      assert.equal(one.body.data.length, 6);
      assert.equal(one.body.meta.pagination.hasMore, false);
      assert.equal(one.body.links.next, null);
      const { pages } = await traverse(w.server, `/v1/events?${qs({ ...day, limit: '3' })}`);
      assert.equal(pages.length, 2);
      assert.equal(pages[0]!.body.meta.pagination.hasMore, true);
      assert.equal(pages[1]!.body.data.length, 3);
      assert.equal(pages[1]!.body.links.next, null);
      const seven = await call(w.server, `/v1/events?${qs({ ...day, limit: '7' })}`);
      assert.equal(seven.body.links.next, null);
    });

    test('rule 9: the next link is deterministic for equivalent controls (order, CSV order, defaults, whitespace, publicId in fields)', async () => {
      const next = async (query: string) => {
        const got = await call(w.server, `/v1/events?${query}`);
        assert.equal(got.status, 200, query);
        assert.notEqual(got.body.links.next, null, query);
        return got.body.links.next as string;
      };
      const groups: string[][] = [
        [
          'nameContains=f%C3%AAte&limit=1&fields=name,schedule,artists&include=artists',
          'include=artists&fields=artists,schedule,name&limit=1&nameContains=f%C3%AAte',
          'fields=%20schedule%20,artists,name,publicId&nameContains=%20%20f%C3%AAte%20&limit=1&include=artists&sort=startLocalDate',
          'sort=startLocalDate&limit=1&nameContains=f%C3%AAte+&fields=publicId,schedule,name,artists&include=artists',
        ],
        [
          '',
          'limit=20',
          'sort=startLocalDate',
          'fields=publicId,slug,name,schedule,administrativeStateCode,profileMedia,artists,venues',
          'fields=venues,artists,profileMedia,administrativeStateCode,schedule,name,slug&limit=20&sort=startLocalDate',
        ],
        [
          'include=venues,artists&limit=4',
          'limit=4&include=artists,venues',
          'include=%20venues%20,%20artists&limit=4&fields=publicId,slug,name,schedule,administrativeStateCode,profileMedia,artists,venues',
        ],
        [
          `sort=updatedAt&fields=updatedAt&updatedSince=2025-04-01T00:00:00Z&limit=2`,
          `updatedSince=2025-04-01T00:00:00.0Z&fields=publicId,updatedAt&sort=updatedAt&limit=2`,
          `limit=2&updatedSince=2025-04-01T00:00:00.000000Z&sort=updatedAt&fields=updatedAt`,
        ],
        [
          `startInstantGte=2025-07-01T00:00:00Z&sort=startInstant&limit=3`,
          `sort=startInstant&startInstantGte=2025-07-01T00:00:00.000Z&limit=3`,
        ],
      ];
      for (const group of groups) {
        const links: string[] = [];
        for (const q of group) links.push(await next(q)); // sequential: one admitted read at a time (503 beyond)
        for (const [i, link] of links.entries()) assert.equal(link, links[0], `${group[i]} vs ${group[0]}`);
      }
      // different effective controls → different next links
      assert.notEqual(await next('limit=2'), await next('limit=3'));
      assert.notEqual(await next('limit=2'), await next('limit=2&sort=-startLocalDate'));
      // the link is relative and itself a valid request returning the following page
      const link = await next('limit=2');
      assert.match(link, /^\/v1\/events\?/);
      const page2 = await call(w.server, link);
      const all = modelEvents(w.cat, {}, NOW);
      assert.deepEqual(page2.body.data.map((e: { publicId: string }) => e.publicId), all.slice(2, 4));
    });

    test('rule 7: malformed or altered cursors → 400 cursor, before any read', async () => {
      const first = await call(w.server, `/v1/events?limit=2`);
      const link: string = first.body.links.next;
      const cursor = new URL(link, 'http://x').searchParams.get('cursor')!;
      assert.ok(cursor.length >= 1 && cursor.length <= 1024);
      const [payload, sum] = cursor.split('.') as [string, string];
      const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
      const broken = [
        'abc',
        'abc.def',
        '.',
        `${payload}.`,
        `.${sum}`,
        `${payload}`,
        `${flip(payload, 3)}.${sum}`,
        `${flip(payload, payload.length - 2)}.${sum}`,
        `${payload}.${flip(sum, 0)}`,
        `${payload}x.${sum}`,
        `${payload}.${sum}.${sum}`,
        Buffer.from(JSON.stringify([1, 'x', ['2025-01-01', 0, null, 'A']])).toString('base64url') + '.' + sum,
        `${payload}=.${sum}`,
        `${payload} .${sum}`,
      ];
      for (const c of broken) {
        w.server.statements.length = 0;
        await expect400(w.server, `/v1/events?${qs({ limit: '2', cursor: c })}`, 'cursor');
        assert.equal(w.server.statements.length, 0, `cursor ${c}: no read`);
      }
      // the untouched cursor works
      const ok = await call(w.server, `/v1/events?${qs({ limit: '2', cursor })}`);
      assert.equal(ok.status, 200);
    });

    test('rule 7 / decisions §5: a cursor whose checksum is valid but whose keys are not positions of that sort → 400, never 500 or a silently empty page', async () => {
      // The checksum is not a secret (cursors are positions, not credentials): anyone can re-checksum a
      // payload. Keys of the wrong type or format make the cursor malformed.
      const forged: [string, (string | number | null)[]][] = [
        ['limit=2', ['garbage', 0, '-infinity', 'EvX']],
        ['limit=2', ['2025-07-01', 'abc', '-infinity', 'EvX']],
        ['limit=2', ['2025-07-01', 0, 'not-a-time', 'EvX']],
        ['limit=2', ['2025-07-01', 99999999, '-infinity', 'EvX']],
        ['limit=2', [null, null, null, null]],
        ['limit=2&sort=updatedAt', ['garbage', 'EvX']],
        ['limit=2&sort=updatedAt', [null, 'EvX']],
        ['limit=2&sort=updatedAt', [1.5, 'EvX']],
        ['limit=2&sort=startInstant', ['2025-07-01 10:00:00+00', null]],
      ];
      for (const [query, keys] of forged) {
        const cursor = encodeCursor(controlsFingerprint('/v1/events', query), keys);
        const got = await call(w.server, `/v1/events?${query}&${qs({ cursor })}`);
        assert.equal(got.status, 400, `${query} cursor keys ${JSON.stringify(keys)} → ${got.status} ${got.text.slice(0, 120)}`);
        assert.equal(got.body.error.details[0].parameter, 'cursor');
      }
    });

    test('rule 7: a cursor issued for other controls → 400 (limit, sort, filters, fields, include, context)', async () => {
      const cursorOf = async (query: string) => {
        const got = await call(w.server, `/v1/events?${query}`);
        return new URL(got.body.links.next, 'http://x').searchParams.get('cursor')!;
      };
      const c = await cursorOf('limit=2');
      for (const other of [
        'limit=3',
        'limit=2&sort=-startLocalDate',
        'limit=2&nameContains=a',
        'limit=2&fields=name',
        'limit=2&include=artists',
        `limit=2&artistId=${ARTISTS.zed}`,
        'limit=2&administrativeStateCode=scheduled',
        'limit=2&startLocalDateGte=0001-01-01',
      ]) {
        await expect400(w.server, `/v1/events?${other}&${qs({ cursor: c })}`, 'cursor');
      }
      // same arity, other sort
      const s = await cursorOf('limit=2&sort=startInstant');
      await expect400(w.server, `/v1/events?limit=2&sort=updatedAt&${qs({ cursor: s })}`, 'cursor');
      await expect400(w.server, `/v1/events?limit=2&sort=-startInstant&${qs({ cursor: s })}`, 'cursor');
      // a startLocalDate cursor (4 keys) under a 2-key sort
      await expect400(w.server, `/v1/events?limit=2&sort=startInstant&${qs({ cursor: c })}`, 'cursor');
      // equivalent controls accept it (defaults, order)
      const same = await call(w.server, `/v1/events?${qs({ cursor: c, sort: 'startLocalDate', limit: '2' })}`);
      assert.equal(same.status, 200);
    });

    for (const sort of ['startLocalDate', '-startLocalDate', 'startInstant', 'updatedAt'] as const) {
      test(`rule 7: a ${sort} cursor stays usable after its boundary Event is deactivated, and after it is removed`, async () => {
        const base = { sort, limit: '3', fields: 'publicId', startLocalDateGte: '2025-07-01', startLocalDateLt: '2025-09-11' };
        const controls: ModelControls = { sort, startLocalDateGte: '2025-07-01', startLocalDateLt: '2025-09-11' };
        const before = modelEvents(w.cat, controls, NOW);
        const page1 = await call(w.server, `/v1/events?${qs(base)}`);
        const ids1 = page1.body.data.map((e: { publicId: string }) => e.publicId);
        assert.deepEqual(ids1, before.slice(0, 3));
        const boundary = ids1[2] as string;
        try {
          await importDoc(w.db, withActive(boundary, false));
          const { ids } = await traverse(w.server, page1.body.links.next);
          assert.deepEqual(ids, before.slice(3), 'the rest of the traversal, from the boundary position');
          assert.deepEqual(ids, modelEvents(new Catalogue(catalogueWithActive(boundary, false)), controls, NOW).slice(2));
          // removed entirely (--replace without it)
          await importDoc(w.db, { ...eventsCatalogue, events: eventsCatalogue.events!.filter((e) => e.publicId !== boundary) }, true);
          const again = await traverse(w.server, page1.body.links.next);
          assert.deepEqual(again.ids, before.slice(3));
        } finally {
          await importDoc(w.db, eventsCatalogue, true);
        }
        const restored = await traverse(w.server, `/v1/events?${qs(base)}`);
        assert.deepEqual(restored.ids, before);
      });
    }

    test('a traversal sees an Event re-activated ahead of the boundary (reads are not a snapshot)', async () => {
      const target = IDS.inactive; // date 2025-07-01, inactive in the fixture
      const base = { limit: '5', fields: 'publicId', startLocalDateGte: '2025-06-01', startLocalDateLt: '2025-08-01' };
      const page1 = await call(w.server, `/v1/events?${qs(base)}`);
      try {
        await importDoc(w.db, withActive(target, true));
        const { ids } = await traverse(w.server, page1.body.links.next);
        const expected = modelEvents(new Catalogue(catalogueWithActive(target, true)), { startLocalDateGte: '2025-06-01', startLocalDateLt: '2025-08-01' }, NOW);
        const last = page1.body.data.at(-1).publicId;
        assert.deepEqual(ids, expected.slice(expected.indexOf(last) + 1));
        assert.ok(ids.includes(target));
      } finally {
        await importDoc(w.db, withActive(target, false));
      }
    });

    test('URL budget: the normalized URL plus a 1,024-character cursor must fit 4,096 bytes (414 even when the request fits)', async () => {
      const emoji = '\u{1F600}'.repeat(200); // 2,400 characters percent-encoded
      const fits = (k: number) => qs({ cityContains: 'é'.repeat(70), countryContains: 'a'.repeat(k), nameContains: emoji, limit: '20' });
      // normalized: cityContains=…(13+420) &countryContains=…(17+k) &nameContains=…(14+2400); + "/v1/events?" + "&cursor=" + 1024
      const ok = await call(w.server, `/v1/events?${fits(189)}`);
      assert.equal(ok.status, 200, 'exactly 4,096 bytes with the reserved cursor');
      w.server.statements.length = 0;
      const url = `/v1/events?${fits(190)}`;
      assert.ok(Buffer.byteLength(url) < 4096, `the request itself fits (${Buffer.byteLength(url)})`);
      const tooLong = await call(w.server, url);
      assert.equal(tooLong.status, 414);
      assert.equal(tooLong.headers.get('cache-control'), 'no-store');
      assert.equal(w.server.statements.length, 0, 'refused before any read');
      // a long but fitting request with a real next link: that link plus a maximal cursor fits
      const long = await call(w.server, `/v1/events?${qs({ nameContains: '%', cityContains: '%'.repeat(150), limit: '1' })}`);
      assert.equal(long.status, 200);
      const next: string = long.body.links.next;
      const cursor = new URL(next, 'http://x').searchParams.get('cursor')!;
      assert.ok(Buffer.byteLength(next) - cursor.length + 1024 <= 4096);
    });
  });
}
