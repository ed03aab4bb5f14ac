/** nameContains on Events: which words the trigram indexes are asked for (src/queries/name-search.ts). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { indexedWords, nameContainsCondition, sharedWords } from '../../src/queries/name-search.js';
import { foldName } from '../../src/text/normalize.js';
import { Params } from '../../src/queries/sql.js';

describe('indexedWords', () => {
  test('the longest words of a multi-word term, longest first, ties in term order', () => {
    assert.deepEqual(indexedWords('søren ó briain live at lumière hall'), ['lumière', 'briain', 'søren']);
    assert.deepEqual(indexedWords('abc def ghi jkl'), ['abc', 'def', 'ghi']);
  });

  test('wildcards split words; words are counted in code points', () => {
    assert.deepEqual(indexedWords('a%bcd_efg hij'), ['bcd', 'efg', 'hij']);
    assert.deepEqual(indexedWords('😀😀😀 ab東京x'), ['😀😀😀', 'ab東京x'].sort((a, b) => [...b].length - [...a].length));
  });

  test('nothing when fewer than two words have three characters (the plain condition is used)', () => {
    for (const t of ['tour', 'live at', 'ab cd', 'x', '%', 'tour tour']) assert.deepEqual(indexedWords(t), [], t);
  });
});

describe('nameContainsCondition', () => {
  test('single words keep the plain indexable condition', () => {
    const p = new Params();
    const sql = nameContainsCondition('Tour', p);
    assert.equal(sql, "(e.name_lower LIKE $1 ESCAPE '' OR e.name_folded LIKE $2 ESCAPE '')");
    assert.deepEqual(p.values, ['%tour%', '%tour%']);
  });

  test('multi-word terms: the words on the indexed columns, the whole term on a non-indexable expression', () => {
    const p = new Params();
    const sql = nameContainsCondition('Fête de la musique', p);
    assert.match(sql, /^\(\(e\.name_lower LIKE \$1 ESCAPE '' AND e\.name_lower LIKE \$2 ESCAPE ''\) OR \(e\.name_folded LIKE \$3/);
    assert.match(sql, /\(\(e\.name_lower \|\| ''\) LIKE \$5 ESCAPE '' OR \(e\.name_folded \|\| ''\) LIKE \$6 ESCAPE ''\)\)?$/);
    assert.deepEqual(p.values, ['%musique%', '%fête%', '%musique%', '%fete%', '%fête de la musique%', '%fete de la musique%']);
  });
});

describe('words both branches may ask of the folded name', () => {
  test('printable-ASCII words among the chosen ones, only when there are at least two', () => {
    assert.deepEqual(sharedWords(['kalani', 'sirius', 'señor']), ['kalani', 'sirius']);
    assert.deepEqual(sharedWords(['musique', 'fête']), []);
    assert.deepEqual(sharedWords(['a\\b', '100!', '東京x']), ['a\\b', '100!']);
    assert.deepEqual(sharedWords([]), []);
  });

  test('a multi-word term with two such words asks one index (the folded name) for them', () => {
    const p = new Params();
    const sql = nameContainsCondition('Señor Kalani live at Sirius Hall', p);
    assert.match(sql, /^\(e\.name_folded LIKE \$1 ESCAPE '' AND e\.name_folded LIKE \$2 ESCAPE ''\)\s+AND \(\(e\.name_lower \|\| ''\) LIKE \$3 ESCAPE '' OR \(e\.name_folded \|\| ''\) LIKE \$4 ESCAPE ''\)$/);
    assert.deepEqual(p.values, ['%kalani%', '%sirius%', '%señor kalani live at sirius hall%', '%senor kalani live at sirius hall%']);
  });

  // What the single index rests on: an ASCII word of the lower-cased name is in the folded name.
  // Folding maps each character on its own (NFKD decomposes per character and only reorders
  // combining marks, which it then drops; the only context-dependent lower-casing is the Greek
  // final sigma, never ASCII), so it suffices that each code point's lower case, where it is all
  // printable ASCII, folds to the same text, and otherwise keeps the ASCII at its two ends.
  const PRINTABLE = /^[\x21-\x7e]+$/;
  test('every code point: its lower case and its folded form agree on their printable ASCII', () => {
    const broken: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const lower = c.toLowerCase();
      const folded = foldName(c);
      if (PRINTABLE.test(lower)) {
        if (folded !== lower) broken.push(cp.toString(16));
        continue;
      }
      const head = /^[\x21-\x7e]+/.exec(lower)?.[0];
      const tail = /[\x21-\x7e]+$/.exec(lower)?.[0];
      if ((head !== undefined && !folded.startsWith(head)) || (tail !== undefined && !folded.endsWith(tail))) broken.push(cp.toString(16));
    }
    assert.deepEqual(broken, []);
  });

  test('every code point that is not a combining mark is never reordered after one (so dropping marks is per character)', () => {
    const reordered: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      // U+0345 has the highest canonical combining class (240): a character with a class of its own sorts before it
      if (!/\p{M}/u.test(c) && c.normalize('NFKD') === c && `\u0345${c}`.normalize('NFKD') !== `\u0345${c}`) reordered.push(cp.toString(16));
    }
    assert.deepEqual(reordered, []);
  });

  test('names of awkward characters: every ASCII word of the lower-cased name is in the folded name', () => {
    const awkward = ['a', 'K', 'k', 'İ', 'ı', 'é', 'e\u0301', '\u0301', 'ß', 'ẞ', 'Σ', 'ς', 'ﬁ', '½', '①', 'Ⅻ', 'Ǆ', 'ǅ', 'Å', 'Å', 'Ω', '\u212A', '\u0345', 'ΐ', ' ', '-', '%', '_', '東', '\u{1F600}', 'Z', 'x'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...awkward), { maxLength: 24 }), fc.nat(), fc.nat(), (chars, a, b) => {
        const name = chars.join('');
        const lower = name.toLowerCase();
        const from = a % (lower.length + 1);
        const word = lower.slice(from, from + (b % 8) + 1);
        if (!PRINTABLE.test(word)) return;
        assert.ok(foldName(name).includes(word), `${JSON.stringify(name)} → ${JSON.stringify(word)}`);
      }),
      { numRuns: 2000 },
    );
  });
});
