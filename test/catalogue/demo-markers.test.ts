/**
 * The demo shows the change feed: every entity of the demo catalogue carries its own
 * `updatedAt`, spread over the 180 days before the anchor date with a few in its last day,
 * deterministically per (events, seed, anchor date), so `updatedSince` returns a subset.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogueDocument } from '../../src/catalogue/document.js';
import { demoDocumentChunks, seedDemo } from '../../src/catalogue/demo.js';
import { engines, openTestDatabase, startServer, type TestDatabase, type TestServer } from '../helper.js';

const ANCHOR = '2026-03-15';
const DAY_MS = 86_400_000;
const anchorMs = Date.parse(`${ANCHOR}T00:00:00Z`);
const document = (opts: { events: number; seed: string; anchorDate: string }) => JSON.parse([...demoDocumentChunks(opts)].join('')) as CatalogueDocument;

describe('demo change markers', () => {
  const doc = document({ events: 2000, seed: 'markers', anchorDate: ANCHOR }) as CatalogueDocument & Record<string, { publicId: string; updatedAt?: string | null }[]>;
  const all = ['media', 'artists', 'venues', 'series', 'editions', 'events'].flatMap((k) => doc[k] ?? []);

  it('every entity has a marker with six fractional digits, within the 180 days before the anchor date', () => {
    assert.ok(all.length > 3000);
    for (const e of all) {
      assert.match(e.updatedAt ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/, e.publicId);
      const ms = Date.parse(e.updatedAt!);
      assert.ok(ms < anchorMs && ms >= anchorMs - 180 * DAY_MS, `${e.publicId}: ${e.updatedAt}`);
    }
  });

  it('spread: nearly all distinct, a few in the last day, most of the window used', () => {
    const markers = all.map((e) => e.updatedAt!);
    assert.ok(new Set(markers).size >= markers.length - 2, 'markers are (nearly) all distinct');
    const lastDay = markers.filter((m) => Date.parse(m) >= anchorMs - DAY_MS).length / markers.length;
    assert.ok(lastDay >= 0.01 && lastDay <= 0.08, `share in the last day: ${lastDay}`);
    const months = new Set(markers.map((m) => Math.floor((anchorMs - Date.parse(m)) / (30 * DAY_MS))));
    assert.equal(months.size, 6, 'every 30-day slice of the 180 days holds markers');
  });

  it('deterministic per (events, seed, anchor date)', () => {
    const again = document({ events: 2000, seed: 'markers', anchorDate: ANCHOR }) as typeof doc;
    assert.deepEqual(again.events!.map((e) => e.updatedAt), doc.events!.map((e) => e.updatedAt));
    const otherSeed = document({ events: 2000, seed: 'other', anchorDate: ANCHOR }) as typeof doc;
    assert.notDeepEqual(otherSeed.events!.map((e) => e.updatedAt), doc.events!.map((e) => e.updatedAt));
    const otherAnchor = document({ events: 2000, seed: 'markers', anchorDate: '2026-03-16' }) as typeof doc;
    assert.ok(otherAnchor.events!.every((e) => Date.parse(e.updatedAt!) < anchorMs + DAY_MS));
  });
});

for (const engine of engines()) {
  describe(`the demo's change feed returns a subset on ${engine.name}`, () => {
    let t: TestDatabase;
    let server: TestServer;
    before(async () => {
      t = await openTestDatabase(engine);
      await seedDemo(t.db, { events: 400, seed: 'feed', anchorDate: ANCHOR });
      server = await startServer(t.db);
    });
    after(async () => {
      await server.close();
      await t.drop();
    });

    async function count(path: string): Promise<number> {
      let n = 0;
      for (let next: string | null = path; next !== null; ) {
        const res = await server.json(next);
        assert.equal(res.status, 200, `${next}: ${JSON.stringify(res.body).slice(0, 200)}`);
        n += res.body.data.length;
        next = res.body.links.next === null ? null : new URL(res.body.links.next, server.base).pathname + new URL(res.body.links.next, server.base).search;
      }
      return n;
    }

    it("README's updatedSince example (the last 7 days) returns a subset of Events and Artists", async () => {
      const since = new Date(anchorMs - 7 * DAY_MS).toISOString();
      for (const route of ['/v1/events', '/v1/artists']) {
        const everything = await count(`${route}?limit=50`);
        const changed = await count(`${route}?sort=updatedAt&fields=name,updatedAt&updatedSince=${since}&limit=50`);
        assert.ok(changed > 0 && changed < everything / 4, `${route}: ${changed} of ${everything} changed in the last 7 days`);
      }
    });
  });
}
