/** nameContains on Events: which words the trigram indexes are asked for (src/queries/name-search.ts). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { indexedWords, nameContainsCondition, sharedWords, wholePairs, wholeWords } from '../../src/queries/name-search.js';
import { foldName, lowerName } from '../../src/text/normalize.js';
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
    assert.equal(sql, "(e.name_lower LIKE $1 OR e.name_folded LIKE $2)");
    assert.deepEqual(p.values, ['%tour%', '%tour%']);
  });

  test('multi-word terms: the words on the indexed columns, the whole term on a non-indexable expression', () => {
    const p = new Params();
    const sql = nameContainsCondition('Fête de la musique', p);
    assert.match(sql, /^\(\(e\.name_lower LIKE \$1 AND e\.name_lower LIKE \$2\) OR \(e\.name_folded LIKE \$3/);
    assert.match(sql, /\(\(e\.name_lower COLLATE "C"\) LIKE \$5 OR \(e\.name_folded COLLATE "C"\) LIKE \$6\)\)?$/);
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

  test('a multi-word term with two such words and no whole word asks one index (the folded name) for them', () => {
    const p = new Params();
    const sql = nameContainsCondition('Señor Kalani%Sirius Hall', p);
    assert.match(sql, /^\(e\.name_folded LIKE \$1 AND e\.name_folded LIKE \$2\)\s+AND \(\(e\.name_lower COLLATE "C"\) LIKE \$3 OR \(e\.name_folded COLLATE "C"\) LIKE \$4\)$/);
    assert.deepEqual(p.values, ['%kalani%', '%sirius%', '%señor kalani%sirius hall%', '%senor kalani%sirius hall%']);
  });
});

describe('whole words (the folded name\'s word index)', () => {
  test('words between two spaces of the term, printable ASCII without wildcards, three characters or more, the two longest', () => {
    assert.deepEqual(wholeWords('señor kalani live at sirius hall'), ['kalani', 'sirius']);
    assert.deepEqual(wholeWords('a bc def b'), ['def']);
    assert.deepEqual(wholeWords('x fête live y'), ['live'], 'not ASCII: not whole for both branches');
    assert.deepEqual(wholeWords('x ka_ni l%ve y'), [], 'a wildcard inside: not a literal word');
    assert.deepEqual(wholeWords('x kalani\tlive y'), [], 'only U+0020 separates words');
    assert.deepEqual(wholeWords('kalani sirius'), [], 'first and last words may be parts of words');
    assert.deepEqual(wholeWords('tour'), []);
    assert.deepEqual(wholeWords('x abc abc y'), ['abc']);
    assert.deepEqual(wholeWords('x  abcd  y'), ['abcd']);
  });

  test('a term with a whole word and no pair of them asks the word index, and checks the whole term on the candidates', () => {
    const p = new Params();
    const sql = nameContainsCondition('Señor Kalani Sirius', p);
    assert.match(sql, /^string_to_array\(e\.name_folded, ' '\) @> ARRAY\[\$1\]::text\[\]\s+AND \(\(e\.name_lower COLLATE "C"\) LIKE \$2 OR \(e\.name_folded COLLATE "C"\) LIKE \$3\)$/);
    assert.deepEqual(p.values, ['kalani', '%señor kalani sirius%', '%senor kalani sirius%']);
  });

  test('a term with two whole words side by side asks the pair index, and checks the whole term on the candidates', () => {
    const p = new Params();
    const sql = nameContainsCondition('Señor Kalani live at Sirius Hall', p);
    assert.match(sql, /^event_name_pairs\(e\.name_folded\) @> ARRAY\[\$1, \$2\]::text\[\]\s+AND \(\(e\.name_lower COLLATE "C"\) LIKE \$3 OR \(e\.name_folded COLLATE "C"\) LIKE \$4\)$/);
    assert.deepEqual(p.values, ['kalani live', 'at sirius', '%señor kalani live at sirius hall%', '%senor kalani live at sirius hall%']);
  });

  test('pairs: two neighbouring whole words (printable ASCII, no wildcard, not both short) joined by their one space, the two longest', () => {
    assert.deepEqual(wholePairs('señor kalani live at sirius hall'), ['kalani live', 'at sirius']);
    assert.deepEqual(wholePairs('x ab cde y'), ['ab cde']);
    assert.deepEqual(wholePairs('x de la y'), [], 'two short words: as common as one');
    assert.deepEqual(wholePairs('x abc y'), [], 'one whole word: no pair');
    assert.deepEqual(wholePairs('kalani live'), [], 'first and last words may be parts of words');
    assert.deepEqual(wholePairs('x  ab cde  y'), ['ab cde'], 'an empty word between two spaces pairs with nothing');
    assert.deepEqual(wholePairs('x abc  cde y'), [], 'two spaces: not neighbours');
    assert.deepEqual(wholePairs('x fête live at y'), ['live at'], 'not ASCII: not whole for both branches');
    assert.deepEqual(wholePairs('x ka_ni live y'), [], 'a wildcard inside: not a literal word');
    assert.deepEqual(wholePairs('x kalani\tlive y'), [], 'only U+0020 separates words');
    assert.deepEqual(wholePairs('x abc de abc de y'), ['abc de', 'de abc'], 'each pair once');
  });

  // Soundness: a name the whole condition matches has every whole word in its folded name's words.
  const awkwardWords = ['kalani', 'Live', 'AT', 'ﬁne', 'ǅemal', 'fête', 'İstanbul', 'ΟΔΟΣ', '\u212Aing', 'x', '%', '_', 'a_b', '東京', 'café', 'cafe\u0301'];
  const separators = [' ', ' ', ' ', '  ', '\u00a0', '\t', '-', '\u00a8', ': '];
  const likeRegExp = (pattern: string) =>
    new RegExp(`^${[...pattern].map((c) => (c === '%' ? '[\\s\\S]*' : c === '_' ? '[\\s\\S]' : c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'))).join('')}$`, 'u');
  test('every name the term matches (either branch) has the whole words among its folded words', () => {
    const nameArb = fc.array(fc.tuple(fc.constantFrom(...awkwardWords), fc.constantFrom(...separators)), { minLength: 1, maxLength: 8 })
      .map((parts) => parts.map(([w, sep]) => w + sep).join('').trim());
    fc.assert(
      fc.property(nameArb, fc.nat(), fc.nat(), fc.boolean(), fc.nat(), (name, a, b, fromFolded, wild) => {
        const source = fromFolded ? foldName(name) : lowerName(name);
        const from = a % (source.length + 1);
        let term = source.slice(from, from + (b % 40) + 1).trim();
        if (term === '') return;
        // sometimes a wildcard in place of one character
        if (wild % 3 === 0) {
          const at = wild % term.length;
          term = term.slice(0, at) + (wild % 2 ? '_' : '%') + term.slice(at + 1);
        }
        const original = lowerName(term);
        const matches = likeRegExp(`%${original}%`).test(lowerName(name)) || likeRegExp(`%${foldName(term)}%`).test(foldName(name));
        if (!matches) return;
        const words = foldName(name).split(' ');
        for (const w of wholeWords(original)) assert.ok(words.includes(w), `${JSON.stringify(name)} / ${JSON.stringify(term)}: ${w}`);
        // migration 024's event_name_pairs, as test/db/name-pairs.test.ts checks it on each engine
        const pairs = words.slice(0, -1).map((w, i) => `${w} ${words[i + 1]}`);
        for (const pair of wholePairs(original)) assert.ok(pairs.includes(pair), `${JSON.stringify(name)} / ${JSON.stringify(term)}: ${pair}`);
      }),
      { numRuns: 5000 },
    );
  });

  // What the single index rests on: an ASCII word of the lower-cased name is in the folded name.
  // Folding maps each character on its own (NFKD decomposes per character and only reorders
  // combining marks, which it then drops; the case key has no context: caseKey makes the Greek
  // final sigma a sigma), so it suffices that each code point's lower case, where it is all
  // printable ASCII, folds to the same text, and otherwise keeps the ASCII at its two ends.
  const PRINTABLE = /^[\x21-\x7e]+$/;
  // with the space: the whole words (`wholeWords`) rest on ` word ` being kept too
  const ASCII_RUN = /^[\x20-\x7e]+$/;
  test('every code point: its lower case and its folded form agree on their printable ASCII and spaces', () => {
    const broken: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const lower = lowerName(c);
      const folded = foldName(c);
      if (ASCII_RUN.test(lower)) {
        if (folded !== lower) broken.push(cp.toString(16));
        continue;
      }
      const head = /^[\x20-\x7e]+/.exec(lower)?.[0];
      const tail = /[\x20-\x7e]+$/.exec(lower)?.[0];
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

  test('names of awkward characters: every run of printable ASCII and spaces of the lower-cased name is in the folded name', () => {
    const awkward = ['a', 'K', 'k', 'İ', 'ı', 'é', 'e\u0301', '\u0301', 'ß', 'ẞ', 'Σ', 'ς', 'ﬁ', '½', '①', 'Ⅻ', 'Ǆ', 'ǅ', 'Å', 'Å', 'Ω', '\u212A', '\u0345', 'ΐ', ' ', '-', '%', '_', '東', '\u{1F600}', 'Z', 'x'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...awkward), { maxLength: 24 }), fc.nat(), fc.nat(), (chars, a, b) => {
        const name = chars.join('');
        const lower = lowerName(name);
        const from = a % (lower.length + 1);
        const word = lower.slice(from, from + (b % 8) + 1);
        if (!ASCII_RUN.test(word)) return;
        assert.ok(foldName(name).includes(word), `${JSON.stringify(name)} → ${JSON.stringify(word)}`);
      }),
      { numRuns: 2000 },
    );
  });
});
