/**
 * A document's parents merged while its Events are read (src/catalogue/parents-first.ts), on both
 * engines: the same catalogue, row for row, as the merge after the reading writes; every Event
 * batch COPYed after the parents were merged (so the early path did run), from in-process entities
 * told so and from a document's text that shows it by its arrays' order, and not when a parent's
 * array comes after the Events; a refused document names the same problems either way and writes
 * nothing, whether the problem is in an Event (found after the parents were merged), in a parent's
 * list (counted by the early merge) or in a parent the early checks decline; a failing COPY of a
 * held batch fails the import and leaves nothing written.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { demoEntities } from '../../src/catalogue/demo.js';
import { COLLECTIONS, type Collection } from '../../src/catalogue/document.js';
import { CatalogueError, importCatalogue, importEntities, type ImportOptions } from '../../src/catalogue/importer.js';
import type { CopyIn } from '../../src/db/copy.js';
import type { Database } from '../../src/db/database.js';
import { resetCatalogue, storePerSuite, tableCounts, testEngines, textStream } from './support.js';

type Entity = readonly [Collection, unknown];

const TABLES = [
  'media', 'artists', 'artist_profile_media', 'venues', 'series', 'editions', 'edition_venues', 'events',
  'event_artists', 'event_venues', 'event_series', 'event_editions', 'event_gallery', 'event_previews', 'event_places',
];

/** Every row of every catalogue table (ids included), in one order. */
async function catalogue(db: Database): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const table of TABLES) {
    const { rows } = await db.pool.query<{ rows: unknown }>(
      `SELECT coalesce(json_agg(x.r ORDER BY x.r), '[]') AS rows FROM (SELECT to_jsonb(t)::text AS r FROM ${table} t) x`,
    );
    out[table] = rows[0]!.rows;
  }
  return out;
}

const DEMO = () => [...demoEntities({ events: 80, seed: 'parents-first', anchorDate: '2026-06-01' })] as Entity[];

/** The entities as a document's text, its arrays in `order`. */
function documentText(entities: readonly Entity[], order: readonly Collection[] = COLLECTIONS): string {
  const doc: Record<string, unknown[]> = {};
  for (const c of order) doc[c] = [];
  for (const [c, value] of entities) doc[c]!.push(value);
  return JSON.stringify(doc);
}

/**
 * The store's Database, noting for each staged Events batch whether the parents were merged by
 * then (media in the catalogue, asked on the import's connection, inside its transaction), and
 * failing the `failAt`-th Events COPY.
 */
function observed(db: Database, failAt?: number): { db: Database; mergedAtEventCopy: boolean[] } {
  const mergedAtEventCopy: boolean[] = [];
  const copyIn: CopyIn = async (client, table, columns, bytes) => {
    if (table === 'stage_events') {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM media');
      mergedAtEventCopy.push(rows[0]!.n > 0);
      if (mergedAtEventCopy.length === failAt) throw new Error('a staging COPY failed (test)');
    }
    return db.copyIn(client, table, columns, bytes);
  };
  return { db: { ...db, copyIn }, mergedAtEventCopy };
}

