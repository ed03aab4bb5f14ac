/** `asParsed` (src/catalogue/stream.ts): an in-process entity as its JSON text would parse. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asParsed } from '../../src/catalogue/stream.js';

test('what JSON would drop or turn into null, and nothing else', () => {
  const cases: unknown[] = [
    { a: 1, b: undefined, c: { d: undefined, e: [1, undefined, { f: undefined, g: 'x' }] } },
    [undefined, { a: undefined }, [undefined]],
    { nested: { deeper: { list: [null, 0, '', false] } }, last: undefined },
    'text', 3, null, true, [],
  ];
  for (const value of cases) assert.deepEqual(asParsed(value), JSON.parse(JSON.stringify(value) ?? 'null'));
});

test('copies only what differs: an entity with nothing to drop is returned as it is', () => {
  const shared = { list: [1, 2], inner: { k: 'v' } };
  assert.equal(asParsed(shared), shared);
  const withHole = { keep: shared, drop: undefined, inner: { k: 'v', gone: undefined } };
  const parsed = asParsed(withHole) as Record<string, unknown>;
  assert.notEqual(parsed, withHole);
  assert.equal(parsed.keep, shared); // the unchanged part is not copied
  assert.deepEqual(parsed, { keep: shared, inner: { k: 'v' } });
  assert.deepEqual(withHole.inner, { k: 'v', gone: undefined }); // the input is not changed
});
