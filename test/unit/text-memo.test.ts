import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deepFreeze } from '../../src/text/deep-freeze.js';
import { TextMemo } from '../../src/queries/text-memo.js';

/** A JSON text's value, frozen as the memo's parsers freeze theirs. */
const deepFrozenJson = (text: string) => deepFreeze(JSON.parse(text) as unknown);

test('TextMemo: one parse per distinct text of a slot; another text in the same slot is parsed, never the old value', () => {
  const parsed: string[] = [];
  const memo = new TextMemo<unknown>(10, (t) => (parsed.push(t), deepFrozenJson(t)));
  const a = memo.get('1', '{"name":"a"}');
  assert.equal(memo.get('1', '{"name":"a"}'), a, 'the same text: the same shared value');
  assert.deepEqual(memo.get('1', '{"name":"b"}'), { name: 'b' }, 'a changed row is parsed again');
  assert.equal(memo.get('1', '{"name":"a"}'), a, 'both selections of a slot are kept');
  assert.deepEqual(memo.get('2', '{"name":"a"}'), { name: 'a' });
  assert.deepEqual(parsed, ['{"name":"a"}', '{"name":"b"}', '{"name":"a"}']);
});

test('TextMemo: bounded by slots (oldest out) and by texts per slot', () => {
  let parses = 0;
  const memo = new TextMemo<unknown>(2, (t) => (parses++, JSON.parse(t)));
  memo.get('1', '1');
  memo.get('2', '2');
  memo.get('3', '3'); // slot 1 out
  memo.get('2', '2');
  assert.equal(parses, 3);
  memo.get('1', '1');
  assert.equal(parses, 4, 'the evicted slot is parsed again');
  for (const t of ['10', '11', '12']) memo.get('9', t);
  parses = 0;
  memo.get('9', '12');
  memo.get('9', '11');
  assert.equal(parses, 0, 'the last two texts of a slot are kept');
  memo.get('9', '10');
  assert.equal(parses, 1, 'the third-last is gone');
});

test('deepFreeze: every object and array in the value is frozen (values are shared by requests)', () => {
  const v = deepFrozenJson('{"links":[{"url":"https://x.org","label":null}],"n":1}') as { links: { url: string }[] };
  assert.ok(Object.isFrozen(v) && Object.isFrozen(v.links) && Object.isFrozen(v.links[0]));
  assert.throws(() => {
    'use strict';
    (v.links[0] as { url: string }).url = 'x';
  });
});
