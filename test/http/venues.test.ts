/**
 * GET /v1/venues and GET /v1/venues/{venueId} (spec: Venue resources and operations): shapes,
 * every filter and sort against a reference model, complete traversals, the compact boundary
 * of oversized names, 404 rules, ETag/304/HEAD.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageOf, objectOf } from '../../src/contract/common.js';
import { Venue } from '../../src/contract/resources.js';
import { resourcesCatalogue, V } from '../fixtures/resources.js';
import { engines } from '../helper.js';
import {
  assertConditional,
  assertInvalid,
  assertNotFound,
  assertRestart,
  assertSchema,
  byKeys,
  resourceServer,
  traverse,
} from './resource-support.js';

type Doc = NonNullable<typeof resourcesCatalogue.venues>[number];
const active = (resourcesCatalogue.venues ?? []).filter((v) => v.active !== false);
const ids = (list: { publicId: string }[]) => list.map((v) => v.publicId);
const byName = byKeys<Doc>((v) => v.name, (v) => v.publicId);
const byUpdated = byKeys<Doc>((v) => v.updatedAt as string, (v) => v.publicId);
const DEFAULT_KEYS = ['publicId', 'slug', 'name', 'statusCode', 'location', 'profileMedia'];
const DETAIL_KEYS = [...DEFAULT_KEYS, 'description', 'capacity', 'contact', 'publishedCoordinates', 'links', 'updatedAt'];

function model(filter: (v: Doc) => boolean, sort: 'name' | '-name' | 'updatedAt' = 'name'): string[] {
  const list = active.filter(filter);
  if (sort === 'updatedAt') return ids(list.sort(byUpdated));
  const sorted = list.sort(byName);
  if (sort === 'name') return ids(sorted);
  return ids(list.sort(byKeys<Doc>((v) => v.publicId)).sort((a, b) => -byKeys<Doc>((v) => v.name)(a, b)));
}

for (const engine of engines()) {
  describe(`venues (${engine.name})`, () => {
    const t = resourceServer(engine);

    const list = async (query: string) => (await traverse(t.srv, `/v1/venues${query}`, pageOf(Venue))).items.map((v) => v.publicId);

    it('lists active Venues with the default shape, by name bytewise', async () => {
      const res = await t.srv.json('/v1/venues?limit=50');
      assert.equal(res.status, 200);
      assertSchema(pageOf(Venue), res.body, 'venues');
      for (const item of res.body.data) assert.deepEqual(Object.keys(item), DEFAULT_KEYS);
      assert.deepEqual(ids(res.body.data), model(() => true));
      const tba = res.body.data.find((v: any) => v.publicId === V(5));
      assert.deepEqual(tba.location, { stateCode: 'tba' });
      const coord = res.body.data.find((v: any) => v.publicId === V(6));
      assert.deepEqual(coord.location, { stateCode: 'coordinate-only', locality: 'Lyon', countryName: 'France', countryCode: 'FR' });
    });

    it('sorts by name, -name and updatedAt with publicId ties, across small pages', async () => {
      for (const sort of ['name', '-name', 'updatedAt'] as const) {
        assert.deepEqual(await list(`?sort=${sort}&limit=3`), model(() => true, sort), sort);
      }
    });

    it('filters nameContains literally and case-insensitively', async () => {
      const cases: [string, (v: Doc) => boolean][] = [
        ['berlin', (v) => v.name.toLowerCase().includes('berlin')],
        ['%', (v) => v.name.includes('%')],
        ['_', (v) => v.name.includes('_')],
        ['a_b', (v) => v.name.toLowerCase().includes('a_b')],
        ['\\', (v) => v.name.includes('\\')],
        ['!', (v) => v.name.includes('!')],
        ['  VENUE ', (v) => v.name.toLowerCase().includes('venue')],
        ['\u{1F600}', (v) => v.name.includes('\u{1F600}')],
      ];
      for (const [term, match] of cases) {
        const expected = model(match);
        assert.ok(expected.length > 0, term);
        assert.deepEqual(await list(`?nameContains=${encodeURIComponent(term)}&limit=2`), expected, term);
      }
      assert.deepEqual(await list('?nameContains=a%25'), model((v) => v.name.toLowerCase().includes('a%')));
      await assertInvalid(t.srv, '/v1/venues?nameContains=%20%20', 'nameContains');
      await assertInvalid(t.srv, '/v1/venues?nameContains=%00', undefined);
      await assertInvalid(t.srv, `/v1/venues?nameContains=${'x'.repeat(201)}`, 'nameContains');
    });

    it('filters locality, countryCode and statusCode, combined with AND', async () => {
      const loc = (v: Doc) => v.address?.locality?.trim().toLowerCase() ?? null;
      assert.deepEqual(await list('?locality=BERLIN'), model((v) => loc(v) === 'berlin'));
      assert.deepEqual(await list('?locality=%20berlin%20'), model((v) => loc(v) === 'berlin'));
      assert.deepEqual(await list('?locality=evry'), model((v) => loc(v) === 'evry'), 'no accent folding');
      assert.deepEqual(await list('?countryCode=FR'), model((v) => v.address?.countryCode === 'FR'));
      assert.deepEqual(await list('?statusCode=on-hiatus'), model((v) => v.statusCode === 'on-hiatus'));
      assert.deepEqual(
        await list('?locality=berlin&countryCode=DE&statusCode=operational&nameContains=c'),
        model((v) => loc(v) === 'berlin' && v.address?.countryCode === 'DE' && v.statusCode === 'operational' && v.name.toLowerCase().includes('c')),
      );
      assert.deepEqual(await list('?countryCode=ZZ'), []);
      await assertInvalid(t.srv, '/v1/venues?countryCode=de', 'countryCode');
      await assertInvalid(t.srv, '/v1/venues?statusCode=open', 'statusCode');
      await assertInvalid(t.srv, '/v1/venues?locality=', 'locality');
    });

    it('reads updatedSince with sort=updatedAt and updatedAt selected only', async () => {
      const since = '2024-01-03T10:00:00.003333Z';
      const got = await traverse(t.srv, `/v1/venues?sort=updatedAt&fields=name,updatedAt&updatedSince=2024-01-03T10:00:00.003333Z&limit=2`, pageOf(Venue));
      assert.deepEqual(ids(got.items), ids(active.filter((v) => (v.updatedAt as string) >= since).sort(byUpdated)));
      for (const item of got.items) assert.deepEqual(Object.keys(item), ['publicId', 'name', 'updatedAt']);
      await assertInvalid(t.srv, `/v1/venues?fields=updatedAt&updatedSince=${since}`, 'updatedSince');
      await assertInvalid(t.srv, `/v1/venues?sort=updatedAt&updatedSince=${since}`, 'updatedSince');
      await assertInvalid(t.srv, '/v1/venues?sort=updatedAt&fields=updatedAt&updatedSince=2024-01-03T10:00Z', 'updatedSince');
    });

    it('refuses bad controls before any read', async () => {
      for (const q of ['limit=51', 'limit=0', 'sort=startLocalDate', 'fields=publicId,publicId', 'fields=name.x', 'include=venues', 'bogus=1', 'limit=2&limit=3', 'cursor=abc']) {
        await assertInvalid(t.srv, `/v1/venues?${q}`);
        assert.equal(t.srv.statements.length, 0, q);
      }
    });

    it('uses a compact boundary for an oversized name and resumes from it', async () => {
      const expected = model(() => true);
      const at = expected.indexOf(V(12));
      const first = await t.srv.json(`/v1/venues?limit=${at + 1}`);
      const next = first.body.links.next as string;
      const cursor = new URL(next, 'http://x').searchParams.get('cursor') as string;
      assert.ok(cursor.length <= 1024);
      assert.ok(ids(first.body.data).includes(V(12)));
      const second = await t.srv.json(next);
      assert.equal(second.status, 200);
      assert.deepEqual([...ids(first.body.data), ...ids(second.body.data)].slice(0, expected.length), expected.slice(0, at + 1 + second.body.data.length));
      // equivalent controls give the same next link
      const again = await t.srv.json(`/v1/venues?sort=name&limit=${at + 1}&fields=slug,publicId,name,statusCode,location,profileMedia`);
      assert.equal(again.body.links.next, next);
    });

    it('resumes from a compact boundary whose name is longer than a cursor may carry (over 1,024 characters)', async () => {
      const db = t.tdb.db.pool;
      const { rows } = await db.query<{ name: string }>(`SELECT name FROM venues WHERE public_id = $1`, [V(12)]);
      // names a cursor cannot hold whole (MAX_TEXT_KEY): their boundaries are compact, resolved from the database
      await db.query(`UPDATE venues SET name = 'M' || repeat('m', 1100) WHERE public_id = $1`, [V(12)]);
      try {
        for (const sort of ['name', '-name']) {
          const whole = await t.srv.json(`/v1/venues?sort=${sort}&limit=50`);
          assert.equal(whole.body.links.next, null);
          const paged = await traverse(t.srv, `/v1/venues?sort=${sort}&limit=1`, pageOf(Venue));
          assert.deepEqual(ids(paged.items), ids(whole.body.data), sort);
        }
      } finally {
        await db.query(`UPDATE venues SET name = $2 WHERE public_id = $1`, [V(12), rows[0]!.name]);
      }
    });

    it('asks for a restart when the compact boundary Venue was renamed or left the filters', async () => {
      const db = t.tdb.db;
      const filtered = '/v1/venues?locality=berlin&limit=';
      const expected = model((v) => v.address?.locality?.trim().toLowerCase() === 'berlin');
      const page = await t.srv.json(`${filtered}${expected.indexOf(V(12)) + 1}`);
      const next = page.body.links.next as string;
      assert.ok(next);
      await db.pool.query(`UPDATE venues SET locality = 'Hamburg', locality_key = 'hamburg' WHERE public_id = $1`, [V(12)]);
      await assertRestart(t.srv, next);
      await db.pool.query(`UPDATE venues SET locality = 'Berlin', locality_key = 'berlin' WHERE public_id = $1`, [V(12)]);
      assert.equal((await t.srv.json(next)).status, 200);
      await db.pool.query(`UPDATE venues SET name = name || 'y' WHERE public_id = $1`, [V(12)]);
      await assertRestart(t.srv, next);
      await db.pool.query(`UPDATE venues SET name = left(name, -1) WHERE public_id = $1`, [V(12)]);
      await db.pool.query(`UPDATE venues SET active = false WHERE public_id = $1`, [V(12)]);
      await assertRestart(t.srv, next);
      await db.pool.query(`UPDATE venues SET active = true WHERE public_id = $1`, [V(12)]);
      assert.equal((await t.srv.json(next)).status, 200);
    });

    it('keeps an ordinary cursor usable after its boundary Venue disappears', async () => {
      const expected = model(() => true);
      const first = await t.srv.json('/v1/venues?limit=2');
      const boundary = first.body.data[1].publicId;
      await t.tdb.db.pool.query(`UPDATE venues SET active = false WHERE public_id = $1`, [boundary]);
      try {
        const rest = await traverse(t.srv, first.body.links.next, pageOf(Venue));
        assert.deepEqual(ids(rest.items), expected.slice(2));
      } finally {
        await t.tdb.db.pool.query(`UPDATE venues SET active = true WHERE public_id = $1`, [boundary]);
      }
    });

    it('answers ETag/304/HEAD on the collection, also for empty pages', async () => {
      await assertConditional(t.srv, '/v1/venues?limit=3');
      await assertConditional(t.srv, '/v1/venues?countryCode=ZZ');
    });

    it('reads the Venue detail: rich projection with its own updatedAt', async () => {
      const res = await t.srv.json(`/v1/venues/${V(1)}`);
      assert.equal(res.status, 200);
      assertSchema(objectOf(Venue), res.body, 'venue');
      assert.deepEqual(Object.keys(res.body.data), DETAIL_KEYS);
      assert.deepEqual(res.body.data.contact, { email: 'club@example.org', phoneNumber: '+49 30 123' });
      assert.equal(res.body.data.capacity, 500);
      assert.equal(res.body.data.updatedAt, resourcesCatalogue.venues?.[0]?.updatedAt);
      assert.equal(res.body.data.profileMedia.publicId, 'me0000000004');
      const paris = await t.srv.json(`/v1/venues/${V(4)}`);
      assert.deepEqual(paris.body.data.publishedCoordinates, { latitude: 48.85, longitude: 2.35 });
      assert.deepEqual(paris.body.data.links, [{ url: 'https://paris.example', label: null }]);
      const pending = await t.srv.json(`/v1/venues/${V(2)}`);
      assert.equal(pending.body.data.profileMedia, null, 'only ready media is public');
      assert.equal((await t.srv.json(`/v1/venues/${V(6)}`)).body.data.publishedCoordinates, null);
      const some = await t.srv.json(`/v1/venues/${V(1)}?fields=name,updatedAt`);
      assert.deepEqual(Object.keys(some.body.data), ['publicId', 'name', 'updatedAt']);
      assert.doesNotMatch(JSON.stringify(res.body), /secret|Europe\/Paris/);
      await assertConditional(t.srv, `/v1/venues/${V(1)}`);
      await assertInvalid(t.srv, `/v1/venues/${V(1)}?limit=2`);
      await assertInvalid(t.srv, `/v1/venues/${V(1)}?fields=bogus`, 'fields');
    });

    it('answers 404 for a missing, inactive or malformed Venue', async () => {
      await assertNotFound(t.srv, `/v1/venues/${V(11)}`);
      await assertNotFound(t.srv, `/v1/venues/${V(99)}`);
      await assertNotFound(t.srv, '/v1/venues/short', false);
      await assertNotFound(t.srv, '/v1/venues/ve000000000!', false);
    });
  });
}
