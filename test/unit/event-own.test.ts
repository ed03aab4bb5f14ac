/**
 * An Event's own columns travel as one JSON array text (queries/event-columns.ts `ownText`): the
 * selection's signature, then the values. Every selection's signature must name exactly its
 * columns, in their order, and a text of no selection's shape must be refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventOutputs, ownColumnNames, ownNames } from '../../src/queries/event-columns.js';
import { parseOwnText } from '../../src/queries/event-own.js';
import { EVENT_FIELDS, type EventField } from '../../src/plan/event-fields.js';

const now = () => '$1::timestamptz';
const ownSql = (fields: readonly EventField[]) => eventOutputs(fields, now).find((o) => o.name === 'own')!.sql;
const signatureOf = (fields: readonly EventField[]) => /^array_to_json\(ARRAY\['([0-9a-z]+)', /.exec(ownSql(fields))?.[1];

test('every selection of fields: its signature names exactly its own columns, in the order of its values', () => {
  const seen = new Map<string, string>();
  for (let mask = 0; mask < 2 ** EVENT_FIELDS.length; mask++) {
    const fields = EVENT_FIELDS.filter((_, i) => (mask >> i) & 1);
    const signature = signatureOf(fields);
    assert.ok(signature !== undefined, ownSql(fields));
    const names = ownColumnNames(fields);
    assert.deepEqual(ownNames(signature), names);
    // two selections with other own columns never share a signature
    const key = names.join(',');
    assert.equal(seen.get(signature) ?? key, key);
    seen.set(signature, key);
  }
  assert.ok(seen.size > 100, `${seen.size} distinct selections of own columns`);
});

test('a text is zipped with its names into a frozen row; equal values of two selections are two texts', () => {
  const bySlug = ['publicId', 'slug'] as const;
  const byName = ['publicId', 'name'] as const;
  const slugText = JSON.stringify([signatureOf(bySlug), 'ev1', 'same']);
  const nameText = JSON.stringify([signatureOf(byName), 'ev1', 'same']);
  assert.notEqual(slugText, nameText);
  // a JSON column arrives as its JSON text and is parsed; a text column that looks like JSON stays a text
  const row = parseOwnText(JSON.stringify([signatureOf(['publicId', 'name', 'links', 'schedule']), 'ev1', '[1]', '[{"url": "https://a.example/"}]', 'Europe/Paris', 'date', '2025-01-02', null, null, null, null, null, null]));
  assert.deepEqual(Object.keys(row), ownColumnNames(['publicId', 'name', 'links', 'schedule']));
  assert.deepEqual(row.links, [{ url: 'https://a.example/' }]);
  assert.equal(row.name, '[1]');
  assert.equal(parseOwnText(JSON.stringify([signatureOf(['publicId', 'links']), 'ev1', null])).links, null);
  assert.throws(() => parseOwnText(JSON.stringify([signatureOf(['publicId', 'links']), 'ev1', '[{'])), SyntaxError);
  assert.equal(row.start_local_time, null);
  assert.ok(Object.isFrozen(row) && Object.isFrozen(row.links));
  assert.deepEqual(parseOwnText(slugText), { public_id: 'ev1', slug: 'same' });
  assert.deepEqual(parseOwnText(nameText), { public_id: 'ev1', name: 'same' });
});

test('a text of no selection is refused, never read with the wrong names', () => {
  const slug = signatureOf(['publicId', 'slug'])!;
  for (const text of [
    '{"public_id":"ev1"}', // an object: no signature
    '[]',
    JSON.stringify([slug, 'ev1']), // a value short
    JSON.stringify([slug, 'ev1', 'a', 'b']), // a value too many
    JSON.stringify(['0', 'ev1']), // no column
    JSON.stringify(['zzzzzzz', 'ev1']), // columns that do not exist
    JSON.stringify(['-1', 'ev1']),
    JSON.stringify([1, 'ev1']),
  ]) {
    assert.throws(() => parseOwnText(text), /not a selection's array/, text);
  }
});
