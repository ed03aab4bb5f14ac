/**
 * Round trips per read: an Event detail reads its row, stored or rich previews, Series
 * and Edition programs in one statement, an Events page its rows and previews; a nested list's page statement checks its parent itself, so
 * the parent's own statement runs only when the page is empty (to tell a 404 from []) or before a
 * compact boundary is resolved (a missing parent comes before a stale boundary).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResourceNotFound } from '../../src/controls/errors.js';
import { Reader } from '../../src/db/reader.js';
import type { ListPlan } from '../../src/plan/list.js';
import { listShape, namedKeys, readListPage, type SourceBuilder } from '../../src/queries/list.js';
import { A, EV, S, resourcesCatalogue } from '../fixtures/resources.js';
import { engines } from '../helper.js';
import { resourceServer } from './resource-support.js';

for (const engine of engines()) {
  describe(`statements per read (${engine.name})`, () => {
    const t = resourceServer(engine);
    const read = async (path: string) => {
      t.srv.statements.length = 0;
      const res = await t.srv.json(path);
      return { res, names: t.srv.statements.map((s) => s.name) };
    };

    it('an Event detail is one statement, with rich previews too', async () => {
      const plain = await read(`/v1/events/${EV(1)}`);
      assert.equal(plain.res.status, 200);
      assert.deepEqual(plain.names, ['events.detail']);
      assert.ok(plain.res.body.data.directEventSeries.length > 0 && plain.res.body.data.editionPrograms.length > 0, 'the fixture Event has both');
      const rich = await read(`/v1/events/${EV(1)}?include=artists,venues`);
      assert.equal(rich.res.status, 200);
      assert.deepEqual(rich.names, ['events.detail']);
      assert.ok(rich.res.body.data.artists.items.length > 0 && rich.res.body.data.venues.items.length > 0, 'the fixture Event has both');
      assert.ok('description' in rich.res.body.data.artists.items[0], 'rich previews');
      const missing = await read(`/v1/events/${EV(3)}`);
      assert.equal(missing.res.status, 404);
      assert.deepEqual(missing.names, ['events.detail']);
    });

    it('an Events page with rich previews, Series and Edition programs is one statement', async () => {
      const rich = await read('/v1/events?include=artists,venues');
      assert.equal(rich.res.status, 200);
      assert.deepEqual(rich.names, ['events.page']);
      const items = rich.res.body.data.flatMap((e: { artists: { items: object[] } }) => e.artists.items);
      assert.ok(items.length > 0 && items.every((a: object) => 'description' in a), 'rich previews');
      const programs = await read('/v1/events?fields=name,artists,venues,directEventSeries,editionPrograms');
      assert.equal(programs.res.status, 200);
      assert.deepEqual(programs.names, ['events.page']);
      const has = (f: string) => programs.res.body.data.some((e: Record<string, unknown[]>) => e[f]!.length > 0);
      assert.ok(has('directEventSeries') && has('editionPrograms'), 'the fixture has both');
    });

    it('a name term without a trigram: one statement when the walked Events fill the page, the rest only otherwise', async () => {
      const common = await read('/v1/events?nameContains=e&limit=1&fields=name');
      assert.equal(common.res.status, 200);
      assert.equal(common.res.body.data.length, 1);
      assert.deepEqual(common.names, ['events.page']);
      const none = await read('/v1/events?nameContains=qx&fields=name');
      assert.equal(none.res.status, 200);
      assert.deepEqual(none.res.body.data, []);
      assert.deepEqual(none.names, ['events.page', 'events.pageRest']);
    });

    it("a one-term search: on PostgreSQL the planner's choice is asked once per term, then the page is one prepared statement", async () => {
      const path = '/v1/events?nameContains=zyzzyva&fields=name';
      const first = await read(path);
      const stable = () => t.srv.statements.map((s) => s.stablePlan === true);
      const again = await read(path);
      assert.equal(first.res.status, 200);
      assert.deepEqual(again.res.body, first.res.body);
      assert.deepEqual(first.names, engine.name === 'postgres' ? ['events.pagePlan', 'events.page'] : ['events.page']);
      assert.deepEqual(again.names, ['events.page']);
      // PGlite runs every statement unnamed: nothing to save, the plain statement planned per request
      assert.deepEqual(stable(), [engine.name === 'postgres']);
    });

    it('a nested list page with rows is one statement; an empty page asks for its parent', async () => {
      const full = await read(`/v1/events/${EV(1)}/artists`);
      assert.equal(full.res.status, 200);
      assert.ok(full.res.body.data.length > 0);
      assert.deepEqual(full.names, ['eventArtists.list']);
      const empty = await read(`/v1/events/${EV(4)}/artists`);
      assert.equal(empty.res.status, 200);
      assert.deepEqual(empty.res.body.data, []);
      assert.deepEqual(empty.names, ['eventArtists.list', 'parent.event']);
      // inactive parents whose memberships are stored: 404, never their members
      for (const [path, parent] of [
        [`/v1/events/${EV(3)}/artists`, 'parent.event'],
        [`/v1/series/${S(3)}/artists`, 'parent.series'],
      ] as const) {
        const gone = await read(path);
        assert.equal(gone.res.status, 404, path);
        assert.equal(gone.names.at(-1), parent, `${path}: ${gone.names.join(', ')}`);
      }
    });

    it('the page statement itself refuses a missing or inactive parent (not only the sources that join it)', async () => {
      // a source that never looks at the parent: every active Artist
      const everyArtist: SourceBuilder = () => ({
        name: 'test.everyArtist',
        columns: ['a.public_id'],
        from: 'artists a',
        where: ['a.active'],
        keys: namedKeys('a', 'name'),
        identity: ['a.public_id'],
        names: ['a.name'],
      });
      const plan = { after: null, boundary: null, limit: 3, shape: listShape(everyArtist) } as unknown as ListPlan<unknown>;
      const reader = () => new Reader(t.tdb.db);
      const page = await readListPage(reader(), plan, everyArtist, { kind: 'artist', artistId: A(1) });
      assert.equal(page.rows.length, 3);
      assert.equal(page.hasMore, true);
      const inactive = (resourcesCatalogue.artists ?? []).find((a) => a.active === false)!.publicId;
      await assert.rejects(readListPage(reader(), plan, everyArtist, { kind: 'artist', artistId: inactive }), ResourceNotFound);
      await assert.rejects(readListPage(reader(), plan, everyArtist, { kind: 'artist', artistId: A(99) }), ResourceNotFound);
    });
  });
}
