/** Compile-time checks of the client types (compiled by test/client/client.test.ts with tsc). */
import { createClient } from '../../src/client/index.js';
const c = createClient({ baseUrl: 'http://x' });
async function f() {
  const r = await c.get('/v1/events', { query: { limit: 5, sort: 'updatedAt' } });
  const n: string = r.body.data[0]!.publicId;
  const u: string | undefined = r.body.data[0]!.updatedAt;
  const next: string | null = r.body.links.next;
  const v = await c.get('/v1/venues/{venueId}', { params: { venueId: 'abc' } });
  const cap: number | null | undefined = v.body.data.capacity;
  // @ts-expect-error missing params
  await c.get('/v1/venues/{venueId}');
  // @ts-expect-error bad sort
  await c.get('/v1/events', { query: { sort: 'bogus' } });
  for await (const e of c.items('/v1/events/{eventId}/artists', { params: { eventId: 'x' } })) { const s: string = e.publicId; }
  // @ts-expect-error not a collection
  c.items('/v1/health');
  // extension (decisions §8): near/radiusKm typed on the collections, distanceKm on Venues, the calendar feeds as text
  const near = await c.get('/v1/venues', { query: { near: '52.52,13.405', radiusKm: '10', sort: 'distance' } });
  const km: number | undefined = near.body.data[0]!.distanceKm;
  await c.get('/v1/events', { query: { near: '52.52,13.405', temporalPhaseCode: 'upcoming' } });
  // @ts-expect-error distance is a Venue sort only
  await c.get('/v1/events', { query: { sort: 'distance' } });
  const feed: string = (await c.calendar('/v1/artists/{artistId}/calendar.ics', { params: { artistId: 'abc' } })).body;
  // @ts-expect-error a JSON collection is not a feed
  await c.calendar('/v1/venues', { params: {} });
  // @ts-expect-error a feed needs its path parameter
  await c.calendar('/v1/series/{seriesId}/calendar.ics', { params: {} });
  return [n, u, next, cap, km, feed];
}
void f;
