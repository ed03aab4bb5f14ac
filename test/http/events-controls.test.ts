/**
 * GET /v1/events: every 400 rule of the parameter table and rules 1, 3, 5 and 10 (each with
 * `details[].parameter` naming the parameter, refused before any database read), the success
 * and failure envelopes, and the response headers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helper.js';
import { ARTISTS, EDITIONS, SERIES, VENUES } from '../fixtures/events-catalogue.js';
import { call, expect400, openEventsWorld, qs, type EventsWorld } from '../fixtures/events-setup.js';

for (const engine of engines()) {
  describe(`GET /v1/events controls [${engine.name}]`, () => {
    let w: EventsWorld;
    before(async () => {
      w = await openEventsWorld(engine);
    });
    after(async () => {
      await w?.close();
    });

    /** A 400 that named `parameter` and issued no statement. */
    async function bad(query: string, parameter: string) {
      w.server.statements.length = 0;
      const got = await expect400(w.server, `/v1/events?${query}`, parameter);
      assert.equal(w.server.statements.length, 0, `${query}: refused before any read`);
      return got;
    }
    async function ok(query: string) {
      const got = await call(w.server, `/v1/events?${query}`);
      assert.equal(got.status, 200, `${query} → ${got.status} ${got.text}`);
      return got;
    }

    test('unknown parameters (names are case-sensitive) and dotted paths', async () => {
      await bad('foo=1', 'foo');
      await bad('Limit=5', 'Limit');
      await bad('SORT=updatedAt', 'SORT');
      await bad('artists.name=x', 'artists.name');
      await bad('fields=artists.name', 'fields');
      await bad('include=artists.profileMedia', 'include');
      // composite fields are atomic (Event rule 2): no sub-selection
      await bad('fields=schedule.start', 'fields');
      await bad('fields=profileMedia.src', 'fields');
      await bad('fields=venues.location', 'fields');
      await bad('schedule.start=x', 'schedule.start');
      await bad('page=2', 'page');
      await bad('offset=20', 'offset');
    });

    test('repeated scalar parameters and empty values', async () => {
      await bad('limit=5&limit=5', 'limit');
      await bad('sort=updatedAt&sort=startInstant', 'sort');
      await bad('fields=name&fields=slug', 'fields');
      await bad(`artistId=${ARTISTS.zed}&artistId=${ARTISTS.zed}`, 'artistId');
      for (const name of ['limit', 'cursor', 'nameContains', 'cityContains', 'countryContains', 'temporalPhaseCode', 'administrativeStateCode', 'startInstantGte', 'startInstantLt', 'startLocalDateGte', 'startLocalDateLt', 'updatedSince', 'sort', 'fields', 'include', 'artistId', 'venueId', 'seriesId', 'editionId']) {
        await bad(`${name}=`, name);
      }
      await bad('limit', 'limit');
      await bad('nameContains=%20%20%20', 'nameContains');
      await bad('cityContains=+', 'cityContains');
    });

    test('name filters: 1-200 characters after trimming', async () => {
      await ok(qs({ nameContains: 'x'.repeat(200) }));
      await ok(qs({ nameContains: `  ${'é'.repeat(200)}  ` }));
      await ok(qs({ countryContains: '\u{1F600}'.repeat(200) }));
      await bad(qs({ nameContains: 'x'.repeat(201) }), 'nameContains');
      await bad(qs({ cityContains: 'y'.repeat(201) }), 'cityContains');
      await bad(qs({ countryContains: 'z'.repeat(201) }), 'countryContains');
    });

    test('CSV lists: duplicate members, empty members, unsupported members', async () => {
      await bad('fields=name,name', 'fields');
      await bad('fields=name,%20name', 'fields');
      await bad('fields=name,', 'fields');
      await bad('fields=,name', 'fields');
      await bad('fields=name,,slug', 'fields');
      await bad('fields=name,title', 'fields');
      await bad('fields=Name', 'fields');
      await bad('fields=contact', 'fields');
      await bad('include=artists,artists', 'include');
      await bad('include=series', 'include');
      await bad('include=artists,', 'include');
      await ok('fields=%20name%20,%20slug');
    });

    test('unsupported values of enumerations', async () => {
      await bad('sort=name', 'sort');
      await bad('sort=-updatedAt', 'sort');
      await bad('sort=startlocaldate', 'sort');
      await bad('sort=%20startInstant', 'sort');
      await bad('temporalPhaseCode=past', 'temporalPhaseCode');
      await bad('temporalPhaseCode=Upcoming', 'temporalPhaseCode');
      await bad('administrativeStateCode=active', 'administrativeStateCode');
      await bad('administrativeStateCode=scheduled,cancelled', 'administrativeStateCode');
      for (const sort of ['startLocalDate', '-startLocalDate', 'startInstant', '-startInstant', 'updatedAt']) await ok(`sort=${sort}`);
    });

    test('limit: a positive integer string 1-50 (over 50 rejected, never clamped)', async () => {
      for (const v of ['0', '51', '01', '1e1', '-1', '+5', '1.0', '5.', '%205', 'abc', '100', '99999', '0x10', '５']) {
        await bad(`limit=${v}`, 'limit');
      }
      for (const v of [1, 7, 20, 50]) {
        const got = await ok(`limit=${v}`);
        assert.equal(got.body.meta.pagination.limit, v);
        assert.ok(got.body.data.length <= v);
      }
      const dflt = await ok('');
      assert.equal(dflt.body.meta.pagination.limit, 20);
      assert.equal(dflt.body.data.length, 20);
    });

    test('dates: valid calendar dates with leap years, years 0001-9999', async () => {
      for (const name of ['startLocalDateGte', 'startLocalDateLt']) {
        for (const v of ['2023-02-29', '2100-02-29', '0000-01-01', '2025-13-01', '2025-00-10', '2025-04-31', '2025-01-00', '2025-1-01', '20250101', '2025-01-01T00:00:00Z', '12025-01-01', '2025/01/01', ' 2025-01-01']) {
          await bad(qs({ [name]: v }), name);
        }
        for (const v of ['2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31']) await ok(qs({ [name]: v }));
      }
    });

    test('query instants: UTC with seconds, 1-6 fraction digits, Z; offsets, missing seconds and 7 digits rejected', async () => {
      const invalid = [
        '2025-07-01T10:00:00+00:00',
        '2025-07-01T10:00:00+02:00',
        '2025-07-01T10:00Z',
        '2025-07-01T10Z',
        '2025-07-01T10:00:00.1234567Z',
        '2025-07-01T10:00:00.Z',
        '2025-07-01T10:00:00',
        '2025-07-01 10:00:00Z',
        '2025-07-01T10:00:00z',
        '2025-07-01T24:00:00Z',
        '2025-07-01T10:60:00Z',
        '2025-07-01T10:00:60Z',
        '2023-02-29T00:00:00Z',
        '0000-01-01T00:00:00Z',
        '2025-07-01',
      ];
      for (const name of ['startInstantGte', 'startInstantLt']) {
        for (const v of invalid) await bad(qs({ [name]: v }), name);
        for (const v of ['2025-07-01T10:00:00Z', '2025-07-01T10:00:00.1Z', '2025-07-01T10:00:00.123456Z', '2024-02-29T23:59:59.999999Z']) {
          await ok(qs({ [name]: v }));
        }
      }
      for (const v of invalid) await bad(qs({ updatedSince: v, sort: 'updatedAt', fields: 'updatedAt' }), 'updatedSince');
      await ok(qs({ updatedSince: '2025-07-01T10:00:00.123456Z', sort: 'updatedAt', fields: 'updatedAt' }));
    });

    test('publicId parameters: exactly 12 characters from 0-9A-Za-z', async () => {
      for (const name of ['artistId', 'venueId', 'seriesId']) {
        for (const v of ['short', 'ArZed00000011', 'ArZed-000001', 'ArZed 000001', 'ÄrZed0000001']) await bad(qs({ [name]: v }), name);
      }
      await bad(qs({ seriesId: SERIES.editioned, editionId: 'bad' }), 'editionId');
    });

    test('rule 1: at most one of artistId, venueId, seriesId; editionId requires seriesId', async () => {
      await bad(qs({ artistId: ARTISTS.zed, venueId: VENUES.paris }), 'artistId');
      await bad(qs({ artistId: ARTISTS.zed, venueId: VENUES.paris }), 'venueId');
      await bad(qs({ artistId: ARTISTS.zed, seriesId: SERIES.direct }), 'seriesId');
      await bad(qs({ venueId: VENUES.paris, seriesId: SERIES.direct }), 'venueId');
      await bad(qs({ artistId: ARTISTS.zed, venueId: VENUES.paris, seriesId: SERIES.direct }), 'artistId');
      await bad(qs({ editionId: EDITIONS.ed2024 }), 'editionId');
      await bad(qs({ artistId: ARTISTS.zed, editionId: EDITIONS.ed2024 }), 'editionId');
      await ok(qs({ seriesId: SERIES.editioned, editionId: EDITIONS.ed2024 }));
    });

    test('inverted or equal date bounds are rejected; instant bounds are independent', async () => {
      const inverted = async (q: string) => {
        w.server.statements.length = 0;
        const got = await call(w.server, `/v1/events?${q}`);
        assert.equal(got.status, 400, q);
        const params = got.body.error.details.map((d: { parameter: string }) => d.parameter);
        assert.ok(params.includes('startLocalDateLt') || params.includes('startLocalDateGte'), JSON.stringify(params));
        assert.equal(w.server.statements.length, 0);
      };
      await inverted(qs({ startLocalDateGte: '2025-08-02', startLocalDateLt: '2025-08-01' }));
      await inverted(qs({ startLocalDateGte: '2025-08-01', startLocalDateLt: '2025-08-01' }));
      await inverted(qs({ startLocalDateGte: '9999-12-31', startLocalDateLt: '0001-01-01' }));
      await ok(qs({ startLocalDateGte: '2025-08-01', startLocalDateLt: '2025-08-02' }));
      // instant bounds are "independent of the lower bound": an empty range is not an error
      const empty = await ok(qs({ startInstantGte: '2025-08-02T00:00:00Z', startInstantLt: '2025-08-01T00:00:00Z' }));
      assert.deepEqual(empty.body.data, []);
    });

    test('rule 10 / updatedSince prerequisites: explicit sort=updatedAt and selected updatedAt', async () => {
      const since = '2025-01-01T00:00:00Z';
      await bad(qs({ updatedSince: since }), 'updatedSince');
      await bad(qs({ updatedSince: since, sort: 'updatedAt' }), 'updatedSince');
      await bad(qs({ updatedSince: since, fields: 'updatedAt' }), 'updatedSince');
      await bad(qs({ updatedSince: since, sort: 'startLocalDate', fields: 'updatedAt,name' }), 'updatedSince');
      await bad(qs({ updatedSince: since, sort: 'updatedAt', fields: 'name,slug' }), 'updatedSince');
      const got = await ok(qs({ updatedSince: since, sort: 'updatedAt', fields: 'name,updatedAt' }));
      assert.ok(got.body.data.every((e: Record<string, unknown>) => typeof e.updatedAt === 'string'));
    });

    test('rule 5: include requires its relationship field; include without fields keeps defaults', async () => {
      await bad(qs({ fields: 'name', include: 'artists' }), 'include');
      await bad(qs({ fields: 'artists', include: 'venues' }), 'include');
      await bad(qs({ fields: 'artists', include: 'artists,venues' }), 'include');
      const got = await ok(qs({ include: 'venues' }));
      assert.deepEqual(Object.keys(got.body.data[0]).sort(), ['administrativeStateCode', 'artists', 'name', 'profileMedia', 'publicId', 'schedule', 'slug', 'venues']);
      await ok(qs({ fields: 'venues', include: 'venues' }));
    });

    test('cursor parameter: 1-1,024 characters', async () => {
      await bad(qs({ cursor: 'x'.repeat(1025) }), 'cursor');
      await bad(qs({ cursor: 'x' }), 'cursor');
    });

    test('malformed query strings: bad escapes, NUL, more than 32 parameters', async () => {
      await bad('nameContains=%E0%A4%A', 'nameContains');
      await bad('nameContains=%ZZ', 'nameContains');
      await bad('nameContains=a%00b', 'nameContains');
      const many = Array.from({ length: 33 }, (_, i) => `p${i}=1`).join('&');
      await bad(many, '*');
      const repeated = Array.from({ length: 33 }, () => 'limit=5').join('&');
      await bad(repeated, '*');
    });

    test('several problems are reported together, each naming its parameter', async () => {
      const got = await bad('limit=0&sort=x&foo=1&startLocalDateGte=2023-02-29', 'limit');
      const params = got.body.error.details.map((d: { parameter: string }) => d.parameter).sort();
      assert.deepEqual(params, ['foo', 'limit', 'sort', 'startLocalDateGte']);
      for (const d of got.body.error.details) assert.ok(d.message.length > 0);
    });

    test('success envelope: exactly ok, data, meta.pagination {limit, hasMore}, links.next', async () => {
      const got = await ok('limit=3');
      assert.deepEqual(Object.keys(got.body).sort(), ['data', 'links', 'meta', 'ok']);
      assert.equal(got.body.ok, true);
      assert.deepEqual(Object.keys(got.body.meta), ['pagination']);
      assert.deepEqual(Object.keys(got.body.meta.pagination).sort(), ['hasMore', 'limit']);
      assert.deepEqual(Object.keys(got.body.links), ['next']);
      assert.equal(got.body.meta.pagination.hasMore, true);
      assert.equal(typeof got.body.links.next, 'string');
      assert.equal(got.body.data.length, 3);
      assert.ok(got.headers.get('content-type')?.startsWith('application/json'));
    });

    test('failure envelope: exactly ok:false and error {type, message, details?}; no resource validators', async () => {
      const got = await bad('limit=0', 'limit');
      assert.deepEqual(Object.keys(got.body).sort(), ['error', 'ok']);
      assert.equal(got.body.ok, false);
      assert.deepEqual(Object.keys(got.body.error).sort(), ['details', 'message', 'type']);
      for (const d of got.body.error.details) assert.deepEqual(Object.keys(d).sort(), ['message', 'parameter']);
      assert.equal(got.headers.get('last-modified'), null);
    });

    test('success headers: unique X-Request-ID, Cache-Control, ACAO *, weak ETag, Date; ETag independent of request id and time', async () => {
      const a = await ok('limit=2');
      const b = await ok('limit=2');
      const ida = a.headers.get('x-request-id');
      const idb = b.headers.get('x-request-id');
      assert.ok(ida && idb && ida !== idb, 'a fresh request id per response');
      assert.equal(a.headers.get('cache-control'), 'public, max-age=60');
      assert.equal(a.headers.get('access-control-allow-origin'), '*');
      assert.match(a.headers.get('etag') ?? '', /^W\/"[^"]+"$/);
      assert.equal(a.headers.get('etag'), b.headers.get('etag'));
      const date = a.headers.get('date');
      assert.ok(date && !Number.isNaN(Date.parse(date)), 'Date header');
      assert.ok(Math.abs(Date.parse(date) - Date.now()) < 60_000, 'Date is the delivery time, not the operation clock');
      assert.ok((a.headers.get('access-control-expose-headers') ?? '').includes('ETag'));
      const spoofed = await w.server.get('/v1/events?limit=2', { headers: { 'X-Request-ID': 'client-chosen-id' } });
      await spoofed.text();
      assert.notEqual(spoofed.headers.get('x-request-id'), 'client-chosen-id', 'the request id is server-generated');
      const c = await ok('limit=3');
      assert.notEqual(c.headers.get('etag'), a.headers.get('etag'), 'another body, another ETag');
    });

    test('414 when the request URL itself exceeds 4,096 bytes', async () => {
      const got = await call(w.server, `/v1/events?${qs({ nameContains: 'x'.repeat(4100) })}`);
      assert.equal(got.status, 414);
      assert.equal(got.headers.get('cache-control'), 'no-store');
      assert.equal(got.headers.get('access-control-allow-origin'), '*');
      assert.ok(got.headers.get('x-request-id'));
      assert.equal(got.headers.get('etag'), null);
    });

    test('other methods → 405 with Allow', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const got = await call(w.server, '/v1/events', { method });
        assert.equal(got.status, 405, method);
        assert.equal(got.body.error.type, 'method_not_allowed');
        assert.match(got.headers.get('allow') ?? '', /GET/);
      }
    });
  });
}
