/** nameContains on Events: which words the trigram index is asked for (src/queries/name-search.ts). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { indexedWords, nameContainsCondition } from '../../src/queries/name-search.js';
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
