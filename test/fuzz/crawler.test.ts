/**
 * Crawler: from the four collections (every selectable field, both includes, small
 * pages), follow every `href` and every `links.next`, and every detail, relationship, reverse
 * and lineup route of every publicId seen, until nothing new is reachable. Over the fixture
 * catalogue with a canary in every never-public field (authoring data, original filenames,
 * upload names, storage locators, blur data, address provenance, time-zone suggestions, gallery
 * media) and in the names of inactive entities, no response may contain a canary; every
 * response is a 200 that validates against its operation's schema.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATIONS } from '../../src/http/openapi.js';
import { EVENT_FIELDS } from '../../src/plan/event-fields.js';
import { ARTIST_FIELDS, SERIES_FIELDS, VENUE_FIELDS } from '../../src/plan/resource-fields.js';
import { engines, openTestDatabase, startServer, type TestDatabase, type TestServer } from '../helper.js';
import { ALL_CANARIES, assertContractResponse, importCanaryCatalogue, rawRequest } from './support.js';

const engine = engines()[0]!;

/** The operation serving a path (patterns from the contract's 19 paths). */
const ROUTES = OPERATIONS.map((op) => ({ op, pattern: new RegExp(`^${op.path.replace(/:\w+/g, '[^/?]+')}(\\?|$)`) }));
const operationOf = (url: string) => ROUTES.find((r) => r.pattern.test(url))?.op;

/** Every string value in a body, with its key, so hrefs and ids can be harvested. */
function* walk(value: unknown, key = ''): Generator<[string, unknown]> {
  if (Array.isArray(value)) for (const v of value) yield* walk(v, key);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* walk(v, k);
  else yield [key, value];
}

describe(`crawler over the canary catalogue on ${engine.name}`, { timeout: 600_000 /* stops a hung run only */ }, () => {
  let t: TestDatabase;
  let server: TestServer;
  before(async () => {
    t = await openTestDatabase(engine);
    await importCanaryCatalogue(t.db);
    server = await startServer(t.db);
  });
  after(async () => {
    await server.close();
    await t.drop();
  });

  it('reaches every route through href, links.next and ids, and no response leaks a canary', async () => {
    const start = [
      `/v1/events?limit=7&fields=${EVENT_FIELDS.join(',')}&include=artists,venues`,
      `/v1/events?limit=50&fields=${EVENT_FIELDS.join(',')}&include=artists,venues&sort=updatedAt`,
      `/v1/artists?limit=3&fields=${ARTIST_FIELDS.join(',')}`,
      `/v1/venues?limit=3&fields=${VENUE_FIELDS.join(',')}`,
      `/v1/series?limit=2&fields=${SERIES_FIELDS.join(',')}`,
    ];
    const queue = [...start];
    const seen = new Set<string>(queue);
    const operationsReached = new Set<string>();
    const ids = { events: new Set<string>(), artists: new Set<string>(), venues: new Set<string>(), series: new Set<string>() };
    const enqueue = (url: string) => {
      if (!seen.has(url)) {
        seen.add(url);
        queue.push(url);
      }
    };
    let requests = 0;
    while (queue.length > 0) {
      const url = queue.shift()!;
      const op = operationOf(url);
      assert.ok(op, `no operation serves ${url}`);
      const res = await rawRequest(server.base, 'GET', url);
      requests++;
      assert.equal(res.status, 200, `${url} → ${res.status} ${res.text.slice(0, 300)}`);
      assertContractResponse(res, 'GET', url, op.response);
      for (const canary of ALL_CANARIES) assert.ok(!res.text.includes(canary), `${url} leaks ${canary}`);
      operationsReached.add(op.path);
      if (op.path.endsWith('/calendar.ics')) continue; // an iCalendar feed: no links to follow
      const body = JSON.parse(res.text) as { data: unknown; links?: { next: string | null } };
      if (body.links?.next) enqueue(body.links.next);
      for (const [key, value] of walk(body.data)) {
        if (key === 'href' && typeof value === 'string') enqueue(value);
      }
      // ids of what this route lists: their detail and member routes are reachable addresses
      const items = Array.isArray(body.data) ? body.data : [body.data];
      for (const item of items as Record<string, any>[]) {
        if (op.path.startsWith('/v1/events/:eventId/editions')) {
          if (item.series && item.edition) enqueue(`/v1/series/${item.series.publicId}/editions/${item.edition.publicId}`);
          continue;
        }
        if (op.path.startsWith('/v1/series/:seriesId/editions')) {
          const series = item.series?.publicId ?? url.split('/')[3];
          if (typeof item.publicId === 'string' && !op.path.endsWith('/venues') && !op.path.endsWith('/artists')) {
            for (const suffix of ['', '/venues?limit=2', '/artists?limit=2']) enqueue(`/v1/series/${series}/editions/${item.publicId}${suffix}`);
            continue;
          }
        }
        const kind = op.path.endsWith('/artists') || op.path.startsWith('/v1/artists')
          ? 'artists'
          : op.path.endsWith('/venues') || op.path.startsWith('/v1/venues')
            ? 'venues'
            : op.path.endsWith('/series') || op.path === '/v1/series' || op.path === '/v1/series/:seriesId'
              ? 'series'
              : op.path.startsWith('/v1/events')
                ? 'events'
                : null;
        if (kind === null || typeof item.publicId !== 'string') continue;
        ids[kind].add(item.publicId);
        if (kind === 'events') {
          enqueue(`/v1/events/${item.publicId}`);
          for (const rel of ['artists', 'venues', 'series', 'editions']) enqueue(`/v1/events/${item.publicId}/${rel}?limit=2`);
        } else if (kind === 'series') {
          enqueue(`/v1/series/${item.publicId}`);
          enqueue(`/v1/series/${item.publicId}/artists?limit=2`);
          enqueue(`/v1/series/${item.publicId}/editions?limit=1`);
          enqueue(`/v1/events?seriesId=${item.publicId}&limit=5`);
          enqueue(`/v1/series/${item.publicId}/calendar.ics`);
        } else {
          enqueue(`/v1/${kind}/${item.publicId}`);
          enqueue(`/v1/${kind}/${item.publicId}/calendar.ics`);
          enqueue(`/v1/events?${kind === 'artists' ? 'artistId' : 'venueId'}=${item.publicId}&limit=5&include=${kind}`);
        }
      }
      assert.ok(requests < 3000, 'the crawl does not end');
    }
    const missing = OPERATIONS.filter((op) => op.kind !== 'operational' && !operationsReached.has(op.path)).map((op) => op.path);
    assert.deepEqual(missing, [], `routes never reached: ${missing.join(', ')}`);
    assert.ok(ids.events.size >= 80, `saw ${ids.events.size} Events`);
    assert.ok(ids.artists.size >= 10 && ids.venues.size >= 12 && ids.series.size >= 3, JSON.stringify({ a: ids.artists.size, v: ids.venues.size, s: ids.series.size }));
    console.log(`crawler: ${requests} responses, ${ids.events.size} Events, ${ids.artists.size} Artists, ${ids.venues.size} Venues, ${ids.series.size} Series`);
  });
});
