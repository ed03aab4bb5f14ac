/**
 * The import summary on both engines: per kind, new, changed (whoever moved the marker: the
 * import or the document's own updatedAt), unchanged, deactivated and removed (--replace), and
 * the line `lineup import` prints from it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CollectionCounts } from '../../src/catalogue/importer.js';
import { describeImport } from '../../src/catalogue/summary.js';
import { E, fullDocument } from './fixture.js';
import { clone, importDoc, storePerSuite, testEngines } from './support.js';

const counts = (c: CollectionCounts) => ({ new: c.inserted, changed: c.changed, unchanged: c.unchanged, deactivated: c.deactivated, removed: c.deleted });

for (const engine of testEngines()) {
  describe(`import summary (${engine.name})`, () => {
    const store = storePerSuite(engine);

    test('a first import: every entity new', async () => {
      const s = await importDoc(store.db, fullDocument());
      assert.deepEqual(counts(s.collections.events), { new: 3, changed: 0, unchanged: 0, deactivated: 0, removed: 0 });
      assert.deepEqual(counts(s.collections.media), { new: 4, changed: 0, unchanged: 0, deactivated: 0, removed: 0 });
    });

    test('the same document again: every entity unchanged, and the line says so', async () => {
      await importDoc(store.db, fullDocument());
      const s = await importDoc(store.db, fullDocument());
      for (const [kind, c] of Object.entries(s.collections)) {
        assert.deepEqual(counts(c), { new: 0, changed: 0, unchanged: c.imported, deactivated: 0, removed: 0 }, kind);
        assert.ok(c.imported > 0, kind);
      }
      const line = describeImport(s);
      assert.match(line, /events 3 \(0 new, 0 changed, 3 unchanged, 0 deactivated, 0 removed\)/);
      assert.doesNotMatch(line, /[1-9]\d* (new|changed|deactivated|removed)/);
    });

    test('every Event renamed with explicit updatedAt values: all changed', async () => {
      await importDoc(store.db, fullDocument());
      const doc = fullDocument();
      doc.events!.forEach((e, i) => Object.assign(e, { name: `Renamed ${i}`, updatedAt: `2030-01-0${i + 1}T00:00:00Z` }));
      const s = await importDoc(store.db, doc);
      assert.deepEqual(counts(s.collections.events), { new: 0, changed: 3, unchanged: 0, deactivated: 0, removed: 0 });
      assert.equal(s.collections.events.markersAdvanced, 0, 'no marker was moved by the import itself');
      assert.equal(s.collections.artists.unchanged, s.collections.artists.imported);
    });

    test('an explicit updatedAt moved alone counts as changed; the same one given again does not', async () => {
      const doc = fullDocument();
      await importDoc(store.db, doc);
      const cancelled = doc.events!.find((e) => e.publicId === E.cancelled)!;
      cancelled.updatedAt = '2031-02-03T04:05:06Z';
      const moved = await importDoc(store.db, doc);
      assert.deepEqual(counts(moved.collections.events), { new: 0, changed: 1, unchanged: 2, deactivated: 0, removed: 0 });
      const again = await importDoc(store.db, doc);
      assert.deepEqual(counts(again.collections.events), { new: 0, changed: 0, unchanged: 3, deactivated: 0, removed: 0 });
    });

    test('a membership changed and an Event deactivated: changed, one of them deactivated; a new one', async () => {
      await importDoc(store.db, fullDocument());
      const doc = fullDocument();
      const full = doc.events!.find((e) => e.publicId === E.full)!;
      full.artistIds = full.artistIds!.slice(1);
      const minimal = doc.events!.find((e) => e.publicId === E.minimal)!;
      minimal.active = false;
      doc.events!.push({ ...clone(minimal), publicId: E.full.replace('evt', 'evn'), active: true });
      const s = await importDoc(store.db, doc);
      assert.deepEqual(counts(s.collections.events), { new: 1, changed: 2, unchanged: 1, deactivated: 1, removed: 0 });
      assert.match(describeImport(s), /events 4 \(1 new, 2 changed, 1 unchanged, 1 deactivated, 0 removed\)/);
    });

    test('--replace: the entities the document lacks are removed, the rest unchanged', async () => {
      await importDoc(store.db, fullDocument());
      const doc = fullDocument();
      doc.events = doc.events!.filter((e) => e.publicId !== E.minimal);
      const s = await importDoc(store.db, doc, { replace: true });
      assert.deepEqual(counts(s.collections.events), { new: 0, changed: 0, unchanged: 2, deactivated: 0, removed: 1 });
    });
  });
}
