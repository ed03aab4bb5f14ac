/** src/text/digest.ts: the one-shot digests equal a Hash object's, for text (UTF-8) and bytes. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { digest, digestBytes, type DigestAlgorithm } from '../../src/text/digest.js';

const inputs: (string | Buffer)[] = ['', 'lineup-cursor:abc', 'Zürich — 東京 🎸', Buffer.from([0, 255, 1, 254]), Buffer.alloc(70_000, 7)];
const algorithms: DigestAlgorithm[] = ['md5', 'sha1', 'sha256'];

it('digestBytes and digest digest text as UTF-8 and bytes as they are', () => {
  for (const algorithm of algorithms) {
    for (const input of inputs) {
      const expected = createHash(algorithm).update(input).digest();
      const bytes = digestBytes(algorithm, input);
      assert.ok(Buffer.isBuffer(bytes));
      assert.deepEqual(bytes, expected);
      assert.equal(digest(algorithm, input, 'base64url'), expected.toString('base64url'));
      assert.equal(digest(algorithm, input, 'hex'), expected.toString('hex'));
    }
  }
});
