/**
 * Name folding and demo slugs skip NFKD for ASCII text (src/text/normalize.ts,
 * src/catalogue/demo/slug.ts): the result must be the full definition's for every string.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { slugify } from '../../src/catalogue/demo/slug.js';
import { foldName } from '../../src/text/normalize.js';

const fullFold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
const fullSlug = (s: string) => fullFold(s).replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);

// ASCII, Latin letters with and without accents, compatibility forms (ﬁ, ², full-width), Cyrillic
const chars = fc.constantFrom(...'aZ9 -_.&()—éÉñøŁçÅﬁ²Ａｂ①еЁйΣ\u0301\u00a0\x7f~'.split(''));
const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: chars, maxLength: 80 }), fc.string({ unit: chars, minLength: 55, maxLength: 130 }));

test('foldName equals NFKD, marks removed, lower-cased, for ASCII and other text', () => {
  for (const s of ['Björk', 'DJ Shadow', 'Ａｂｃ', 'ﬁve', 'Sigur Rós — Tour', '']) assert.equal(foldName(s), fullFold(s));
  fc.assert(fc.property(text, (s) => foldName(s) === fullFold(s)), { numRuns: 2000 });
});

test('slugify equals its full definition, for ASCII and other text', () => {
  assert.equal(slugify('Sigur Rós — Heima Tour'), 'sigur-ros-heima-tour');
  assert.equal(slugify('  DJ Shadow (DJ set) '), 'dj-shadow-dj-set');
  // cut at 60, after the hyphens are placed: a cut may end on a hyphen
  for (const s of [`${'a'.repeat(59)} b`, `${'a'.repeat(60)} b`, `${'a'.repeat(58)}é b`, `-- ${'x'.repeat(70)}`]) assert.equal(slugify(s), fullSlug(s));
  assert.equal(slugify(`${'a'.repeat(59)} b`), `${'a'.repeat(59)}-`);
  fc.assert(fc.property(text, (s) => slugify(s) === fullSlug(s)), { numRuns: 2000 });
});
