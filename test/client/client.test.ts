/**
 * lineup/client against the real server: typed reads, the async iterator that follows
 * links.next to the end, conditional requests through the per-URL ETag cache, retries that
 * honour Retry-After on 429/503, errors, and the compile-time types (tsc on types-check.ts).
 * Every response the client receives is checked against openapi.json (contractFetch).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createClient, buildUrl, LineupApiError } from '../../src/client/index.js';
import { engines, startServer } from '../helper.js';
import { EV, VE, contractFetch, openClientWorld, type ClientWorld } from './world.js';

describe('lineup/client types', () => {
  it('the types derived from the contract compile, and misuse does not', () => {
    const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'test/client/tsconfig.json'], { encoding: 'utf8' });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  });

  it('buildUrl fills path templates (encoded) and omits undefined query values', () => {
    assert.equal(buildUrl('/v1/venues/{venueId}', { venueId: 'a/b' }), '/v1/venues/a%2Fb');
    assert.equal(buildUrl('/v1/events', undefined, { limit: 5, sort: undefined, fields: 'name,updatedAt' }), '/v1/events?limit=5&fields=name%2CupdatedAt');
    assert.throws(() => buildUrl('/v1/venues/{venueId}', {}), /missing path parameter venueId/);
  });
});

for (const engine of engines()) {
  describe(`lineup/client against the server on ${engine.name}`, () => {
    let w: ClientWorld;
    before(async () => {
      w = await openClientWorld(engine, 40, 12);
    });
    after(async () => w.close());

    it('items() follows links.next to the end: every Event once, in the requested order', async () => {
      const requested: string[] = [];
      const client = createClient({
        baseUrl: w.server.base,
        fetch: contractFetch(async (input, init) => {
          requested.push(String(input));
          return fetch(input, init);
        }),
      });
      const ids: string[] = [];
      for await (const e of client.items('/v1/events', { query: { limit: 7, sort: 'updatedAt', fields: 'name,updatedAt' } })) ids.push(e.publicId);
      assert.equal(ids.length, 40);
      assert.equal(new Set(ids).size, 40);
      assert.equal(requested.length, Math.ceil(40 / 7));
      assert.ok(requested.slice(1).every((u) => u.includes('cursor=')));
      let pages = 0;
      for await (const page of client.pages('/v1/venues', { query: { limit: 5 } })) {
        pages++;
        assert.equal(page.body.meta.pagination.limit, 5);
      }
      assert.equal(pages, 3);
    });

    it('calendar() returns a feed as text, conditionally the second time (extension)', async () => {
      const sent: (string | null)[] = [];
      const client = createClient({
        baseUrl: w.server.base,
        fetch: contractFetch(async (input, init) => {
          sent.push(new Headers(init?.headers).get('accept'));
          return fetch(input, init);
        }),
      });
      const first = await client.calendar('/v1/venues/{venueId}/calendar.ics', { params: { venueId: VE(3) } });
      assert.equal(typeof first.body, 'string');
      assert.match(first.body, /^BEGIN:VCALENDAR\r\n/);
      assert.equal(first.notModified, false);
      const second = await client.calendar('/v1/venues/{venueId}/calendar.ics', { params: { venueId: VE(3) } });
      assert.equal(second.notModified, true);
      assert.equal(second.body, first.body);
      assert.deepEqual(sent, ['text/calendar', 'text/calendar']);
      await assert.rejects(client.calendar('/v1/artists/{artistId}/calendar.ics', { params: { artistId: 'zzzzzzzzzzzz' } }), (e: unknown) => e instanceof LineupApiError && e.status === 404);
    });

    it('get() reads a detail with path parameters; a relationship route pages too', async () => {
      const client = createClient({ baseUrl: `${w.server.base}/`, fetch: contractFetch() });
      const venue = await client.get('/v1/venues/{venueId}', { params: { venueId: VE(3) } });
      assert.equal(venue.body.data.publicId, VE(3));
      assert.equal(venue.body.data.capacity, 103);
      assert.match(venue.requestId ?? '', /.+/);
      const artists = [];
      for await (const a of client.items('/v1/events/{eventId}/artists', { params: { eventId: EV(1) } })) artists.push(a);
      assert.equal(artists.length, 1);
    });

    it('conditional requests: the second read of a URL sends its ETag, gets 304 and returns the cached body; a change gives 200', async () => {
      const sent: (string | null)[] = [];
      const statuses: number[] = [];
      const client = createClient({
        baseUrl: w.server.base,
        fetch: contractFetch(async (input, init) => {
          sent.push(new Headers(init?.headers).get('if-none-match'));
          const res = await fetch(input, init);
          statuses.push(res.status);
          return res;
        }),
      });
      const query = { limit: 3, fields: 'name,updatedAt', sort: 'updatedAt' } as const;
      const first = await client.get('/v1/events', { query });
      assert.equal(first.notModified, false);
      assert.match(first.etag ?? '', /^W\//);
      const second = await client.get('/v1/events', { query });
      assert.equal(second.notModified, true);
      assert.deepEqual(second.body, first.body);
      assert.deepEqual(statuses, [200, 304]);
      assert.deepEqual(sent, [null, first.etag]);

      const firstId = first.body.data[0]!.publicId;
      w.catalogue.events.get(firstId)!.name = 'Renamed for the ETag test';
      await w.reimport();
      const third = await client.get('/v1/events', { query });
      assert.equal(third.notModified, false);
      assert.notEqual(third.etag, first.etag);
      assert.ok(!third.body.data.some((e) => e.publicId === firstId), 'the renamed Event moved to the end of the updatedAt order');
    });

    it('400 is an error with the contract envelope (type, details, request id), never retried', async () => {
      let calls = 0;
      const client = createClient({ baseUrl: w.server.base, fetch: contractFetch(async (i, init) => (calls++, fetch(i, init))) });
      await assert.rejects(
        client.get('/v1/events', { query: { limit: 51 } }),
        (err: unknown) => err instanceof LineupApiError && err.status === 400 && err.type === 'invalid_query' && err.details.some((d) => d.parameter === 'limit') && err.requestId !== null,
      );
      await assert.rejects(client.get('/v1/venues/{venueId}', { params: { venueId: 'nope' } }), (err: unknown) => err instanceof LineupApiError && err.status === 404 && err.type === 'not_found');
      assert.equal(calls, 2);
    });

    it('429 from the real limiter: waits the Retry-After seconds, then succeeds', async () => {
      // the limiter's clock moves only when the client sleeps: the third request is limited however
      // slow the first two were, and the wait it is told refills the bucket exactly
      let now = 0;
      const limited = await startServer(w.t.db, { rateBurst: 2, rateRefillPerSec: 1 }, undefined, { limiterNow: () => now });
      try {
        const waits: number[] = [];
        const statuses: number[] = [];
        const client = createClient({
          baseUrl: limited.base,
          fetch: contractFetch(async (i, init) => {
            const res = await fetch(i, init);
            statuses.push(res.status);
            return res;
          }),
          sleep: async (ms) => {
            waits.push(ms);
            now += ms;
          },
        });
        for (let n = 0; n < 3; n++) await client.get('/v1/health');
        assert.deepEqual(statuses.slice(0, 3), [200, 200, 429]);
        assert.equal(statuses.at(-1), 200);
        assert.ok(waits.length >= 1 && waits.every((ms) => ms >= 1000 && ms % 1000 === 0), `waits ${waits}`);
      } finally {
        await limited.close();
      }
    });

    it('503 with Retry-After: waits exactly that long; gives up after `retries`; a too-long Retry-After fails at once', async () => {
      const unavailable = (retryAfter: string) =>
        new Response(JSON.stringify({ ok: false, error: { type: 'unavailable', message: 'busy' } }), {
          status: 503,
          headers: { 'Retry-After': retryAfter, 'Content-Type': 'application/json' },
        });
      let failures = 2;
      const waits: number[] = [];
      const client = createClient({
        baseUrl: w.server.base,
        fetch: async (i, init) => (failures-- > 0 ? unavailable('7') : fetch(i, init)),
        sleep: async (ms) => void waits.push(ms),
      });
      const ok = await client.get('/v1/health');
      assert.equal(ok.body.data.status, 'ok');
      assert.deepEqual(waits, [7000, 7000]);

      const stubborn = createClient({ baseUrl: w.server.base, retries: 2, fetch: async () => unavailable('1'), sleep: async () => {} });
      await assert.rejects(stubborn.get('/v1/health'), (err: unknown) => err instanceof LineupApiError && err.status === 503 && err.retryAfterSeconds === 1);

      const patient = createClient({ baseUrl: w.server.base, maxRetryAfterSeconds: 60, fetch: async () => unavailable('3600'), sleep: async () => assert.fail('must not wait') });
      await assert.rejects(patient.get('/v1/health'), (err: unknown) => err instanceof LineupApiError && err.retryAfterSeconds === 3600);
    });
  });
}
