/**
 * GET /v1/events/{eventId} and its member routes (decisions §2, routes 2-6): detail with every
 * field, the preview relationship routes (previews = their first five items), the reverse Series
 * and Edition-program routes with their four-key order and compact boundary, 404/empty rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EVENT_FIELDS } from '../../src/plan/event-fields.js';
import { objectOf, pageOf } from '../../src/contract/common.js';
import { Event } from '../../src/contract/event.js';
import { Artist, EditionProgram, SeriesMembership, Venue } from '../../src/contract/resources.js';
import { E, EV, S, resourcesCatalogue } from '../fixtures/resources.js';
import { engines } from '../helper.js';
import { assertConditional, assertInvalid, assertNotFound, assertRestart, assertSchema, byKeys, traverse, resourceServer } from './resource-support.js';

const doc = resourcesCatalogue;
const event = (n: number) => (doc.events ?? []).find((e) => e.publicId === EV(n))!;
const find = <T extends { publicId: string }>(list: T[] | undefined, id: string) => (list ?? []).find((x) => x.publicId === id);
const isActive = (x: { active?: boolean } | undefined) => x !== undefined && x.active !== false;
type Named = { publicId: string; name: string };
const byName = byKeys<Named>((x) => x.name, (x) => x.publicId);

function artistsOf(n: number): string[] {
  return (event(n).artistIds ?? []).map((id) => find(doc.artists, id)!).filter(isActive).sort(byName).map((a) => a.publicId);
}
function venuesOf(n: number): string[] {
  return (event(n).venueIds ?? []).map((id) => find(doc.venues, id)!).filter(isActive).sort(byName).map((v) => v.publicId);
}
function seriesOf(n: number): string[] {
  return (event(n).seriesIds ?? [])
    .map((id) => find(doc.series, id)!)
    .filter((s) => isActive(s) && s.structureCode === 'direct')
    .sort(byName)
    .map((s) => s.publicId);
}
function programsOf(n: number): string[] {
  return (event(n).editionIds ?? [])
    .map((id) => {
      const ed = find(doc.editions, id)!;
      return { ed, s: find(doc.series, ed.seriesId)! };
    })
    .filter(({ ed, s }) => isActive(ed) && isActive(s) && s.structureCode === 'editioned')
    .sort(byKeys((x) => x.s.name, (x) => x.s.publicId, (x) => x.ed.name, (x) => x.ed.publicId))
    .map(({ ed, s }) => `${s.publicId}/${ed.publicId}`);
}
const pairs = (items: any[]) => items.map((i) => `${i.series.publicId}/${i.edition.publicId}`);
const ids = (items: any[]) => items.map((i) => i.publicId);

for (const engine of engines()) {
  describe(`event detail and member routes (${engine.name})`, () => {
    const t = resourceServer(engine);

    it('reads the Event detail with every field; previews are the first five of routes 3 and 4', async () => {
      t.srv.statements.length = 0;
      const res = await t.srv.json(`/v1/events/${EV(1)}`);
      assert.equal(res.status, 200);
      assert.ok(t.srv.statements.length <= 8);
      assertSchema(objectOf(Event), res.body, 'event');
      assert.deepEqual(Object.keys(res.body.data), [...EVENT_FIELDS]);
      const rich = await t.srv.json(`/v1/events/${EV(1)}?include=artists,venues`);
      const artists = await t.srv.json(`/v1/events/${EV(1)}/artists`);
      const venues = await t.srv.json(`/v1/events/${EV(1)}/venues`);
      assert.deepEqual(rich.body.data.artists.items, artists.body.data.slice(0, 5));
      assert.deepEqual(rich.body.data.venues.items, venues.body.data.slice(0, 5));
      assert.equal(rich.body.data.artists.isComplete, false);
      assert.equal(rich.body.data.artists.href, `/v1/events/${EV(1)}/artists`);
      assert.equal(rich.body.data.venues.href, `/v1/events/${EV(1)}/venues`);
      assert.deepEqual(ids(res.body.data.artists.items), artistsOf(1).slice(0, 5));
      assert.deepEqual(ids(res.body.data.directEventSeries), seriesOf(1));
      assert.deepEqual(pairs(res.body.data.editionPrograms), programsOf(1));
      const series = await t.srv.json(`/v1/events/${EV(1)}/series`);
      const editions = await t.srv.json(`/v1/events/${EV(1)}/editions`);
      assert.deepEqual(res.body.data.directEventSeries, series.body.data);
      assert.deepEqual(res.body.data.editionPrograms, editions.body.data);
      // an Events page carries the same (queries/event-carried.ts)
      const page = await t.srv.json('/v1/events?fields=name,directEventSeries,editionPrograms&limit=50');
      assert.equal(page.status, 200);
      const listed = page.body.data.find((e: { publicId: string }) => e.publicId === EV(1));
      assert.deepEqual(listed.directEventSeries, series.body.data);
      assert.deepEqual(listed.editionPrograms, editions.body.data);
    });

    it('selects fields and include on the detail', async () => {
      const res = await t.srv.json(`/v1/events/${EV(2)}?fields=name,artists&include=artists`);
      assert.deepEqual(Object.keys(res.body.data), ['publicId', 'name', 'artists']);
      assert.deepEqual(Object.keys(res.body.data.artists.items[0]), ['publicId', 'slug', 'name', 'profileMedia', 'description']);
      await assertInvalid(t.srv, `/v1/events/${EV(2)}?fields=name&include=artists`, 'include');
      await assertInvalid(t.srv, `/v1/events/${EV(2)}?limit=1`, 'limit');
      await assertConditional(t.srv, `/v1/events/${EV(1)}`);
    });

    it('lists the Artists and Venues of an Event: rich items by name, traversed once each', async () => {
      const artists = await traverse(t.srv, `/v1/events/${EV(1)}/artists?limit=2`, pageOf(Artist));
      assert.deepEqual(ids(artists.items), artistsOf(1));
      for (const a of artists.items) assert.deepEqual(Object.keys(a), ['publicId', 'slug', 'name', 'profileMedia', 'description']);
      const venues = await traverse(t.srv, `/v1/events/${EV(1)}/venues?limit=3`, pageOf(Venue));
      assert.deepEqual(ids(venues.items), venuesOf(1));
      const venueKeys = ['publicId', 'slug', 'name', 'statusCode', 'location', 'profileMedia', 'description', 'capacity', 'contact', 'publishedCoordinates', 'links'];
      for (const v of venues.items) assert.deepEqual(Object.keys(v), venueKeys);
      const selected = await t.srv.json(`/v1/events/${EV(1)}/artists?fields=updatedAt,name&sort=name`);
      assert.deepEqual(Object.keys(selected.body.data[0]), ['publicId', 'name', 'updatedAt']);
      await assertInvalid(t.srv, `/v1/events/${EV(1)}/artists?include=artists`, 'include');
      await assertInvalid(t.srv, `/v1/events/${EV(1)}/venues?sort=-name`, 'sort');
      await assertInvalid(t.srv, `/v1/events/${EV(1)}/venues?updatedSince=2024-01-01T00:00:00Z`);
      await assertConditional(t.srv, `/v1/events/${EV(1)}/venues?limit=2`);
    });

    it('one query string on two Events: each page, next link and cursor is its own path\'s (controls kept per query string)', async () => {
      const other = (doc.events ?? []).map((_, i) => i + 1).find((n) => n !== 1 && isActive(event(n)) && artistsOf(n).length >= 2)!;
      assert.ok(other !== undefined && artistsOf(1).length >= 2);
      const query = 'limit=1&fields=name';
      for (let round = 0; round < 2; round++) {
        // read alternately, so that each path's plan follows the other's, from the same kept controls
        const [a, b] = [await t.srv.json(`/v1/events/${EV(1)}/artists?${query}`), await t.srv.json(`/v1/events/${EV(other)}/artists?${query}`)];
        assert.deepEqual(ids(a.body.data), artistsOf(1).slice(0, 1));
        assert.deepEqual(ids(b.body.data), artistsOf(other).slice(0, 1));
        assert.ok(a.body.links.next.startsWith(`/v1/events/${EV(1)}/artists?`), a.body.links.next);
        assert.ok(b.body.links.next.startsWith(`/v1/events/${EV(other)}/artists?`), b.body.links.next);
        // a cursor is sealed for its path: the other Event's route refuses it
        const cursorOf = (next: string) => new URL(next, 'http://x').searchParams.get('cursor')!;
        await assertInvalid(t.srv, `/v1/events/${EV(1)}/artists?${query}&cursor=${cursorOf(b.body.links.next)}`, 'cursor');
        await assertInvalid(t.srv, `/v1/events/${EV(other)}/artists?${query}&cursor=${cursorOf(a.body.links.next)}`, 'cursor');
      }
      assert.deepEqual(ids((await traverse(t.srv, `/v1/events/${EV(1)}/artists?${query}`, pageOf(Artist))).items), artistsOf(1));
      assert.deepEqual(ids((await traverse(t.srv, `/v1/events/${EV(other)}/artists?${query}`, pageOf(Artist))).items), artistsOf(other));
    });

    it('lists the reverse Series and Edition programs in their four-key order', async () => {
      const series = await traverse(t.srv, `/v1/events/${EV(1)}/series?limit=1`, pageOf(SeriesMembership));
      assert.deepEqual(ids(series.items), seriesOf(1));
      for (const s of series.items) assert.deepEqual(Object.keys(s), ['publicId', 'slug', 'name', 'structureCode']);
      const programs = await traverse(t.srv, `/v1/events/${EV(1)}/editions?limit=1`, pageOf(EditionProgram));
      assert.deepEqual(pairs(programs.items), programsOf(1));
      for (const p of programs.items) assert.deepEqual(Object.keys(p), ['series', 'edition']);
      const onlyEdition = await t.srv.json(`/v1/events/${EV(1)}/editions?fields=edition`);
      assert.deepEqual(Object.keys(onlyEdition.body.data[0]), ['edition']);
      assert.deepEqual(Object.keys((await t.srv.json(`/v1/events/${EV(1)}/series?fields=name`)).body.data[0]), ['publicId', 'name']);
      await assertInvalid(t.srv, `/v1/events/${EV(1)}/editions?fields=publicId`, 'fields');
      await assertConditional(t.srv, `/v1/events/${EV(1)}/editions?limit=2`);
    });

    it('resumes from a compact reverse boundary whose Series name is over 1,024 characters', async () => {
      const db = t.tdb.db.pool;
      const { rows } = await db.query<{ name: string }>(`SELECT name FROM series WHERE public_id = $1`, [S(4)]);
      await db.query(`UPDATE series SET name = 'M' || repeat('m', 1100) WHERE public_id = $1`, [S(4)]);
      try {
        const whole = await t.srv.json(`/v1/events/${EV(1)}/series?limit=50`);
        assert.equal(whole.body.links.next, null);
        const paged = await traverse(t.srv, `/v1/events/${EV(1)}/series?limit=1`, pageOf(SeriesMembership));
        assert.deepEqual(ids(paged.items), ids(whole.body.data));
        assert.ok(ids(whole.body.data).includes(S(4)));
      } finally {
        await db.query(`UPDATE series SET name = $2 WHERE public_id = $1`, [S(4), rows[0]!.name]);
      }
    });

    it('restarts a compact reverse boundary whose member was renamed, deactivated or unlinked', async () => {
      const db = t.tdb.db.pool;
      const seriesPage = await t.srv.json(`/v1/events/${EV(1)}/series?limit=${seriesOf(1).indexOf(S(4)) + 1}`);
      const seriesNext = seriesPage.body.links.next as string;
      assert.ok(seriesNext.length < 1200);
      await db.query(`UPDATE series SET name = name || 'z' WHERE public_id = $1`, [S(4)]);
      await assertRestart(t.srv, seriesNext);
      await db.query(`UPDATE series SET name = left(name, -1) WHERE public_id = $1`, [S(4)]);
      assert.equal((await t.srv.json(seriesNext)).status, 200);
      await db.query(`DELETE FROM event_series WHERE series_id = (SELECT id FROM series WHERE public_id = $1)`, [S(4)]);
      await assertRestart(t.srv, seriesNext);

      const expected = programsOf(1);
      const programPage = await t.srv.json(`/v1/events/${EV(1)}/editions?limit=${expected.indexOf(`${S(6)}/${E(6)}`) + 1}`);
      const programNext = programPage.body.links.next as string;
      assert.equal((await t.srv.json(programNext)).body.data[0].edition.publicId, E(9));
      await db.query(`UPDATE editions SET active = false WHERE public_id = $1`, [E(6)]);
      await assertRestart(t.srv, programNext);
      await db.query(`UPDATE editions SET active = true WHERE public_id = $1`, [E(6)]);
      await db.query(`UPDATE series SET name = 'Zeta Renamed' WHERE public_id = $1`, [S(6)]);
      await assertRestart(t.srv, programNext);
      await db.query(`UPDATE series SET name = 'Zeta Editioned' WHERE public_id = $1`, [S(6)]);
      assert.equal((await t.srv.json(programNext)).status, 200);
    });

    it('answers 404 for a missing, inactive or malformed Event and [] for an Event without members', async () => {
      for (const suffix of ['', '/artists', '/venues', '/series', '/editions']) {
        await assertNotFound(t.srv, `/v1/events/${EV(3)}${suffix}`);
        await assertNotFound(t.srv, `/v1/events/${EV(99)}${suffix}`);
        await assertNotFound(t.srv, `/v1/events/not-an-id${suffix}`, false);
        if (suffix !== '') {
          const empty = await t.srv.json(`/v1/events/${EV(4)}${suffix}`);
          assert.equal(empty.status, 200);
          assert.deepEqual(empty.body.data, []);
          assert.equal(empty.body.links.next, null);
          const inactiveOnly = await t.srv.json(`/v1/events/${EV(6)}${suffix}`);
          assert.deepEqual(inactiveOnly.body.data, [], `${suffix}: inactive members are invisible`);
        }
      }
    });
  });
}
