/**
 * Structural validation of single entities (no database): exact problem messages for every
 * kind of error, formats (publicId, dates with leap years, instants, local times), defaults,
 * and the projection rules that are deliberately NOT checked.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ProblemList, type Collection } from '../../src/catalogue/document.js';
import { isLocalDate, isPublicId, isScheduleInstant, isUtcInstant } from '../../src/catalogue/formats.js';
import { validateEntity } from '../../src/catalogue/validate.js';
import { fullDocument, fullEvent } from './fixture.js';

function problems(collection: Collection, value: unknown, index = 0): string[] {
  const list = new ProblemList();
  validateEntity(collection, value, index, list);
  return list.items;
}

const EV = fullEvent.publicId;
const ev = (patch: Record<string, unknown>) => ({ ...structuredClone(fullEvent), ...patch });
const withSchedule = (schedule: unknown) => ev({ schedule });
const zone = 'Europe/Paris';

describe('formats', () => {
  test('publicId: exactly 12 characters of 0-9A-Za-z', () => {
    for (const ok of ['0123456789ab', 'ABCDEFGHIJKL', 'zzzzzzzzzzzz']) assert.ok(isPublicId(ok), ok);
    for (const bad of ['0123456789a', '0123456789abc', '0123456789a-', '0123456789aé', '', 123456789012, null])
      assert.ok(!isPublicId(bad), String(bad));
  });

  test('dates: real calendar dates with leap years, years 0001-9999', () => {
    for (const ok of ['2024-02-29', '2000-02-29', '1600-02-29', '0001-01-01', '9999-12-31', '2023-04-30', '2023-12-31'])
      assert.ok(isLocalDate(ok), ok);
    for (const bad of ['2023-02-29', '1900-02-29', '2100-02-29', '0000-01-01', '10000-01-01', '2024-13-01', '2024-00-10',
      '2024-04-31', '2024-01-00', '2024-1-01', '2024-01-1', ' 2024-01-01', '2024-01-01T00:00', '2024/01/01', 20240101])
      assert.ok(!isLocalDate(bad), String(bad));
  });

  test('dates agree with the proleptic Gregorian calendar (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (y, m, d) => {
        const text = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        const date = new Date(0);
        date.setUTCFullYear(y, m - 1, d);
        const real = date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
        return isLocalDate(text) === real;
      }),
    );
  });

  test('schedule instants: seconds required, optional fraction, Z or ±hh:mm', () => {
    for (const ok of ['2025-07-01T20:00:00Z', '2025-07-01T20:00:00.1Z', '2025-07-01T20:00:00.123456789+05:30',
      '2025-07-01T20:00:00-03:00', '2024-02-29T23:59:59+14:00', '2025-01-01T00:00:00-15:59'])
      assert.ok(isScheduleInstant(ok), ok);
    for (const bad of ['2025-07-01T20:00Z', '2025-07-01 20:00:00Z', '2025-07-01T20:00:00', '2025-07-01T20:00:00z',
      '2025-07-01T24:00:00Z', '2025-07-01T20:60:00Z', '2025-07-01T20:00:60Z', '2023-02-29T20:00:00Z', '2025-07-01T20:00:00+0530',
      '2025-07-01T20:00:00+16:00', '2025-07-01T20:00:00+05:60', '2025-07-01T20:00:00.Z', '2025-07-01T20:00:00.1234567890Z'])
      assert.ok(!isScheduleInstant(bad), bad);
  });

  test('explicit updatedAt: UTC, seconds, 1-6 fractional digits, Z', () => {
    for (const ok of ['2025-07-01T20:00:00Z', '2025-07-01T20:00:00.1Z', '2025-07-01T20:00:00.123456Z', '2024-02-29T00:00:00Z'])
      assert.ok(isUtcInstant(ok), ok);
    for (const bad of ['2025-07-01T20:00:00.1234567Z', '2025-07-01T20:00:00+00:00', '2025-07-01T20:00Z', '2023-02-29T00:00:00Z'])
      assert.ok(!isUtcInstant(bad), bad);
  });
});

describe('entities', () => {
  test('every entity of the complete fixture is valid', () => {
    const doc = fullDocument();
    for (const [collection, items] of Object.entries(doc) as [Collection, unknown[]][])
      items.forEach((item, i) => assert.deepEqual(problems(collection, item, i), [], `${collection}[${i}]`));
  });

  test('defaults: active true, lists [], nullable values null, publishCoordinates false', () => {
    const list = new ProblemList();
    const v = validateEntity('venues', { publicId: 'ven000000001', slug: 's', name: 'n', statusCode: 'operational' }, 0, list);
    assert.deepEqual(v.record, {
      publicId: 'ven000000001', active: true, updatedAt: null, authoring: null, slug: 's', name: 'n', description: null,
      statusCode: 'operational', capacity: null, contact: null, address: null, coordinates: null, publishCoordinates: false,
      addressProvenance: null, timeZoneSuggestion: null, profileMediaId: null, links: [],
    });
    const e = validateEntity('events', { ...structuredClone(fullEvent), links: [{ url: 'https://x.example' }] }, 0, list);
    assert.deepEqual(e.record?.links, [{ url: 'https://x.example', label: null }]);
    assert.equal(e.record?.schedule.end?.precision, 'date-time');
    assert.equal(list.total, 0);
  });

  test('an entity that is not an object is named by its position', () => {
    assert.deepEqual(problems('events', [1], 4), ['event #4: must be an object']);
    assert.deepEqual(problems('media', null, 0), ['media #0: must be an object']);
    assert.deepEqual(problems('artists', 'x', 2), ['artist #2: must be an object']);
  });

  test('a missing or malformed publicId: the entity is named by its position', () => {
    assert.deepEqual(problems('series', { slug: 's', name: 'n', structureCode: 'direct' }, 3), ['series #3: publicId: is required']);
    assert.deepEqual(problems('series', { publicId: 'short', slug: 's', name: 'n', structureCode: 'direct' }, 3), [
      'series #3: publicId: not a valid publicId (12 characters of 0-9A-Za-z)',
    ]);
  });

  test('every problem of an entity is reported, in field order', () => {
    assert.deepEqual(
      problems('events', { publicId: EV, active: 'yes', updatedAt: '2025-07-01T20:00:00+00:00', slug: 1, bogus: true, schedule: 'x' }),
      [
        `event ${EV}: bogus: unknown key`,
        `event ${EV}: active: must be a boolean`,
        `event ${EV}: updatedAt: not a valid updatedAt (UTC YYYY-MM-DDTHH:MM:SS with an optional 1-6 digit fraction, then Z)`,
        `event ${EV}: slug: must be a string`,
        `event ${EV}: name: is required`,
        `event ${EV}: administrativeStateCode: is required`,
        `event ${EV}: schedule: must be an object`,
      ],
    );
  });

  test('enums', () => {
    assert.deepEqual(problems('media', { publicId: 'med000000001', status: 'done' }), [
      'media med000000001: status: must be one of pending, ready, failed',
    ]);
    assert.deepEqual(problems('venues', { publicId: 'ven000000001', slug: 's', name: 'n', statusCode: 'closed' }), [
      'venue ven000000001: statusCode: must be one of operational, on-hiatus, permanently-closed',
    ]);
    assert.deepEqual(problems('series', { publicId: 'ser000000001', slug: 's', name: 'n', structureCode: 'tree' }), [
      'series ser000000001: structureCode: must be one of direct, editioned',
    ]);
    assert.deepEqual(problems('events', ev({ administrativeStateCode: 'postponed', eventTypeCode: 'opera' })), [
      `event ${EV}: eventTypeCode: must be one of concert, dj-set, festival-day, livestream, other or null`,
      `event ${EV}: administrativeStateCode: must be one of scheduled, cancelled`,
    ]);
    assert.deepEqual(problems('events', ev({ digitalLocations: [{ url: 'https://x.example', label: null, kindCode: 'radio' }] })), [
      `event ${EV}: digitalLocations[0].kindCode: must be one of livestream, stream-replay, virtual-venue, other`,
    ]);
  });

  test('schedule boundaries', () => {
    const start = { precision: 'date', localDate: '2025-07-01' };
    assert.deepEqual(problems('events', withSchedule({ referenceTimeZoneId: zone, start: { precision: 'date', localDate: '2025-02-29' } })), [
      `event ${EV}: schedule.start.localDate: not a valid date`,
    ]);
    assert.deepEqual(
      problems('events', withSchedule({ referenceTimeZoneId: zone, start: { precision: 'date', localDate: '2025-07-01', localTime: '20:00', instant: '2025-07-01T20:00:00Z' } })),
      [`event ${EV}: schedule.start.localTime: not allowed when precision is date`, `event ${EV}: schedule.start.instant: not allowed when precision is date`],
    );
    assert.deepEqual(problems('events', withSchedule({ referenceTimeZoneId: zone, start, end: { precision: 'date-time', localDate: '2025-07-02' } })), [
      `event ${EV}: schedule.end.localTime: is required`,
      `event ${EV}: schedule.end.instant: is required`,
    ]);
    assert.deepEqual(
      problems('events', withSchedule({ referenceTimeZoneId: zone, start: { precision: 'date-time', localDate: '2025-07-01', localTime: '24:00', instant: '2025-07-01T20:00Z' } })),
      [
        `event ${EV}: schedule.start.localTime: not a valid local time (HH:MM)`,
        `event ${EV}: schedule.start.instant: not a valid instant (YYYY-MM-DDTHH:MM:SS, optional fraction, then Z or ±hh:mm)`,
      ],
    );
    assert.deepEqual(problems('events', withSchedule({ referenceTimeZoneId: zone, start: { localDate: '2025-07-01' }, end: { precision: 'day', localDate: '2025-07-01' } })), [
      `event ${EV}: schedule.start.precision: is required`,
      `event ${EV}: schedule.end.precision: must be one of date, date-time`,
    ]);
    assert.deepEqual(problems('events', withSchedule({ referenceTimeZoneId: '', start })), [
      `event ${EV}: schedule.referenceTimeZoneId: must be a string of 1-255 characters`,
    ]);
    assert.deepEqual(problems('events', withSchedule({ referenceTimeZoneId: 'x'.repeat(256), start })), [
      `event ${EV}: schedule.referenceTimeZoneId: must be a string of 1-255 characters`,
    ]);
    assert.deepEqual(problems('events', withSchedule({ referenceTimeZoneId: 'x'.repeat(255), start, end: null })), []);
    assert.deepEqual(problems('events', withSchedule({ start })), [`event ${EV}: schedule.referenceTimeZoneId: is required`]);
    assert.deepEqual(problems('events', withSchedule({ referenceTimeZoneId: zone })), [`event ${EV}: schedule.start: is required`]);
    // computed fields of the API's output are not part of the document
    assert.deepEqual(problems('events', withSchedule({ referenceTimeZoneId: zone, start, temporalPhaseCode: 'upcoming' })), [
      `event ${EV}: schedule.temporalPhaseCode: unknown key`,
    ]);
    assert.deepEqual(problems('events', withSchedule({ referenceTimeZoneId: zone, start: { ...start, extra: 1 } })), [
      `event ${EV}: schedule.start.extra: unknown key`,
    ]);
  });

  test('leap years in every date field', () => {
    const edition = (startLocalDate: string, endLocalDate: string | null) =>
      problems('editions', { publicId: 'edi000000001', seriesId: 'ser000000001', slug: 's', name: 'n', startLocalDate, endLocalDate });
    assert.deepEqual(edition('2024-02-29', '2000-02-29'), []);
    assert.deepEqual(edition('1900-02-29', '2100-02-29'), [
      'edition edi000000001: startLocalDate: not a valid date',
      'edition edi000000001: endLocalDate: not a valid date or null',
    ]);
  });

  test('references: publicIds, lists, duplicates in membership sets', () => {
    assert.deepEqual(problems('events', ev({ artistIds: ['art000000001', 'bad', 'art000000001'], venueIds: 'ven000000001', profileMediaId: 7 })), [
      `event ${EV}: profileMediaId: not a valid publicId (12 characters of 0-9A-Za-z) or null`,
      `event ${EV}: artistIds[1]: not a valid publicId (12 characters of 0-9A-Za-z)`,
      `event ${EV}: artistIds[2]: duplicate reference art000000001`,
      `event ${EV}: venueIds: must be an array`,
    ]);
    // galleries and legacy profile lists are positional: repeats are allowed
    assert.deepEqual(problems('events', ev({ galleryMediaIds: ['med000000001', 'med000000001'] })), []);
    assert.deepEqual(problems('artists', { publicId: 'art000000001', slug: 's', name: 'n', profileMediaIds: ['med000000001', 'med000000001'] }), []);
    assert.deepEqual(problems('editions', { publicId: 'edi000000001', slug: 's', name: 'n', startLocalDate: '2025-01-01' }), [
      'edition edi000000001: seriesId: is required',
    ]);
  });

  test('nested objects: types and unknown keys', () => {
    const venue = (patch: Record<string, unknown>) =>
      problems('venues', { publicId: 'ven000000001', slug: 's', name: 'n', statusCode: 'operational', ...patch });
    assert.deepEqual(venue({ contact: { email: 1, fax: 'x' } }), [
      'venue ven000000001: contact.fax: unknown key',
      'venue ven000000001: contact.email: must be a string or null',
    ]);
    assert.deepEqual(venue({ address: { street: 'x', locality: 5 } }), [
      'venue ven000000001: address.street: unknown key',
      'venue ven000000001: address.locality: must be a string or null',
    ]);
    assert.deepEqual(venue({ coordinates: { latitude: '1' } }), [
      'venue ven000000001: coordinates.latitude: must be a finite number',
      'venue ven000000001: coordinates.longitude: is required',
    ]);
    assert.deepEqual(venue({ contact: [], address: 'x', coordinates: 1, publishCoordinates: 'no', capacity: 1.5 }), [
      'venue ven000000001: contact: must be an object or null',
      'venue ven000000001: address: must be an object or null',
      'venue ven000000001: coordinates: must be an object or null',
      'venue ven000000001: capacity: must be an integer or null',
      'venue ven000000001: publishCoordinates: must be a boolean',
    ]);
    assert.deepEqual(venue({ authoring: 'x', addressProvenance: 'manual' }), ['venue ven000000001: authoring: must be an object or null']);
  });

  test('URL entries: only the types are checked', () => {
    assert.deepEqual(problems('events', ev({ links: [{ url: 'ftp://x.example', label: '' }, { url: 'not a url' }, { url: '' }] })), []);
    assert.deepEqual(problems('events', ev({ links: Array.from({ length: 30 }, (_, i) => ({ url: `https://x.example/${i}`, label: null })) })), []);
    assert.deepEqual(problems('events', ev({ links: [{ url: 1, label: 2, title: 'x' }, 'https://x.example'], ticketLinks: {} })), [
      `event ${EV}: links[0].title: unknown key`,
      `event ${EV}: links[0].url: must be a string`,
      `event ${EV}: links[0].label: must be a string or null`,
      `event ${EV}: links[1]: must be an object`,
      `event ${EV}: ticketLinks: must be an array`,
    ]);
  });

  test('media sizes: integers of any sign (positivity is a projection rule)', () => {
    const media = (patch: Record<string, unknown>) => problems('media', { publicId: 'med000000001', status: 'ready', ...patch });
    assert.deepEqual(media({ width: 0, height: -3 }), []);
    assert.deepEqual(media({ width: 9007199254740992 }), []);
    assert.deepEqual(media({ width: 1.5, height: '100' }), [
      'media med000000001: width: must be an integer or null',
      'media med000000001: height: must be an integer or null',
    ]);
    assert.deepEqual(media({ width: 1e19 }), ['media med000000001: width: must be an integer or null']);
  });

  test('text PostgreSQL cannot store is refused (NUL, unpaired surrogates)', () => {
    assert.deepEqual(problems('events', ev({ name: 'a\u0000b', description: 'x\ud800', authoring: { note: 'y\u0000' } })), [
      `event ${EV}: authoring.note: must not contain NUL characters or unpaired surrogates`,
      `event ${EV}: name: must not contain NUL characters or unpaired surrogates`,
      `event ${EV}: description: must not contain NUL characters or unpaired surrogates`,
    ]);
    assert.deepEqual(problems('events', ev({ name: 'emoji 🎸 ok' })), []);
  });

  test('empty names and slugs are accepted (non-empty is a projection rule)', () => {
    assert.deepEqual(problems('artists', { publicId: 'art000000001', slug: '', name: '' }), []);
  });
});