for (const engine of testEngines()) {
  describe(`parents merged while the Events are read (${engine.name})`, () => {
    const store = storePerSuite(engine);

    const viaEntities = async (entities: readonly Entity[], opts: ImportOptions) => {
      await resetCatalogue(store.db);
      const { db, mergedAtEventCopy } = observed(store.db);
      await importEntities(db, entities, { batchSize: 23, ...opts });
      return { rows: await catalogue(store.db), mergedAtEventCopy };
    };

    test('in-process entities told so: the same catalogue, every Event batch staged after the parents merged', async () => {
      const late = await viaEntities(DEMO(), { parentsFirst: false });
      const early = await viaEntities(DEMO(), { parentsFirst: true });
      assert.ok((late.rows.events as unknown[]).length === 80 && (late.rows.event_previews as unknown[]).length === 80);
      assert.deepEqual(early.rows, late.rows);
      assert.ok(late.mergedAtEventCopy.length > 2, `Events batches: ${late.mergedAtEventCopy.length}`);
      assert.ok(late.mergedAtEventCopy.every((merged) => !merged));
      assert.ok(early.mergedAtEventCopy.every((merged) => merged));
    });

    test('a document whose arrays put every parent first shows it; one with a parent after the Events does not', async () => {
      const entities = DEMO();
      await resetCatalogue(store.db);
      const first = observed(store.db);
      await importCatalogue(first.db, textStream(documentText(entities)), { batchSize: 23 });
      const rows = await catalogue(store.db);
      assert.ok(first.mergedAtEventCopy.length > 2 && first.mergedAtEventCopy.every((merged) => merged));

      await resetCatalogue(store.db);
      const after = observed(store.db);
      const order: Collection[] = ['media', 'artists', 'venues', 'editions', 'events', 'series'];
      await importCatalogue(after.db, textStream(documentText(entities, order)), { batchSize: 23 });
      assert.ok(after.mergedAtEventCopy.length > 2 && after.mergedAtEventCopy.every((merged) => !merged));
      assert.deepEqual(await catalogue(store.db), rows);
    });

    /** The problems of `entities` with and without the early merge (equal), the store empty after each. */
    const problemsOf = async (entities: readonly Entity[], early: boolean): Promise<string[]> => {
      const seen: string[][] = [];
      for (const parentsFirst of [true, false]) {
        await resetCatalogue(store.db);
        const { db, mergedAtEventCopy } = observed(store.db);
        await assert.rejects(importEntities(db, entities, { batchSize: 23, parentsFirst }), (err) => {
          assert.ok(err instanceof CatalogueError, String(err));
          seen.push(err.problems);
          return true;
        });
        assert.ok(Object.values(await tableCounts(store.db)).every((n) => n === 0));
        // whether the parents were merged before the Events were staged
        assert.ok(mergedAtEventCopy.length > 0 && mergedAtEventCopy.every((merged) => merged === (parentsFirst && early)));
      }
      assert.deepEqual(seen[0], seen[1]);
      return seen[0]!;
    };
    const edited = (edit: (collection: Collection, value: Record<string, unknown>, index: number) => void): Entity[] => {
      const counts = new Map<Collection, number>();
      return DEMO().map(([c, value]) => {
        const copy = structuredClone(value) as Record<string, unknown>;
        const index = counts.get(c) ?? 0;
        counts.set(c, index + 1);
        edit(c, copy, index);
        return [c, copy] as const;
      });
    };

    test('an Event refused after its parents were merged: the same problem, nothing written', async () => {
      const problems = await problemsOf(edited((c, v, i) => {
        if (c === 'events' && i === 70) v.artistIds = ['artMissing01'];
      }), true);
      assert.equal(problems.length, 1);
      assert.match(problems[0]!, /^event \S+: artistIds\[0\]: unknown artist artMissing01$/);
    });

    test("a parent's list naming a missing member (counted by the early merge): the same problem, nothing written", async () => {
      const problems = await problemsOf(edited((c, v, i) => {
        if (c === 'artists' && i === 3) v.profileMediaIds = ['medMissing01'];
      }), true);
      assert.equal(problems.length, 1);
      assert.match(problems[0]!, /^artist \S+: profileMediaIds\[0\]: unknown media medMissing01$/);
    });

    test('parents the early checks decline (a repeated publicId, a dangling single reference): the same problems', async () => {
      const repeated = await problemsOf(edited((c, v, i) => {
        if (c === 'venues' && i === 1) v.publicId = (DEMO().find(([k]) => k === 'venues')![1] as { publicId: string }).publicId;
      }), false);
      assert.ok(repeated.some((p) => /^venue \S+: publicId: duplicate \(appears 2 times in venues\)$/.test(p)), repeated.join('\n'));
      const dangling = await problemsOf(edited((c, v, i) => {
        if (c === 'series' && i === 0) v.profileMediaId = 'medMissing01';
      }), false);
      assert.ok(dangling.some((p) => /^series \S+: profileMediaId: unknown media medMissing01$/.test(p)), dangling.join('\n'));
    });

    test('a held Events batch whose COPY fails fails the import, and nothing is written', async () => {
      for (const failAt of [1, 3]) {
        await resetCatalogue(store.db);
        const failing = observed(store.db, failAt);
        await assert.rejects(importEntities(failing.db, DEMO(), { batchSize: 23, parentsFirst: true }), /a staging COPY failed \(test\)/);
        assert.ok(failing.mergedAtEventCopy.every((merged) => merged));
        assert.ok(Object.values(await tableCounts(store.db)).every((n) => n === 0));
        // the connection went back to the pool usable, outside any transaction
        const { rows } = await store.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM media');
        assert.equal(rows[0]!.n, 0);
      }
    });
  });
}
