/** Cursor encoding (spec: GET /v1/events rules 7-9; decisions §5 "Cursors"). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { MAX_CURSOR_LENGTH, controlsFingerprint, decodeCursor, encodeCursor, openCursor, sealCursor } from '../../src/controls/cursor.js';
import { publicError, type ApiError } from '../../src/http/errors.js';

const fp = controlsFingerprint('/v1/events', 'limit=2');

function rejects(cursor: string, fingerprint = fp, arity = 4): ApiError {
  try {
    decodeCursor(cursor, fingerprint, arity);
  } catch (caught) {
    const { kind, error: err } = publicError(caught);
    assert.equal(kind, 'refusal');
    assert.equal(err.status, 400);
    assert.equal(err.type, 'invalid_query');
    assert.equal(err.details[0]?.parameter, 'cursor');
    return err;
  }
  assert.fail(`cursor accepted: ${cursor}`);
}

describe('cursor', () => {
  test('round trip keeps keys exactly (microsecond instants, ranks, nulls, unicode)', () => {
    const keys = ['2025-07-01', 0, '2025-07-01 10:30:00.000001+00', 'EvAug15date1'];
    assert.deepEqual(decodeCursor(encodeCursor(fp, keys), fp, 4), keys);
    const odd = ['-infinity', 1, null, 'Fête \u{1F600} \\ % _'];
    assert.deepEqual(decodeCursor(encodeCursor(fp, odd), fp, 4), odd);
    const c = encodeCursor(fp, keys);
    assert.match(c, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'URL-safe');
    assert.ok(c.length <= MAX_CURSOR_LENGTH);
  });

  test('property: round trip for arbitrary keys', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.constant(null)), { minLength: 1, maxLength: 4 }), (keys) => {
        assert.deepEqual(decodeCursor(encodeCursor(fp, keys), fp, keys.length), keys);
      }),
    );
  });

  test('any altered character → 400 (never a silently different page)', () => {
    const c = encodeCursor(fp, ['2025-07-01', 0, '2025-07-01 10:30:00+00', 'EvAug15date1']);
    const alphabet = 'ABCabc012_-.';
    for (let i = 0; i < c.length; i++) {
      for (const ch of alphabet) {
        if (c[i] === ch) continue;
        const altered = c.slice(0, i) + ch + c.slice(i + 1);
        rejects(altered);
      }
    }
    rejects(c + 'A');
    rejects(c.slice(0, -1));
    rejects('A' + c);
  });

  test('malformed shapes → 400', () => {
    for (const c of ['', 'x', '.', 'abc.', '.abc', 'a.b.c', '!!!.xyz', 'x'.repeat(MAX_CURSOR_LENGTH + 1)]) rejects(c);
  });

  test('another fingerprint (other controls) → 400 with a restart instruction; wrong arity → 400', () => {
    const c = encodeCursor(fp, ['a', 'b']);
    const err = rejects(c, controlsFingerprint('/v1/events', 'limit=3'), 2);
    assert.match(err.details[0]!.message, /restart|Restart/);
    rejects(c, fp, 4);
    rejects(encodeCursor(fp, [{ x: 1 } as unknown as string, 'b']), fp, 2);
  });

  test('a cursor opened again gives the same frozen keys; past the memo, every cursor still opens to its own; an altered one stays refused', () => {
    const keys = ['2025-07-01', 1, '2025-07-01 10:30:00.000001+00', 'EvAug15date1'];
    const c = encodeCursor(fp, keys);
    const first = decodeCursor(c, fp, 4);
    assert.deepEqual(first, keys);
    assert.equal(decodeCursor(c, fp, 4), first, 'the same opened keys');
    assert.ok(Object.isFrozen(first));
    assert.throws(() => ((first as unknown[])[0] = '1999-01-01'), TypeError);
    assert.deepEqual(decodeCursor(c, fp, 4), keys, 'unchanged for the next request');
    // the memo knows c; a cursor one character away is still checked
    rejects(c.slice(0, -1) + (c.endsWith('A') ? 'B' : 'A'));
    rejects(c, controlsFingerprint('/v1/events', 'limit=3'));
    const many = Array.from({ length: 2_500 }, (_, i) => ['2025-07-01', i % 2, null, `Ev${String(i).padStart(10, '0')}`]);
    for (const round of [0, 1]) {
      for (const k of many) assert.deepEqual(decodeCursor(encodeCursor(fp, k), fp, 4), k, `round ${round}`);
    }
    // a compact position's members are frozen too (controls/compact-cursor.ts reads them)
    const compact = openCursor(sealCursor([1, fp, { c: ['EvAug15date1'], h: 'x' }]));
    assert.ok(Object.isFrozen(compact.position) && Object.isFrozen((compact.position as { c: string[] }).c));
  });

  test('fingerprint depends on path and normalized query', () => {
    const a = controlsFingerprint('/v1/events', 'limit=2');
    assert.equal(a, controlsFingerprint('/v1/events', 'limit=2'));
    assert.notEqual(a, controlsFingerprint('/v1/events', 'limit=3'));
    assert.notEqual(a, controlsFingerprint('/v1/venues', 'limit=2'));
  });

  test('fingerprints kept for repeated controls are the digests themselves, also after the memo was full and forgotten', () => {
    const direct = (path: string, q: string) => createHash('sha256').update(`${path}?${q}`).digest().subarray(0, 12).toString('base64url');
    const queries = Array.from({ length: 2_500 }, (_, i) => `limit=${(i % 50) + 1}&nameContains=t${i}`);
    for (const round of [0, 1]) {
      for (const q of queries) assert.equal(controlsFingerprint('/v1/events', q), direct('/v1/events', q), `round ${round}: ${q}`);
    }
    assert.equal(controlsFingerprint('/v1/venues', queries[0]!), direct('/v1/venues', queries[0]!));
  });
});
