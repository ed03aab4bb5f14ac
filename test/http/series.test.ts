/**
 * Series and Edition routes (decisions §2 routes 11-17, §3): collections, details, a Series'
 * Editions, an Edition's official Venues and the lineups, with their 404 rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectOf, pageOf } from '../../src/contract/common.js';
import { Artist, Edition, Series, Venue } from '../../src/contract/resources.js';
import { A, E, S, V, resourcesCatalogue } from '../fixtures/resources.js';
import { engines } from '../helper.js';
import { assertConditional, assertInvalid, assertNotFound, assertRestart, assertSchema, byKeys, bytewise, traverse, resourceServer } from './resource-support.js';

const doc = resourcesCatalogue;
const isActive = (x: { active?: boolean } | undefined) => x !== undefined && x.active !== false;
const ids = (items: { publicId: string }[]) => items.map((i) => i.publicId);
type Named = { publicId: string; name: string };
const byName = byKeys<Named>((x) => x.name, (x) => x.publicId);
const seriesDoc = (id: string) => (doc.series ?? []).find((s) => s.publicId === id)!;
const editionDoc = (id: string) => (doc.editions ?? []).find((e) => e.publicId === id)!;

/** Event ids of GET /v1/events?seriesId=…[&editionId=…] (decisions §5), active Events only. */
function contextEvents(seriesId: string, editionId: string | null): string[] {
  const s = seriesDoc(seriesId);
  return (doc.events ?? [])
    .filter(isActive)
    .filter((e) => {
      if (!isActive(s)) return false;
      if (s.structureCode === 'direct') return editionId === null && (e.seriesIds ?? []).includes(seriesId);
      return (e.editionIds ?? []).some((id) => {
        const ed = editionDoc(id);
        return isActive(ed) && ed.seriesId === seriesId && (editionId === null || id === editionId);
      });
    })
    .map((e) => e.publicId);
}
function lineup(seriesId: string, editionId: string | null): string[] {
  const events = new Set(contextEvents(seriesId, editionId));
  const artistIds = new Set((doc.events ?? []).filter((e) => events.has(e.publicId)).flatMap((e) => e.artistIds ?? []));
  return (doc.artists ?? []).filter((a) => isActive(a) && artistIds.has(a.publicId)).sort(byName).map((a) => a.publicId);
}

