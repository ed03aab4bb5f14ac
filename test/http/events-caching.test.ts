/**
 * GET /v1/events conditional reads and HEAD (spec: GET /v1/events, "Conditional reads"):
 * If-None-Match in weak, strong, list and `*` forms → 304 with ETag, Date, cache policy and
 * CORS, no body; malformed headers ignored entirely; empty collections validate; the ETag
 * covers the whole body; HEAD and conditional requests do the same database work as GET.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines, startServer } from '../helper.js';
import { ARTISTS, IDS, eventsCatalogue } from '../fixtures/events-catalogue.js';
import { call, importDoc, openEventsWorld, qs, type EventsWorld } from '../fixtures/events-setup.js';

for (const engine of engines()) {
  describe(`GET /v1/events caching [${engine.name}]`, () => {
    let w: EventsWorld;
    before(async () => {
      w = await openEventsWorld(engine);
    });
    after(async () => {
      await w?.close();
    });

    const PATH = `/v1/events?${qs({ limit: '3', include: 'artists,venues' })}`;

    async function etagOf(path: string): Promise<string> {
      const got = await call(w.server, path);
      assert.equal(got.status, 200);
      const etag = got.headers.get('etag');
      assert.ok(etag && /^W\/"[^"]+"$/.test(etag), `weak ETag: ${etag}`);
      return etag;
    }

    async function conditional(path: string, ifNoneMatch: string, method = 'GET') {
      const res = await w.server.get(path, { method, headers: { 'If-None-Match': ifNoneMatch } });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text };
    }

    function assert304(r: { status: number; headers: Headers; text: string }, etag: string) {
      assert.equal(r.status, 304);
      assert.equal(r.text, '', 'no body');
      assert.equal(r.headers.get('etag'), etag);
      assert.ok(r.headers.get('date'));
      assert.equal(r.headers.get('cache-control'), 'public, max-age=60');
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
      assert.ok(r.headers.get('x-request-id'));
      assert.equal(r.headers.get('last-modified'), null, 'a 304 never reports a change checkpoint');
    }

    test('weak, strong, list and * forms match → 304 with validators, cache policy and CORS, no body', async () => {
      const etag = await etagOf(PATH);
      const strong = etag.slice(2);
      assert304(await conditional(PATH, etag), etag);
      assert304(await conditional(PATH, strong), etag);
      assert304(await conditional(PATH, `"nope", ${etag}`), etag);
      assert304(await conditional(PATH, `W/"a",W/"b",${strong}`), etag);
      assert304(await conditional(PATH, `  ${etag}  `), etag);
      assert304(await conditional(PATH, '*'), etag);
      assert304(await conditional(PATH, etag, 'HEAD'), etag);
      assert304(await conditional(PATH, '*', 'HEAD'), etag);
    });

    test('non-matching and malformed If-None-Match → 200 with the body (malformed content ignored entirely)', async () => {
      const etag = await etagOf(PATH);
      const strong = etag.slice(2);
      for (const header of [
        '"other"',
        'W/"other", "again"',
        `W/"abc", garbage`,
        `garbage, ${etag}`,
        `${etag}, garbage`,
        `${etag} garbage`,
        `${strong.slice(1, -1)}`,
        `W/${strong.slice(1, -1)}`,
        `${etag},`,
        `*, ${etag}`,
        `w/${strong}`,
        `"${strong}"`,
      ]) {
        const r = await conditional(PATH, header);
        assert.equal(r.status, 200, `If-None-Match: ${header}`);
        assert.ok(r.text.length > 0);
        assert.equal(r.headers.get('etag'), etag);
      }
    });

    test('the ETag is for that exact URL: another page, another tag; ETag covers the next link and relationships', async () => {
      const a = await etagOf(`/v1/events?${qs({ limit: '3' })}`);
      const b = await etagOf(`/v1/events?${qs({ limit: '3', include: 'artists' })}`);
      assert.notEqual(a, b, 'include changes the body and the tag');
      const r = await conditional(`/v1/events?${qs({ limit: '4' })}`, a);
      assert.equal(r.status, 200);
      // same data, different next link (limit) → different ETag
      const c = await etagOf(`/v1/events?${qs({ limit: '1', startLocalDateGte: '2025-08-15', startLocalDateLt: '2025-08-16' })}`);
      const d = await etagOf(`/v1/events?${qs({ limit: '1', startLocalDateGte: '2025-08-15', startLocalDateLt: '2025-08-17' })}`);
      assert.notEqual(c, d);
    });

    test('an unchanged empty collection also validates (304)', async () => {
      const path = `/v1/events?${qs({ artistId: ARTISTS.inactive })}`;
      const got = await call(w.server, path);
      assert.deepEqual(got.body.data, []);
      const etag = got.headers.get('etag')!;
      assert.match(etag, /^W\//);
      assert304(await conditional(path, etag), etag);
      assert304(await conditional(path, etag, 'HEAD'), etag);
    });

    test('HEAD: same status and headers as GET, no body', async () => {
      const get = await w.server.get(PATH);
      const getBody = await get.text();
      const head = await w.server.get(PATH, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(await head.text(), '');
      assert.ok(getBody.length > 0);
      for (const h of ['etag', 'cache-control', 'access-control-allow-origin', 'content-type', 'access-control-expose-headers']) {
        assert.equal(head.headers.get(h), get.headers.get(h), h);
      }
      assert.ok(head.headers.get('x-request-id') && head.headers.get('x-request-id') !== get.headers.get('x-request-id'));
      assert.ok(head.headers.get('date'));
      // HEAD of an invalid query is the same 400 status, without a body
      const bad = await w.server.get('/v1/events?limit=0', { method: 'HEAD' });
      assert.equal(bad.status, 400);
      assert.equal(bad.headers.get('cache-control'), 'no-store');
    });

    test('HEAD and conditional requests perform the same database work as GET', async () => {
      const etag = await etagOf(PATH);
      const work = async (init?: RequestInit) => {
        w.server.statements.length = 0;
        const res = await w.server.get(PATH, init);
        await res.text();
        return { status: res.status, statements: w.server.statements.map((s) => `${s.name}:${s.text}:${JSON.stringify(s.values)}`) };
      };
      const get = await work();
      assert.equal(get.status, 200);
      // one statement (queries/event-carried.ts), reading the rows and their rich previews
      assert.equal(get.statements.length, 1);
      assert.match(get.statements[0]!, /rich_artists[\s\S]*rich_venues/);
      const cases: [RequestInit, number][] = [
        [{ method: 'HEAD' }, 200],
        [{ headers: { 'If-None-Match': etag } }, 304],
        [{ method: 'HEAD', headers: { 'If-None-Match': etag } }, 304],
        [{ headers: { 'If-None-Match': '*' } }, 304],
        [{ headers: { 'If-None-Match': '"other"' } }, 200],
      ];
      for (const [init, status] of cases) {
        const r = await work(init);
        assert.equal(r.status, status, JSON.stringify(init));
        assert.deepEqual(r.statements, get.statements, `same statements for ${JSON.stringify(init)}`);
      }
    });

    test('errors are never 304 and carry no validators', async () => {
      const r = await conditional('/v1/events?limit=0', '*');
      assert.equal(r.status, 400);
      assert.equal(r.headers.get('etag'), null);
      assert.equal(r.headers.get('cache-control'), 'no-store');
    });

    test('a change of the data changes the tag; request id and delivery time do not', async () => {
      const path = `/v1/events?${qs({ nameContains: 'exact historical', fields: 'name,updatedAt' })}`;
      const before = await etagOf(path);
      assert.equal(await etagOf(path), before);
      const original = eventsCatalogue.events!.find((e) => e.publicId === IDS.exactHistorical)!;
      try {
        await importDoc(w.db, { events: [{ ...original, name: 'Exact Historical (renamed)' }] });
        const changed = await etagOf(path);
        assert.notEqual(changed, before);
        const r = await conditional(path, before);
        assert.equal(r.status, 200);
      } finally {
        await importDoc(w.db, { events: [original] });
      }
      assert.equal(await etagOf(path), before, 'restored data, restored tag');
    });

    test('the phase is part of the body: another operation time may change the tag', async () => {
      const path = `/v1/events?${qs({ nameContains: 'exact current', fields: 'schedule' })}`;
      const now = await etagOf(path);
      const later = await startServer(w.db, {}, () => new Date('2025-07-01T11:00:00Z'));
      try {
        const res = await later.get(path, { headers: { 'If-None-Match': now } });
        const body = JSON.parse(await res.text());
        assert.equal(res.status, 200);
        assert.equal(body.data[0].schedule.temporalPhaseCode, 'historical');
      } finally {
        await later.close();
      }
    });
  });
}
