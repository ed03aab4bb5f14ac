/**
 * Pages rendered once and kept while nothing they are computed from changes
 * (src/present/page-memo.ts: the Events pages and every other list): never a stale answer. Each test changes one input of a page that
 * was just served, by hand in the database or by moving the clock, and reads the page again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helper.js';
import { NOW } from '../fixtures/events-catalogue.js';
import { call, openEventsWorld, qs, type EventsWorld } from '../fixtures/events-setup.js';

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

for (const engine of engines()) {
  describe(`pages kept between reads are never stale [${engine.name}]`, () => {
    let w: EventsWorld;
    let now = NOW;
    before(async () => {
      w = await openEventsWorld(engine, () => now);
    });
    after(async () => {
      await w?.close();
    });

    /** The page of one day's Events with these fields, and the item of `publicId` on it. */
    async function itemOn(day: string, publicId: string, params: Record<string, string>) {
      const got = await call(w.server, `/v1/events?${qs({ startLocalDateGte: day, startLocalDateLt: nextDay(day), limit: '50', ...params })}`);
      assert.equal(got.status, 200);
      const item = (got.body.data as Array<Record<string, unknown>>).find((e) => e.publicId === publicId);
      assert.ok(item, `${publicId} on its day's page`);
      return { item, etag: got.headers.get('etag') };
    }

    test('the same page twice: the same bytes and ETag, then 304 for its ETag', async () => {
      const first = await w.server.get('/v1/events?limit=50');
      const second = await w.server.get('/v1/events?limit=50');
      assert.equal(second.status, 200);
      assert.equal(await second.text(), await first.text());
      const etag = first.headers.get('etag')!;
      assert.equal(second.headers.get('etag'), etag);
      const conditional = await w.server.get('/v1/events?limit=50', { headers: { 'If-None-Match': etag } });
      assert.equal(conditional.status, 304);
    });

    test('the clock moves: the phase shown follows (it is read with the rows)', async () => {
      const { rows } = await w.db.pool.query<{ public_id: string; day: string; start: string }>(
        `SELECT public_id, start_local_date::text AS day, start_at::text AS start FROM events
          WHERE active AND time_zone_known AND start_at IS NOT NULL AND end_precision IS NULL ORDER BY public_id LIMIT 1`,
      );
      const target = rows[0]!;
      const start = new Date(target.start);
      try {
        now = new Date(start.getTime() - 3_600_000);
        const before = await itemOn(target.day, target.public_id, { fields: 'publicId,schedule' });
        assert.equal((before.item.schedule as { temporalPhaseCode: string }).temporalPhaseCode, 'upcoming');
        now = new Date(start.getTime() + 3 * 86_400_000);
        const later = await itemOn(target.day, target.public_id, { fields: 'publicId,schedule' });
        assert.equal((later.item.schedule as { temporalPhaseCode: string }).temporalPhaseCode, 'historical');
        assert.notEqual(later.etag, before.etag);
      } finally {
        now = NOW;
      }
    });

    test('a Series renamed by hand: a page showing directEventSeries shows the new name', async () => {
      const { rows } = await w.db.pool.query<{ public_id: string; day: string; series_id: string; name: string }>(
        `SELECT e.public_id, e.start_local_date::text AS day, s.id::text AS series_id, s.name
           FROM event_series es JOIN events e ON e.id = es.event_id JOIN series s ON s.id = es.series_id
          WHERE e.active AND s.active ORDER BY e.public_id, s.public_id LIMIT 1`,
      );
      const target = rows[0]!;
      const names = async () =>
        ((await itemOn(target.day, target.public_id, { fields: 'publicId,directEventSeries' })).item.directEventSeries as { name: string }[]).map((s) => s.name);
      assert.ok((await names()).includes(target.name));
      try {
        await w.db.pool.query('UPDATE series SET name = $1 WHERE id = $2::bigint', [`${target.name} (renamed)`, target.series_id]);
        assert.ok((await names()).includes(`${target.name} (renamed)`));
      } finally {
        await w.db.pool.query('UPDATE series SET name = $1 WHERE id = $2::bigint', [target.name, target.series_id]);
      }
    });

    /** An active Event with an active Artist, and that Artist. */
    async function eventWithArtist() {
      const { rows } = await w.db.pool.query<{ event_id: string; public_id: string; day: string; artist_id: string; name: string }>(
        `SELECT e.id::text AS event_id, e.public_id, e.start_local_date::text AS day, a.id::text AS artist_id, a.name
           FROM event_artists ea JOIN events e ON e.id = ea.event_id JOIN artists a ON a.id = ea.artist_id
          WHERE e.active AND a.active ORDER BY e.public_id, a.public_id LIMIT 1`,
      );
      return rows[0]!;
    }
    const renameArtist = (id: string, name: string) => w.db.pool.query('UPDATE artists SET name = $1 WHERE id = $2::bigint', [name, id]);
    const artistNames = (item: Record<string, unknown>) => (item.artists as { items: { name: string }[] }).items.map((a) => a.name);

    // (its stored rich preview is the importer's: cleared by hand, the statement renders it from the row)
    test('an Artist renamed by hand, its stored rich preview cleared: a page with include=artists shows the new name', async () => {
      const target = await eventWithArtist();
      const params = { fields: 'publicId,artists', include: 'artists' };
      assert.ok(artistNames((await itemOn(target.day, target.public_id, params)).item).includes(target.name));
      const { rows } = await w.db.pool.query<{ rich_preview: string }>('SELECT rich_preview FROM artists WHERE id = $1::bigint', [target.artist_id]);
      assert.ok(rows[0]!.rich_preview.includes(JSON.stringify(target.name)), 'the importer stored its rich preview');
      try {
        await renameArtist(target.artist_id, `${target.name} (renamed)`);
        await w.db.pool.query('UPDATE artists SET rich_preview = NULL WHERE id = $1::bigint', [target.artist_id]);
        assert.ok(artistNames((await itemOn(target.day, target.public_id, params)).item).includes(`${target.name} (renamed)`));
      } finally {
        await renameArtist(target.artist_id, target.name);
        await w.db.pool.query('UPDATE artists SET rich_preview = $1 WHERE id = $2::bigint', [rows[0]!.rich_preview, target.artist_id]);
      }
    });

    test("lists: a Venue renamed by hand shows in the Venues list, an Artist in an Event's Artists", async () => {
      const venue = (await w.db.pool.query<{ id: string; public_id: string; name: string }>('SELECT id::text, public_id, name FROM venues WHERE active ORDER BY public_id LIMIT 1')).rows[0]!;
      const venueName = async () => {
        const got = await call(w.server, '/v1/venues?limit=50&fields=publicId,name');
        assert.equal(got.status, 200);
        return (got.body.data as { publicId: string; name: string }[]).find((v) => v.publicId === venue.public_id)?.name;
      };
      const target = await eventWithArtist();
      const artistName = async () => {
        const got = await call(w.server, `/v1/events/${target.public_id}/artists?limit=50`);
        assert.equal(got.status, 200);
        return (got.body.data as { name: string }[]).map((a) => a.name);
      };
      assert.equal(await venueName(), venue.name);
      assert.ok((await artistName()).includes(target.name));
      try {
        await w.db.pool.query('UPDATE venues SET name = $1 WHERE id = $2::bigint', [`${venue.name} (renamed)`, venue.id]);
        await renameArtist(target.artist_id, `${target.name} (renamed)`);
        assert.equal(await venueName(), `${venue.name} (renamed)`);
        assert.ok((await artistName()).includes(`${target.name} (renamed)`));
      } finally {
        await w.db.pool.query('UPDATE venues SET name = $1 WHERE id = $2::bigint', [venue.name, venue.id]);
        await renameArtist(target.artist_id, target.name);
      }
    });

    test("an Event without its stored previews row: its previews are read live, and a renamed Artist shows", async () => {
      const target = await eventWithArtist();
      const params = { fields: 'publicId,artists' };
      const stored = (await w.db.pool.query<{ artists: string; venues: string }>('SELECT artists::text, venues::text FROM event_previews WHERE event_id = $1::bigint', [target.event_id])).rows[0]!;
      assert.ok(artistNames((await itemOn(target.day, target.public_id, params)).item).includes(target.name));
      try {
        await w.db.pool.query('DELETE FROM event_previews WHERE event_id = $1::bigint', [target.event_id]);
        assert.ok(artistNames((await itemOn(target.day, target.public_id, params)).item).includes(target.name));
        await renameArtist(target.artist_id, `${target.name} (renamed)`);
        assert.ok(artistNames((await itemOn(target.day, target.public_id, params)).item).includes(`${target.name} (renamed)`));
      } finally {
        await renameArtist(target.artist_id, target.name);
        await w.db.pool.query('INSERT INTO event_previews (event_id, artists, venues) VALUES ($1::bigint, $2::json, $3::json) ON CONFLICT (event_id) DO NOTHING', [
          target.event_id,
          stored.artists,
          stored.venues,
        ]);
      }
    });

    test('details: a Venue renamed and its links changed by hand show in its detail (JSON read anew is compared by its text), an Artist renamed in its own', async () => {
      const venue = (await w.db.pool.query<{ id: string; public_id: string; name: string; links: string }>(
        'SELECT id::text, public_id, name, links::text FROM venues WHERE active ORDER BY public_id LIMIT 1',
      )).rows[0]!;
      const artist = (await w.db.pool.query<{ id: string; public_id: string; name: string }>('SELECT id::text, public_id, name FROM artists WHERE active ORDER BY public_id LIMIT 1')).rows[0]!;
      const detail = async (path: string) => {
        const got = await w.server.get(path);
        assert.equal(got.status, 200);
        return { text: await got.text(), etag: got.headers.get('etag') };
      };
      const venuePath = `/v1/venues/${venue.public_id}?fields=name,links`;
      const artistPath = `/v1/artists/${artist.public_id}`;
      const first = await detail(venuePath);
      assert.deepEqual(await detail(venuePath), first, 'the same row twice: the same bytes and ETag');
      const firstArtist = await detail(artistPath);
      const links = [{ url: 'https://changed.example/', label: 'Changed by hand' }];
      try {
        await w.db.pool.query('UPDATE venues SET links = $1::jsonb WHERE id = $2::bigint', [JSON.stringify(links), venue.id]);
        const relinked = await detail(venuePath);
        assert.deepEqual((JSON.parse(relinked.text) as { data: { links: unknown } }).data.links, links);
        assert.notEqual(relinked.etag, first.etag);
        await w.db.pool.query('UPDATE venues SET name = $1 WHERE id = $2::bigint', [`${venue.name} (renamed)`, venue.id]);
        assert.equal((JSON.parse((await detail(venuePath)).text) as { data: { name: string } }).data.name, `${venue.name} (renamed)`);
        await renameArtist(artist.id, `${artist.name} (renamed)`);
        const renamed = await detail(artistPath);
        assert.equal((JSON.parse(renamed.text) as { data: { name: string } }).data.name, `${artist.name} (renamed)`);
        assert.notEqual(renamed.etag, firstArtist.etag);
      } finally {
        await w.db.pool.query('UPDATE venues SET name = $1, links = $2::jsonb WHERE id = $3::bigint', [venue.name, venue.links, venue.id]);
        await renameArtist(artist.id, artist.name);
      }
      assert.deepEqual(await detail(venuePath), first, 'restored: the first bytes again');
    });
  });
}
