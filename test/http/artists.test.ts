/** GET /v1/artists and GET /v1/artists/{artistId} (decisions §2, §3). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectOf, pageOf } from '../../src/contract/common.js';
import { Artist } from '../../src/contract/resources.js';
import { A, M, resourcesCatalogue } from '../fixtures/resources.js';
import { engines } from '../helper.js';
import { assertConditional, assertInvalid, assertNotFound, assertRestart, assertSchema, byKeys, bytewise, traverse, resourceServer } from './resource-support.js';

type Doc = NonNullable<typeof resourcesCatalogue.artists>[number];
const active = (resourcesCatalogue.artists ?? []).filter((a) => a.active !== false);
const ids = (list: { publicId: string }[]) => list.map((a) => a.publicId);

function model(filter: (a: Doc) => boolean, sort: 'name' | '-name' | 'updatedAt' = 'name'): string[] {
  const list = active.filter(filter);
  if (sort === 'updatedAt') return ids(list.sort(byKeys<Doc>((a) => a.updatedAt as string, (a) => a.publicId)));
  if (sort === 'name') return ids(list.sort(byKeys<Doc>((a) => a.name, (a) => a.publicId)));
  return ids(list.sort((a, b) => bytewise(b.name, a.name) || bytewise(a.publicId, b.publicId)));
}

for (const engine of engines()) {
  describe(`artists (${engine.name})`, () => {
    const t = resourceServer(engine);
    const list = async (query: string) => ids((await traverse(t.srv, `/v1/artists${query}`, pageOf(Artist))).items);

    it('lists active Artists with the default shape', async () => {
      const res = await t.srv.json('/v1/artists?limit=50');
      assertSchema(pageOf(Artist), res.body, 'artists');
      for (const item of res.body.data) assert.deepEqual(Object.keys(item), ['publicId', 'slug', 'name', 'profileMedia']);
      assert.deepEqual(ids(res.body.data), model(() => true));
      // bytewise, not UTF-16: U+1F600 sorts after U+FB01
      const names = res.body.data.map((a: any) => a.name);
      assert.ok(names.indexOf('\uFB01ne') < names.indexOf('\u{1F600} smile'));
    });

    it('sorts by name, -name and updatedAt across small pages, each member once', async () => {
      for (const sort of ['name', '-name', 'updatedAt'] as const) {
        const got = await list(`?sort=${sort}&limit=2${sort === 'updatedAt' ? '' : ''}`);
        assert.deepEqual(got, model(() => true, sort), sort);
        assert.equal(new Set(got).size, got.length);
      }
    });

    it('filters nameContains literally; updatedSince needs sort and field', async () => {
      for (const term of ['%', '_', 'a_b', '\\', '!', 'ALPHA', 'ä']) {
        assert.deepEqual(await list(`?nameContains=${encodeURIComponent(term)}`), model((a) => a.name.toLowerCase().includes(term.toLowerCase())), term);
      }
      const since = '2024-01-04T10:00:00Z';
      const got = await list(`?sort=updatedAt&fields=updatedAt&updatedSince=${since}&limit=3`);
      assert.deepEqual(got, model((a) => (a.updatedAt as string) >= '2024-01-04T10:00:00.000000Z', 'updatedAt'));
      await assertInvalid(t.srv, `/v1/artists?updatedSince=${since}`, 'updatedSince');
      await assertInvalid(t.srv, '/v1/artists?locality=x', 'locality');
      await assertInvalid(t.srv, '/v1/artists?nameContains=%20', 'nameContains');
    });

    it('restarts a compact boundary after a rename', async () => {
      const expected = model(() => true);
      const page = await t.srv.json(`/v1/artists?limit=${expected.indexOf(A(12)) + 1}`);
      const next = page.body.links.next as string;
      await t.tdb.db.pool.query(`UPDATE artists SET name = 'N' || name, name_lower = 'n' || name_lower WHERE public_id = $1`, [A(12)]);
      try {
        await assertRestart(t.srv, next);
      } finally {
        await t.tdb.db.pool.query(`UPDATE artists SET name = substr(name, 2), name_lower = substr(name_lower, 2) WHERE public_id = $1`, [A(12)]);
      }
      assert.equal((await t.srv.json(next)).status, 200);
    });

    it('reads the detail with every field and the legacy profile selection', async () => {
      const res = await t.srv.json(`/v1/artists/${A(1)}`);
      assertSchema(objectOf(Artist), res.body, 'artist');
      assert.deepEqual(Object.keys(res.body.data), ['publicId', 'slug', 'name', 'profileMedia', 'description', 'links', 'updatedAt']);
      assert.deepEqual(res.body.data.links, [{ url: 'https://zed.example', label: 'site' }]);
      const legacy = await t.srv.json(`/v1/artists/${A(14)}`);
      assert.equal(legacy.body.data.profileMedia.publicId, M(2), 'first ready media by position');
      assert.deepEqual(Object.keys((await t.srv.json(`/v1/artists/${A(1)}?fields=links`)).body.data), ['publicId', 'links']);
      await assertConditional(t.srv, `/v1/artists/${A(1)}`);
      await assertConditional(t.srv, '/v1/artists?limit=4');
      await assertNotFound(t.srv, `/v1/artists/${A(13)}`);
      await assertNotFound(t.srv, `/v1/artists/${A(77)}`);
      await assertNotFound(t.srv, '/v1/artists/%20', false);
      await assertInvalid(t.srv, `/v1/artists/${A(1)}?include=artists`, 'include');
    });
  });
}
