/**
 * Name folding and demo slugs skip NFKD for ASCII text (src/text/normalize.ts,
 * src/catalogue/demo/slug.ts): the result must be the full definition's for every string. The
 * case-insensitive key (`caseKey`) gives two texts that differ only in case the same key, for
 * every code point, where `toLowerCase()` alone did not (ς and σ, ſ and s…).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { slugify } from '../../src/catalogue/demo/slug.js';
import { FOLDS, caseKey, foldName, localityKey, lowerName } from '../../src/text/normalize.js';
import { caseless } from '../model/events-model.js';

const fullFold = (s: string) => caseless(s.normalize('NFKD').replace(/\p{M}/gu, ''));
// the demo's slugs are lower-cased by toLowerCase() (their ASCII is all that is kept)
const fullSlug = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);

// ASCII, Latin letters with and without accents, compatibility forms (ﬁ, ², full-width), Cyrillic
const chars = fc.constantFrom(...'aZ9 -_.&()—éÉñøŁçÅﬁ²Ａｂ①еЁйΣσςſµΜϐᲀẞßıİ\u0301\u0345\u00a0\x7f~'.split(''));
const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: chars, maxLength: 80 }), fc.string({ unit: chars, minLength: 55, maxLength: 130 }));

test('foldName equals NFKD, marks removed, lower-cased, for ASCII and other text', () => {
  for (const s of ['Björk', 'DJ Shadow', 'Ａｂｃ', 'ﬁve', 'Sigur Rós — Tour', '']) assert.equal(foldName(s), fullFold(s));
  fc.assert(fc.property(text, (s) => foldName(s) === fullFold(s)), { numRuns: 2000 });
});

test('caseKey: every code point, its upper case and its lower case share one key (ı aside, as Unicode folds it)', () => {
  const mismatches: string[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    if (caseKey(c) !== caseless(c)) mismatches.push(`U+${cp.toString(16).toUpperCase()}`);
    for (const variant of [c.toUpperCase(), c.toLowerCase()]) {
      if ([...variant].length === 1 && c !== 'ı' && caseKey(variant) !== caseKey(c)) mismatches.push(`U+${cp.toString(16).toUpperCase()} ~ ${variant}`);
    }
  }
  assert.deepEqual(mismatches, []);
  // the list holds only lower-case letters and maps each to another lower-case letter
  for (const [from, to] of Object.entries(FOLDS)) {
    assert.equal(from.toLowerCase(), from);
    assert.equal(to.toLowerCase(), to);
    assert.equal(from.toUpperCase().toLowerCase(), to, `U+${from.codePointAt(0)!.toString(16)}`);
  }
});

test('caseKey: a word-final sigma is a sigma, wherever the text is cut', () => {
  assert.equal(lowerName('ΚΟΣΜΟΣ'), 'κοσμοσ');
  assert.ok(lowerName('ΚΟΣΜΟΣ').includes(lowerName('ΚΟΣ')));
  assert.ok(lowerName('Κόσμος').includes(lowerName('ΚΌΣ')));
  assert.equal(foldName('ΟΔΟΣ Κόσμος'), 'οδοσ κοσμοσ');
  assert.equal(localityKey('  ΠΕΙΡΑΙΑΣ '), 'πειραιασ');
  assert.equal(lowerName('µ-Club'), lowerName('Μ-CLUB'));
  assert.equal(lowerName('Straße'), 'straße'); // simple folding: ß is not ss
  assert.equal(lowerName('Plain ASCII, Unchanged'), 'plain ascii, unchanged');
  // containment holds for any cut of any text, in both keys
  fc.assert(
    fc.property(fc.string({ unit: chars, maxLength: 40 }), fc.nat(), fc.nat(), (s, a, b) => {
      const cps = [...s];
      const [from, to] = [a % (cps.length + 1), b % (cps.length + 1)].sort((x, y) => x - y);
      const cut = cps.slice(from, to).join('');
      return lowerName(s).includes(lowerName(cut)) && foldName(s).includes(foldName(cut));
    }),
    { numRuns: 3000 },
  );
});

test('slugify equals its full definition, for ASCII and other text', () => {
  assert.equal(slugify('Sigur Rós — Heima Tour'), 'sigur-ros-heima-tour');
  assert.equal(slugify('  DJ Shadow (DJ set) '), 'dj-shadow-dj-set');
  // cut at 60, after the hyphens are placed: a cut may end on a hyphen
  for (const s of [`${'a'.repeat(59)} b`, `${'a'.repeat(60)} b`, `${'a'.repeat(58)}é b`, `-- ${'x'.repeat(70)}`]) assert.equal(slugify(s), fullSlug(s));
  assert.equal(slugify(`${'a'.repeat(59)} b`), `${'a'.repeat(59)}-`);
  fc.assert(fc.property(text, (s) => slugify(s) === fullSlug(s)), { numRuns: 2000 });
});
