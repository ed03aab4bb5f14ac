/**
 * `nameContains` on Events (spec: GET /v1/events; `%` and `_` are wildcards): the name or its
 * accent-folded form contains the term, case-insensitively. Both forms have a pg_trgm GIN index.
 *
 * Performance only (docs/architecture.md#name-search): for a LIKE pattern, pg_trgm reads the posting list of
 * EVERY trigram of the pattern, and a long multi-word term ("søren ó briain live at lumière hall")
 * includes very common trigrams (`liv`, `ive`, ` at`, `hal`) whose lists hold a large share of the
 * catalogue, so even a term with one match costs more as the catalogue grows.
 * A name containing the term contains each of its words, so for a multi-word term the index is
 * asked only for the term's longest words (longer words are rarer), and the whole pattern is
 * checked on the candidates through an expression the index cannot serve (`name COLLATE "C"`), so the
 * planner does not fold it back into the index scan.
 * Single-word terms keep the plain condition, so the planner's choice between the ordered walk
 * (common words) and the index (rare words) is unchanged for them.
 *
 * Whole words first: a word of the term standing between two spaces is a whole word of every
 * matching name (see `wholeWords`), and the folded name's word index (migration 008) holds one
 * short posting list per word, where the trigram indexes read several long lists per word shared
 * with every other word containing those trigrams: at 1,000,000 Events, 0.5 ms against 2.7 ms
 * for "señor kalani live at sirius hall". Two such words side by side are a pair of neighbours of
 * every matching name (see `wholePairs`), and the pair index (migration 024) is asked for those
 * before the word index for words: a pair's list is at most its rarer word's, and for that term
 * the two pairs' lists hold 3,136 entries where the two words' hold 21,970.
 *
 * Otherwise one trigram index instead of two when it can: a word of printable ASCII found in the
 * lower-cased name is also in the folded name (see `SHARED_WORD`), and it is its own folded form.
 * So when at least two of the chosen words are such words, they alone are asked of the folded
 * name's index, for both branches of the condition: one bitmap scan instead of one per column, and
 * the same candidates or more (the whole term still decides).
 */
import { foldName, lowerName } from '../text/normalize.js';
import { unindexedMatchText } from './bounded-scan.js';
import { wildcardContains, type Params } from './sql.js';

/** Words the index is asked for: at most this many of the term's longest words. */
export const INDEXED_WORDS = 3;
/** Shorter words have no trigram of their own inside a pattern (pg_trgm needs three characters). */
const MIN_WORD_LENGTH = 3;

/**
 * A word of printable ASCII (no space; the LIKE wildcards never occur in a word). For every name,
 * if `lowerName(name)` contains such a word then `foldName(name)` contains it too: folding
 * (NFKD, marks removed, lower-cased) maps each character on its own, maps a character whose lower
 * case is all ASCII to that same text, and keeps the ASCII at both ends of any other character's
 * lower case (e.g. K KELVIN SIGN → `k` both ways; İ → `i̇` lower-cased, `i` folded; ſ → `s` both
 * ways). Written here because no library states it: test/unit/name-search.test.ts checks it for
 * every code point of the running Node's Unicode tables, which are also the importer's.
 */
const SHARED_WORD = /^[\x21-\x7e]+$/;

/** The chosen words that both branches may ask of the folded name's index: none unless at least two. */
export function sharedWords(words: readonly string[]): string[] {
  const shared = words.filter((w) => SHARED_WORD.test(w));
  return shared.length >= 2 ? shared : [];
}

/**
 * The term's longest words (runs of characters other than whitespace and the LIKE wildcards),
 * longest first, ties in term order; [] when fewer than two words qualify.
 */
export function indexedWords(pattern: string): string[] {
  const words = [...new Set(pattern.split(/[\s%_]+/u))].filter((w) => [...w].length >= MIN_WORD_LENGTH);
  return words.length < 2 ? [] : longestFirst(words, INDEXED_WORDS);
}

/** At most `count` of `words`, longest (in code points) first, ties in their order. */
function longestFirst(words: readonly string[], count: number): string[] {
  return words
    .map((word, position) => ({ word, position, length: [...word].length }))
    .sort((a, b) => b.length - a.length || a.position - b.position)
    .slice(0, count)
    .map((w) => w.word);
}

/**
 * Whole words the word index is asked for: at most this many, the longest (two rare words already
 * narrow to a few rows; a third, common word's long posting list costs more than it saves).
 */
export const WHOLE_WORDS = 2;

