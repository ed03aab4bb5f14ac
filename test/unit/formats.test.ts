/** Common formats (spec: Resources › Common formats; GET /v1/events parameter table). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { daysInMonth, isDate, isPublicId, normalizeQueryInstant, trimmedTerm } from '../../src/controls/formats.js';

describe('formats', () => {
  test('isDate: calendar dates with leap years, years 0001-9999', () => {
    for (const v of ['2024-02-29', '2000-02-29', '1600-02-29', '0001-01-01', '9999-12-31', '2025-04-30', '2025-12-31']) assert.ok(isDate(v), v);
    for (const v of ['2023-02-29', '1900-02-29', '2100-02-29', '0000-01-01', '2025-13-01', '2025-00-01', '2025-04-31', '2025-06-31', '2025-01-32', '2025-01-00', '2025-1-01', '25-01-01', '20250101', '2025-01-01 ', '+2025-01-01', '2025-01-01T00:00:00Z', '１２３４-01-01']) {
      assert.ok(!isDate(v), v);
    }
    assert.equal(daysInMonth(2024, 2), 29);
    assert.equal(daysInMonth(2023, 2), 28);
    assert.equal(daysInMonth(2025, 11), 30);
    assert.equal(daysInMonth(2025, 13), 0);
  });

  test('normalizeQueryInstant: UTC, seconds required, 1-6 fractional digits, Z → exactly 6 digits', () => {
    assert.equal(normalizeQueryInstant('2025-07-01T10:00:00Z'), '2025-07-01T10:00:00.000000Z');
    assert.equal(normalizeQueryInstant('2025-07-01T10:00:00.1Z'), '2025-07-01T10:00:00.100000Z');
    assert.equal(normalizeQueryInstant('2025-07-01T10:00:00.12345Z'), '2025-07-01T10:00:00.123450Z');
    assert.equal(normalizeQueryInstant('2025-07-01T10:00:00.123456Z'), '2025-07-01T10:00:00.123456Z');
    assert.equal(normalizeQueryInstant('2024-02-29T23:59:59.999999Z'), '2024-02-29T23:59:59.999999Z');
    for (const v of [
      '2025-07-01T10:00:00.1234567Z',
      '2025-07-01T10:00:00+00:00',
      '2025-07-01T10:00:00-01:00',
      '2025-07-01T10:00Z',
      '2025-07-01T10:00:00',
      '2025-07-01T10:00:00.Z',
      '2025-07-01t10:00:00Z',
      '2025-07-01T10:00:00z',
      '2025-07-01 10:00:00Z',
      '2025-07-01T24:00:00Z',
      '2025-07-01T23:60:00Z',
      '2025-07-01T23:59:60Z',
      '2023-02-29T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '2025-07-01',
      '',
    ]) {
      assert.equal(normalizeQueryInstant(v), null, v);
    }
  });

  test('trimmedTerm: 1-200 characters (code points) after trimming', () => {
    assert.equal(trimmedTerm('  fête  '), 'fête');
    assert.equal(trimmedTerm('   '), null);
    assert.equal(trimmedTerm(''), null);
    assert.equal(trimmedTerm('x'.repeat(200)), 'x'.repeat(200));
    assert.equal(trimmedTerm('x'.repeat(201)), null);
    assert.equal(trimmedTerm('\u{1F600}'.repeat(200)), '\u{1F600}'.repeat(200), '200 astral characters are 200 characters');
    assert.equal(trimmedTerm(` ${'y'.repeat(200)} `), 'y'.repeat(200));
  });

  test('isPublicId: exactly 12 of 0-9A-Za-z', () => {
    assert.ok(isPublicId('Ab0123456789'));
    for (const v of ['Ab012345678', 'Ab01234567890', 'Ab012345678-', 'Ab012345678_', 'Äb0123456789', '']) assert.ok(!isPublicId(v), v);
  });
});
