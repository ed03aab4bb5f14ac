/**
 * The body writer of success envelopes (present/envelope.ts) and the stored-preview memo
 * (queries/preview-texts.ts): the bytes are JSON.stringify's, RawJson is spliced in where it
 * stands, and one stored text is parsed once into shared, frozen rows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RawJson, envelopeBytes, objectEnvelope, pageEnvelope, serializeEnvelope } from '../../src/present/envelope.js';
import { artistPreviewRows, parsePreviewText, venuePreviewRows } from '../../src/queries/preview-texts.js';
import { STORED_PREVIEW_NAMES } from '../../src/queries/event-relations.js';

test('without RawJson, the bytes of JSON.stringify (escapes, nesting, undefined, null, toJSON, non-ASCII)', () => {
  const samples: unknown[] = [
    pageEnvelope([], 20, null),
    pageEnvelope(
      [
        { publicId: 'e1', name: 'Quote " back\\slash \u0000 \u2028 é 🎸', skipped: undefined, n: 1.5, list: [1, undefined, null, 'x'] },
        { publicId: 'e2', schedule: { start: { localDate: '2025-01-01' }, nested: [{ deep: [{ deeper: true }] }] }, fn: () => 1 },
        { publicId: 'e3', when: new Date(0), empty: {}, none: [] },
      ],
      50,
      '/v1/events?cursor=a%22b',
    ),
    objectEnvelope({ publicId: 'x', 'odd "key"': 'v', links: [{ url: 'https://e.example/', label: null }] }),
    objectEnvelope(null),
  ];
  for (const value of samples) assert.equal(serializeEnvelope(value), JSON.stringify(value));
});

test('RawJson is written as it is, at the fields of page items and of a detail', () => {
  const fragment = '{"items":[{"name":"A"}],"isComplete":true,"href":"/v1/events/e1/artists"}';
  const page = pageEnvelope([{ publicId: 'e1', artists: new RawJson(fragment), name: 'N' }], 20, null);
  const expected = JSON.stringify(pageEnvelope([{ publicId: 'e1', artists: JSON.parse(fragment), name: 'N' }], 20, null));
  assert.equal(serializeEnvelope(page), expected);
  const detail = objectEnvelope({ publicId: 'e1', venues: new RawJson('{"items":[],"isComplete":true,"href":"h"}') });
  assert.deepEqual(JSON.parse(serializeEnvelope(detail)), { ok: true, data: { publicId: 'e1', venues: { items: [], isComplete: true, href: 'h' } } });
});

test('the body bytes are the UTF-8 of that text, part by part (multi-byte text in several parts, empty objects)', () => {
  const raw = (value: unknown) => new RawJson(JSON.stringify(value));
  const items = [
    { publicId: 'e1', name: 'Björk — Sigur Rós 🎸', artists: raw({ items: [{ name: '坂本龍一' }], isComplete: true, href: '/a' }) },
    { publicId: 'e2', empty: {}, gone: undefined, venues: raw({ items: [], isComplete: true, href: 'h\u2028' }) },
    raw({ publicId: 'e3', name: 'Ünïcödé ✓' }),
    { nothing: undefined, alsoRaw: raw(null) },
  ];
  const cases: unknown[] = [
    pageEnvelope(items, 20, '/v1/events?cursor=é'),
    objectEnvelope(raw({ publicId: 'x', name: 'Ω' })),
    objectEnvelope({ publicId: 'plain', name: 'no RawJson: one part' }),
    pageEnvelope([], 20, null),
  ];
  for (const value of cases) {
    const text = serializeEnvelope(value);
    assert.ok(envelopeBytes(value).equals(Buffer.from(text, 'utf8')), text);
    // and the text is what JSON.stringify writes once every RawJson is its parsed value
    const parsedBack = JSON.parse(text);
    assert.equal(text, JSON.stringify(parsedBack));
  }
  assert.equal(serializeEnvelope(pageEnvelope([{ nothing: undefined, r: raw(1) }], 1, null)), '{"ok":true,"data":[{"r":1}],"meta":{"pagination":{"limit":1,"hasMore":false}},"links":{"next":null}}');
  assert.equal(serializeEnvelope(pageEnvelope([{ nothing: undefined }, raw([])], 1, null)), '{"ok":true,"data":[{},[]],"meta":{"pagination":{"limit":1,"hasMore":false}},"links":{"next":null}}');
});

test('a stored preview text is parsed once: the same frozen rows for the same text, new rows for another', () => {
  const text = JSON.stringify([{ public_id: 'a1', slug: 'a', name: 'A', pm_public_id: null }]);
  const first = artistPreviewRows('7', text);
  assert.equal(artistPreviewRows('7', `${text}`), first, 'the same text → the same rows');
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0]));
  assert.deepEqual(first, JSON.parse(text));
  const other = artistPreviewRows('7', text.replace('"A"', '""'));
  assert.notEqual(other, first);
  assert.equal(other[0]!.name, '');
  assert.deepEqual(venuePreviewRows('7', '[]'), []);
  // not an array: returned as it is, for the projection to refuse
  assert.deepEqual(venuePreviewRows('8', '{"x":1}'), { x: 1 });
});

test('a stored preview row is the array of its values, zipped with their names; objects (live, or stored before) are read as they are', () => {
  const names = STORED_PREVIEW_NAMES.artists;
  const values = names.map((n) => (n === 'name' ? 'Amy' : n === 'pm_width' ? '640' : `${n}-value`));
  const asObject = Object.fromEntries(names.map((n, i) => [n, values[i]]));
  const rows = artistPreviewRows('9', JSON.stringify([values, asObject]));
  assert.deepEqual(rows, [asObject, asObject]);
  assert.deepEqual(Object.keys(rows[0]!), [...names], 'in the order of the names');
  assert.ok(Object.isFrozen(rows) && Object.isFrozen(rows[0]) && Object.isFrozen(rows[1]));
  // a row of another length (a list of columns changed without rewriting the stored previews): left as it is, for the projection to refuse
  assert.deepEqual(artistPreviewRows('9', JSON.stringify([values.slice(1), [...values, 'x']])), [values.slice(1), [...values, 'x']]);
  // the Venues' own names
  const venue = STORED_PREVIEW_NAMES.venues.map((n) => (n.startsWith('has_') ? true : null));
  assert.equal(venuePreviewRows('9', JSON.stringify([venue]))[0]!.has_coordinates, true);
  assert.deepEqual(parsePreviewText('[[1, null]]', ['a', 'b']), [{ a: 1, b: null }]);
  assert.deepEqual(parsePreviewText('"text"', ['a']), 'text');
});

test('the names of a stored preview row are pinned: changing them changes what every stored text means', () => {
  // A change here needs a migration that rewrites every row of event_previews (as 005 filled
  // them): a stored row of the old length is refused (a 500), one of the same length is misread.
  assert.deepEqual(STORED_PREVIEW_NAMES, {
    artists: ['public_id', 'slug', 'name', 'pm_public_id', 'pm_src', 'pm_thumbnail_src', 'pm_alt_text', 'pm_width', 'pm_height'],
    venues: ['public_id', 'slug', 'name', 'status_code', 'has_address', 'formatted_address', 'locality', 'country_name', 'country_code',
      'has_coordinates', 'pm_public_id', 'pm_src', 'pm_thumbnail_src', 'pm_alt_text', 'pm_width', 'pm_height'],
  });
});
