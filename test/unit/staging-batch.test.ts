/**
 * A staging batch writes each row as it is encoded (src/catalogue/staging-batch.ts): one span of
 * COPY bytes per run of a collection, in the order the entities came, each row exactly once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demoEntities } from '../../src/catalogue/demo.js';
import { ProblemList } from '../../src/catalogue/document.js';
import { BatchEncoder } from '../../src/catalogue/staging-batch.js';
import { CopyWriter } from '../../src/db/copy.js';

const entities = [...demoEntities({ events: 20, seed: 'batch', anchorDate: '2026-01-15' })];
const of = (collection: string) => entities.filter(([c]) => c === collection).map(([, v]) => v);
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

test('one span per run of a collection, rows in the order they came, every row once', () => {
  const [media, artists] = [of('media'), of('artists')];
  const encoder = new BatchEncoder(new ProblemList());
  encoder.into(new CopyWriter(Buffer.allocUnsafeSlow(64))); // grows while written
  const runs: Array<['media' | 'artists', number, number]> = [['media', 0, 3], ['artists', 0, 2], ['media', 3, 5]];
  for (const [c, from, to] of runs) for (let i = from; i < to; i++) encoder.add(c, i, (c === 'media' ? media : artists)[i]);
  assert.equal(encoder.size, 7);
  const { tables } = encoder.take();
  assert.deepEqual(tables.map((t) => t.collection), ['media', 'artists', 'media']);
  const lines = tables.map((t) => text(t.text).split('\n').slice(0, -1));
  assert.deepEqual(lines.map((l) => l.length), [3, 2, 2]);
  // each row starts with its index in its array (the `ord` column)
  assert.deepEqual(lines.map((l) => l.map((row) => Number(row.split('\t')[0]))), [[0, 1, 2], [0, 1], [3, 4]]);
  assert.equal(encoder.size, 0);

  // the next batch goes to the writer given next; without one, adding is a programming error
  assert.throws(() => encoder.add('media', 5, media[5]), /into\(\)/);
  const writer = new CopyWriter();
  encoder.into(writer);
  encoder.add('media', 5, media[5]);
  const [only] = encoder.take().tables;
  assert.equal(only!.collection, 'media');
  assert.equal(text(only!.text).split('\t')[0], '5');
});
