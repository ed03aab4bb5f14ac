/** src/text/sha256.ts: the one-shot digests equal a Hash object's, for text (UTF-8) and bytes. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { sha256Base64url, sha256Bytes } from '../../src/text/sha256.js';

const inputs: (string | Buffer)[] = ['', 'lineup-cursor:abc', 'Zürich — 東京 🎸', Buffer.from([0, 255, 1, 254]), Buffer.alloc(70_000, 7)];

it('sha256Bytes and sha256Base64url digest text as UTF-8 and bytes as they are', () => {
  for (const input of inputs) {
    const expected = createHash('sha256').update(input).digest();
    const bytes = sha256Bytes(input);
    assert.ok(Buffer.isBuffer(bytes));
    assert.deepEqual(bytes, expected);
    assert.equal(sha256Base64url(input), expected.toString('base64url'));
  }
});
