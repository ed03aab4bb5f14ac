/** The compact cursor boundary (spec: Events rule 8, GET /v1/venues), as pure code. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkResolved, decodeBoundary, encodeBoundary, namesFingerprint } from '../../../src/controls/compact-cursor.js';
import { MAX_CURSOR_LENGTH, controlsFingerprint, decodeCursor, encodeCursor } from '../../../src/controls/cursor.js';
import { publicError } from '../../../src/http/errors.js';

const fp = controlsFingerprint('/v1/venues', 'limit=2');
const invalid = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (err: unknown) => {
    const { kind, error } = publicError(err);
    return kind === 'refusal' && error.status === 400 && pattern.test(JSON.stringify(error.details));
  });

describe('compact cursor boundary', () => {
  it('keeps the ordinary cursor while it fits in 1,024 characters', () => {
    const cursor = encodeBoundary(fp, ['Club', 've0000000001'], { ids: ['ve0000000001'], names: ['Club'] });
    assert.equal(cursor, encodeCursor(fp, ['Club', 've0000000001']));
    assert.deepEqual(decodeBoundary(cursor, fp, 2, 1), { kind: 'keys', keys: ['Club', 've0000000001'] });
  });

  it('switches to identity plus a SHA-256 name fingerprint for oversized names', () => {
    const name = 'ä'.repeat(700);
    assert.ok(encodeCursor(fp, [name, 've0000000001']).length > MAX_CURSOR_LENGTH);
    const cursor = encodeBoundary(fp, [name, 've0000000001'], { ids: ['ve0000000001'], names: [name] });
    assert.ok(cursor.length <= MAX_CURSOR_LENGTH);
    const boundary = decodeBoundary(cursor, fp, 2, 1);
    assert.deepEqual(boundary, { kind: 'compact', ids: ['ve0000000001'], namesHash: namesFingerprint([name]) });
    if (boundary.kind !== 'compact') return;
    checkResolved(boundary, [name]);
    invalid(() => checkResolved(boundary, [`${name}x`]), /restart the traversal without a cursor/i);
    invalid(() => checkResolved(boundary, null), /restart the traversal without a cursor/i);
  });

  it('binds two-part identities (Series, Edition) and their names in order', () => {
    const long = 'x'.repeat(900);
    const cursor = encodeBoundary(fp, ['S', 'se0000000001', long, 'ed0000000001'], { ids: ['se0000000001', 'ed0000000001'], names: ['S', long] });
    const boundary = decodeBoundary(cursor, fp, 4, 2);
    assert.equal(boundary.kind, 'compact');
    if (boundary.kind === 'compact') invalid(() => checkResolved(boundary, [long, 'S']), /restart/i);
    invalid(() => decodeBoundary(cursor, fp, 2, 1), /malformed/);
  });

  it('refuses altered, foreign and compact cursors where only keys are accepted', () => {
    const cursor = encodeBoundary(fp, ['n'.repeat(900), 've0000000001'], { ids: ['ve0000000001'], names: ['n'.repeat(900)] });
    invalid(() => decodeBoundary(cursor, controlsFingerprint('/v1/venues', 'limit=3'), 2, 1), /different controls/);
    invalid(() => decodeBoundary(`${cursor.slice(0, -1)}A`, fp, 2, 1), /malformed/);
    invalid(() => decodeCursor(cursor, fp, 2), /malformed/);
    invalid(() => decodeBoundary('abc', fp, 2, 1), /malformed/);
  });
});