/**
 * The term's whole words: those between two literal spaces of the lower-cased term, of printable
 * ASCII without the LIKE wildcards, at least three characters; longest first, ties in term order.
 * A name matching the term contains ` word ` in its lower-cased form or, folded, in its folded
 * form; either way ` word ` is in the folded name (`SHARED_WORD`, with the space, which folds to
 * itself: test/unit/name-search.test.ts), so `word` is an element of the folded name split on
 * spaces. The first and last words are not whole: the term may start or end inside a word.
 */
export function wholeWords(lowered: string): string[] {
  const words = [...new Set(innerWords(lowered))].filter((w) => w.length >= MIN_WORD_LENGTH && literalWord(w));
  return longestFirst(words, WHOLE_WORDS);
}

/** The words of a lower-cased term between two of its literal spaces, in term order ('' between two spaces). */
const innerWords = (lowered: string) => lowered.split(' ').slice(1, -1);

/** A word both branches hold as it is (SHARED_WORD) and no LIKE wildcard inside. */
const literalWord = (w: string | undefined): w is string => w !== undefined && SHARED_WORD.test(w) && !/[%_]/.test(w);

/** Pairs of whole words the pair index is asked for: at most this many, the longest. */
export const WHOLE_PAIRS = 2;

/**
 * The term's pairs of neighbouring whole words: two words of the lower-cased term between literal
 * spaces (as `wholeWords`; one of the two may be short, "at sirius", but not both: "de la" is in
 * as many names as a short word), joined by the one space between them; longest first, ties in
 * term order. A name matching the term contains ` a b ` in its folded form (the argument of
 * `wholeWords`, spaces included), so `a b` is one of the pairs of neighbours of the folded name
 * split on spaces (migration 024's `event_name_pairs`).
 */
export function wholePairs(lowered: string): string[] {
  const inner = innerWords(lowered);
  const pairs = inner.slice(0, -1).flatMap((w, i) => {
    const next = inner[i + 1];
    return literalWord(w) && literalWord(next) && Math.max(w.length, next.length) >= MIN_WORD_LENGTH ? [`${w} ${next}`] : [];
  });
  return longestFirst([...new Set(pairs)], WHOLE_PAIRS);
}

const whole = (column: string, pattern: string, p: Params) => `${column} LIKE ${p.add(wildcardContains(pattern))}`;

/**
 * The whole term on alias `e` through expressions no index serves: the recheck of the candidates
 * below, and the condition of a search read in bounded parts (queries/bounded-scan.ts), where a
 * name index given no trigram would be scanned whole.
 */
export function nameContainsUnindexed(term: string, p: Params): string {
  return unindexedMatch(lowerName(term), foldName(term), p);
}

const unindexedMatch = (original: string, folded: string, p: Params) =>
  `(${whole(unindexedMatchText('e.name_lower'), original, p)} OR ${whole(unindexedMatchText('e.name_folded'), folded, p)})`;

/** The condition on alias `e` for a trimmed, non-empty term. */
export function nameContainsCondition(term: string, p: Params): string {
  const original = lowerName(term);
  const folded = foldName(term);
  // the whole term, on the candidates, through expressions no index serves
  const recheck = () => unindexedMatch(original, folded, p);
  const pairs = wholePairs(original);
  if (pairs.length > 0) {
    // the same expression as the index (migration 024)
    const list = pairs.map((pair) => p.add(pair)).join(', ');
    return `event_name_pairs(e.name_folded) @> ARRAY[${list}]::text[]
      AND ${recheck()}`;
  }
  const complete = wholeWords(original);
  if (complete.length > 0) {
    // the same expression as the index (migration 008)
    const list = complete.map((w) => p.add(w)).join(', ');
    return `string_to_array(e.name_folded, ' ') @> ARRAY[${list}]::text[]
      AND ${recheck()}`;
  }
  const originalWords = indexedWords(original);
  const foldedWords = indexedWords(folded);
  if (originalWords.length === 0 || foldedWords.length === 0) {
    return `(${whole('e.name_lower', original, p)} OR ${whole('e.name_folded', folded, p)})`;
  }
  const words = (column: string, list: readonly string[]) => list.map((w) => whole(column, w, p)).join(' AND ');
  const shared = sharedWords(originalWords);
  const candidates =
    shared.length > 0 ? words('e.name_folded', shared) : `(${words('e.name_lower', originalWords)}) OR (${words('e.name_folded', foldedWords)})`;
  return `(${candidates})
      AND ${recheck()}`;
}