for (const engine of engines()) {
  describe(`series and editions (${engine.name})`, () => {
    const t = resourceServer(engine);

    it('lists active Series by name, -name and updatedAt with nameContains', async () => {
      const active = (doc.series ?? []).filter(isActive);
      const res = await t.srv.json('/v1/series');
      assertSchema(pageOf(Series), res.body, 'series');
      for (const s of res.body.data) assert.deepEqual(Object.keys(s), ['publicId', 'slug', 'name', 'structureCode', 'profileMedia']);
      assert.deepEqual(ids((await traverse(t.srv, '/v1/series?limit=2', pageOf(Series))).items), ids([...active].sort(byName)));
      assert.deepEqual(
        ids((await traverse(t.srv, '/v1/series?sort=-name&limit=2', pageOf(Series))).items),
        ids([...active].sort((a, b) => bytewise(b.name, a.name) || bytewise(a.publicId, b.publicId))),
      );
      assert.deepEqual(
        ids((await traverse(t.srv, '/v1/series?sort=updatedAt&limit=2', pageOf(Series))).items),
        ids([...active].sort(byKeys((s) => s.updatedAt as string, (s) => s.publicId))),
      );
      assert.deepEqual(ids((await t.srv.json('/v1/series?nameContains=%25')).body.data), [S(7)]);
      assert.deepEqual(ids((await t.srv.json('/v1/series?nameContains=FEST')).body.data), ids(active.filter((s) => /fest/i.test(s.name)).sort(byName)));
      await assertConditional(t.srv, '/v1/series?limit=2');
      await assertInvalid(t.srv, '/v1/series?sort=startLocalDate', 'sort');
    });

    it('reads a Series detail with every field; 404 when inactive, missing or malformed', async () => {
      const res = await t.srv.json(`/v1/series/${S(2)}`);
      assertSchema(objectOf(Series), res.body, 'series detail');
      assert.deepEqual(Object.keys(res.body.data), ['publicId', 'slug', 'name', 'structureCode', 'profileMedia', 'description', 'links', 'updatedAt']);
      assert.deepEqual(res.body.data.links, [{ url: 'https://fest.example', label: 'Fest' }]);
      await assertConditional(t.srv, `/v1/series/${S(2)}`);
      await assertNotFound(t.srv, `/v1/series/${S(3)}`);
      await assertNotFound(t.srv, `/v1/series/${S(99)}`);
      await assertNotFound(t.srv, '/v1/series/x', false);
    });

    it("lists a Series' active Editions by startLocalDate, -startLocalDate, name and updatedAt", async () => {
      const eds = (doc.editions ?? []).filter((e) => e.seriesId === S(2) && isActive(e));
      const read = async (q: string) => ids((await traverse(t.srv, `/v1/series/${S(2)}/editions?limit=2${q}`, pageOf(Edition))).items);
      assert.deepEqual(await read(''), ids([...eds].sort(byKeys((e) => e.startLocalDate, (e) => e.publicId))));
      assert.deepEqual(
        await read('&sort=-startLocalDate'),
        ids([...eds].sort((a, b) => bytewise(b.startLocalDate, a.startLocalDate) || bytewise(a.publicId, b.publicId))),
      );
      assert.deepEqual(await read('&sort=name'), ids([...eds].sort(byName)));
      const first = await t.srv.json(`/v1/series/${S(2)}/editions?limit=1`);
      assert.deepEqual(Object.keys(first.body.data[0]), ['publicId', 'slug', 'name', 'series', 'startLocalDate', 'endLocalDate', 'profileMedia']);
      assert.deepEqual(first.body.data[0].series, { publicId: S(2), slug: 'series-2', name: 'Editioned Fest' });
      // decisions §3: every collection accepts updatedSince with sort=updatedAt and updatedAt selected
      const feed = (await traverse(t.srv, `/v1/series/${S(2)}/editions?limit=1&sort=updatedAt&fields=updatedAt`, pageOf(Edition))).items as {
        publicId: string;
        updatedAt: string;
      }[];
      assert.deepEqual(new Set(ids(feed)), new Set(ids(eds)));
      assert.deepEqual(feed, [...feed].sort((a, b) => bytewise(a.updatedAt, b.updatedAt) || bytewise(a.publicId, b.publicId)));
      const since = feed[feed.length - 1]!.updatedAt;
      const newer = await t.srv.json(`/v1/series/${S(2)}/editions?sort=updatedAt&fields=updatedAt&updatedSince=${since}`);
      assert.deepEqual(ids(newer.body.data), ids(feed.filter((e) => e.updatedAt >= since)));
      await assertInvalid(t.srv, `/v1/series/${S(2)}/editions?updatedSince=${since}`, 'updatedSince');
      await assertConditional(t.srv, `/v1/series/${S(2)}/editions`);
      await assertNotFound(t.srv, `/v1/series/${S(3)}/editions`);
      const none = await t.srv.json(`/v1/series/${S(5)}/editions`);
      assert.equal(none.status, 200);
      assert.deepEqual(none.body.data, []);
    });

    it('restarts an Edition name cursor whose compact boundary changed', async () => {
      const page = await t.srv.json(`/v1/series/${S(6)}/editions?sort=name&limit=1`);
      assert.equal(page.body.data[0].publicId, E(6));
      const next = page.body.links.next as string;
      assert.deepEqual(ids((await t.srv.json(next)).body.data), [E(9)]);
      await t.tdb.db.pool.query(`UPDATE editions SET name = 'F' || substr(name, 2) WHERE public_id = $1`, [E(6)]);
      try {
        await assertRestart(t.srv, next);
      } finally {
        await t.tdb.db.pool.query(`UPDATE editions SET name = 'E' || substr(name, 2) WHERE public_id = $1`, [E(6)]);
      }
    });

    it('reads an Edition only under its own active Series', async () => {
      const res = await t.srv.json(`/v1/series/${S(2)}/editions/${E(1)}`);
      assertSchema(objectOf(Edition), res.body, 'edition');
      assert.deepEqual(Object.keys(res.body.data), [
        'publicId', 'slug', 'name', 'series', 'startLocalDate', 'endLocalDate', 'profileMedia', 'description', 'links', 'updatedAt',
      ]);
      assert.equal(res.body.data.endLocalDate, '2023-06-03');
      assert.equal(res.body.data.updatedAt, editionDoc(E(1)).updatedAt);
      await assertConditional(t.srv, `/v1/series/${S(2)}/editions/${E(1)}`);
      await assertNotFound(t.srv, `/v1/series/${S(6)}/editions/${E(1)}`);
      await assertNotFound(t.srv, `/v1/series/${S(2)}/editions/${E(3)}`);
      await assertNotFound(t.srv, `/v1/series/${S(3)}/editions/${E(4)}`);
      await assertNotFound(t.srv, `/v1/series/${S(2)}/editions/bad`, false);
      for (const suffix of ['/venues', '/artists']) {
        await assertNotFound(t.srv, `/v1/series/${S(3)}/editions/${E(4)}${suffix}`);
        await assertNotFound(t.srv, `/v1/series/${S(2)}/editions/${E(3)}${suffix}`);
        await assertNotFound(t.srv, `/v1/series/${S(1)}/editions/${E(1)}${suffix}`);
        await assertNotFound(t.srv, `/v1/series/bad/editions/${E(1)}${suffix}`, false);
      }
    });

    it("lists an Edition's official active Venues, rich, by name", async () => {
      const expected = (editionDoc(E(6)).venueIds ?? [])
        .map((id) => (doc.venues ?? []).find((v) => v.publicId === id)!)
        .filter(isActive)
        .sort(byName);
      const got = await traverse(t.srv, `/v1/series/${S(6)}/editions/${E(6)}/venues?limit=2`, pageOf(Venue));
      assert.deepEqual(ids(got.items), ids(expected));
      assert.equal(Object.keys(got.items[0]).length, 11);
      const first = await t.srv.json(`/v1/series/${S(2)}/editions/${E(1)}/venues`);
      assert.deepEqual(ids(first.body.data), [V(1), V(4)].sort(bytewise), 'the inactive official Venue is hidden');
      assert.deepEqual((await t.srv.json(`/v1/series/${S(2)}/editions/${E(2)}/venues`)).body.data, []);
      await assertConditional(t.srv, `/v1/series/${S(2)}/editions/${E(1)}/venues`);
      await assertInvalid(t.srv, `/v1/series/${S(2)}/editions/${E(1)}/venues?include=venues`, 'include');
    });

    it('lists the lineups: distinct active Artists of the active Events in the context', async () => {
      for (const [seriesId, editionId] of [
        [S(1), null],
        [S(2), null],
        [S(5), null],
        [S(6), null],
        [S(7), null],
        [S(2), E(1)],
        [S(2), E(2)],
        [S(2), E(7)],
        [S(1), E(5)],
      ] as const) {
        const path = editionId === null ? `/v1/series/${seriesId}/artists` : `/v1/series/${seriesId}/editions/${editionId}/artists`;
        const got = await traverse(t.srv, `${path}?limit=3`, pageOf(Artist));
        assert.deepEqual(ids(got.items), lineup(seriesId, editionId), path);
        for (const a of got.items) assert.deepEqual(Object.keys(a), ['publicId', 'slug', 'name', 'profileMedia', 'description']);
      }
      assert.ok(!lineup(S(1), null).includes(A(16)), 'Artists of inactive Events are not in the lineup');
      assert.ok(lineup(S(2), null).length > 0);
      await assertConditional(t.srv, `/v1/series/${S(2)}/artists?limit=2`);
      await assertNotFound(t.srv, `/v1/series/${S(3)}/artists`);
      await assertInvalid(t.srv, `/v1/series/${S(2)}/artists?nameContains=a`, 'nameContains');
      const selected = await t.srv.json(`/v1/series/${S(2)}/editions/${E(1)}/artists?fields=name,updatedAt`);
      assert.deepEqual(Object.keys(selected.body.data[0]), ['publicId', 'name', 'updatedAt']);
    });
  });
}
