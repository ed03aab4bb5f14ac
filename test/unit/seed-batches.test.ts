/**
 * `lineup seed` in worker threads (src/catalogue/demo/seed-workers.ts): how the document is cut
 * into batches, and the driver's order and failure handling with real workers, no database.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { demoCatalogueOf, demoEntities, demoSegments, type DemoSegment } from '../../src/catalogue/demo.js';
import { batchCount, batchEntities } from '../../src/catalogue/demo/seed-batches.js';
import { stageDemoInParallel } from '../../src/catalogue/demo/seed-workers.js';
import type { EncodedBatch } from '../../src/catalogue/staging-batch.js';

const segment = (collection: DemoSegment['collection'], count: number): DemoSegment => ({ collection, count, entity: (i) => `${collection}${i}` });

describe('seed batches', () => {
  test('batch b is the document\'s entities [b·size, (b+1)·size), across arrays, empty arrays skipped', () => {
    const segments = [segment('media', 3), segment('artists', 0), segment('venues', 5), segment('events', 1)];
    assert.equal(batchCount(segments, 4), 3);
    const batches = [0, 1, 2, 3].map((b) => [...batchEntities(segments, b, 4)].map(([c, i]) => `${c}${i}`));
    assert.deepEqual(batches, [['media0', 'media1', 'media2', 'venues0'], ['venues1', 'venues2', 'venues3', 'venues4'], ['events0'], []]);
    assert.equal(batchCount([segment('media', 0)], 4), 0);
  });

  test('the demo\'s segments list its entities in document order', () => {
    const opts = { events: 40, seed: 'segments', anchorDate: '2026-03-15' };
    const fromSegments = demoSegments(demoCatalogueOf(opts)).flatMap((s) => Array.from({ length: s.count }, (_, i) => [s.collection, s.entity(i)]));
    assert.deepEqual(fromSegments, [...demoEntities(opts)]);
  });
});

describe('seed workers', () => {
  const opts = { events: 120, seed: 'workers', anchorDate: '2026-03-15' };
  /** The first cell of a staged row is its index in its array (`ord`). */
  const ords = (batch: EncodedBatch) => batch.tables.flatMap(({ collection, text }) =>
    textOf(text).split('\n').filter(Boolean).map((row) => `${collection}:${row.slice(0, row.indexOf('\t'))}`));
  const textOf = (text: string | Uint8Array) => (typeof text === 'string' ? text : Buffer.from(text).toString('utf8'));

  for (const workers of [1, 2, 3]) {
    test(`${workers} worker(s): every batch staged once, in document order, one at a time`, async () => {
      const staged: string[] = [];
      let active = 0;
      await stageDemoInParallel(opts, workers, 23, async (batch) => {
        assert.equal(++active, 1, 'one batch at a time');
        // the first batches finish last: the later ones wait in order
        await new Promise((resolve) => setTimeout(resolve, staged.length < 3 ? 20 : 0));
        staged.push(...ords(batch));
        active--;
      });
      const expected: string[] = [];
      const index = new Map<string, number>();
      for (const [c] of demoEntities(opts)) {
        const i = index.get(c) ?? 0;
        index.set(c, i + 1);
        expected.push(`${c}:${i}`);
      }
      assert.deepEqual(staged, expected);
    });
  }

  test('a batch\'s bytes are moved, not copied: back to their worker once staged', async () => {
    const views: Uint8Array[] = [];
    await stageDemoInParallel(opts, 2, 23, async (batch) => {
      for (const { text } of batch.tables) {
        assert.ok(text instanceof Uint8Array && text.byteLength > 0);
        views.push(text);
      }
    });
    // every batch's buffer but the last two (their workers may have ended) went back: detached here
    assert.ok(views.length > 6);
    for (const view of views.slice(0, -4)) assert.equal(view.byteLength, 0);
  });

  test('a failing batch stops the workers and rejects; nothing is staged after it', async () => {
    let calls = 0;
    await assert.rejects(
      stageDemoInParallel(opts, 2, 10, async () => {
        if (++calls === 3) throw new Error('the database went away');
      }),
      /the database went away/,
    );
    const at = calls;
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(calls, at);
  });
});
