/** Self-checks of the reference model (test/model/events-model.ts), independent of the service. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareBytes, fold, likeContains, modelPhase, todayIn, utcMicros, zoneKnown } from '../model/events-model.js';

describe('events model', () => {
  test('utcMicros normalizes offsets and fractions', () => {
    assert.equal(utcMicros('2025-07-01T12:30:00+02:00'), '2025-07-01T10:30:00.000000Z');
    assert.equal(utcMicros('2025-10-01T14:00:00.123456+02:00'), '2025-10-01T12:00:00.123456Z');
    assert.equal(utcMicros('2025-06-30T23:30:00-02:30'), '2025-07-01T02:00:00.000000Z');
    assert.equal(utcMicros('1970-01-01T00:00:00Z'), '1970-01-01T00:00:00.000000Z');
    assert.equal(utcMicros('2025-07-01T10:30:00.5Z'), '2025-07-01T10:30:00.500000Z');
  });

  test('compareBytes is UTF-8 order, not UTF-16', () => {
    assert.ok(compareBytes('\uFF21', '\u{1F600}') < 0);
    assert.ok('\uFF21' > '\u{1F600}', 'UTF-16 code unit order differs');
    assert.ok(compareBytes('Z', 'a') < 0);
    assert.ok(compareBytes('a', 'Å') < 0);
    assert.equal(compareBytes('x', 'x'), 0);
  });

  test('likeContains: % and _ wildcards, everything else literal', () => {
    assert.ok(likeContains('100% techno', '100%'));
    assert.ok(likeContains('50-50 club', '50_50'));
    assert.ok(!likeContains('5050', '50_50'));
    assert.ok(likeContains('back\\slash', 'k\\s'));
    assert.ok(!likeContains('backslash', 'k\\s'));
    assert.ok(likeContains('a.b', '.'));
    assert.ok(!likeContains('ab', '.'));
    assert.ok(likeContains('zürich', 'z_rich'));
    assert.ok(likeContains('x', '%'));
    assert.ok(likeContains('(a+b)', '(a+b)'));
  });

  test('fold', () => {
    assert.equal(fold('Fête'), 'fete');
    assert.equal(fold('Beyoncé'), 'beyonce');
    assert.equal(fold('ﬁnal'), 'final');
    assert.equal(fold('Straße'), 'straße');
  });

  test('zones and phases', () => {
    assert.ok(zoneKnown('Europe/Paris'));
    assert.ok(!zoneKnown('Mars/Olympus_Mons'));
    const now = new Date('2025-07-01T10:30:00Z');
    assert.equal(todayIn('Pacific/Kiritimati', now), '2025-07-02');
    assert.equal(todayIn('Pacific/Pago_Pago', now), '2025-06-30');
    const dt = (localDate: string, localTime: string, instant: string) => ({ precision: 'date-time' as const, localDate, localTime, instant });
    const d = (localDate: string) => ({ precision: 'date' as const, localDate });
    assert.deepEqual(modelPhase({ referenceTimeZoneId: 'UTC', start: dt('2025-07-01', '10:30', '2025-07-01T10:30:00Z') }, now), { phase: 'current', basis: 'inferred' });
    assert.deepEqual(modelPhase({ referenceTimeZoneId: 'UTC', start: dt('2025-07-01', '10:30', '2025-07-01T10:30:00.000001Z') }, now), { phase: 'upcoming', basis: 'exact' });
    assert.deepEqual(modelPhase({ referenceTimeZoneId: 'UTC', start: d('2025-07-01'), end: d('2025-07-01') }, now), { phase: 'current', basis: 'calendar' });
    assert.deepEqual(modelPhase({ referenceTimeZoneId: 'Mars/Olympus_Mons', start: d('2025-07-01') }, now), { phase: 'indeterminate', basis: 'incomplete' });
    assert.deepEqual(
      modelPhase({ referenceTimeZoneId: 'UTC', start: dt('2025-07-01', '09:00', '2025-07-01T09:00:00Z'), end: dt('2025-07-01', '10:30', '2025-07-01T10:30:00Z') }, now),
      { phase: 'historical', basis: 'exact' },
    );
  });
});
