/**
 * Text normalizations shared by the importer (which stores the derived columns) and the read
 * side (which normalizes query terms the same way). Done in JavaScript, not SQL, so PostgreSQL
 * and PGlite compare identical strings whatever their locale support.
 */

/**
 * The comparison key of "case-insensitive" (spec Endpoints: `nameContains`, `cityContains`,
 * `countryContains`, Venue `locality`): lower-cased, then each lower-case letter that has a
 * lower-case twin replaced by that twin (`FOLDS`), so that two texts that differ only in case
 * always get the same key.
 *
 * `toLowerCase()` alone does not give that: it lower-cases Σ to ς at the end of a word and to σ
 * elsewhere (Unicode's Final_Sigma context), so `ΚΟΣΜΟΣ` became `κοσμος` and the term `ΚΟΣ`
 * became `κος`, which it does not contain; and some letters are case variants of another
 * lower-case letter (ſ and s, µ and μ, ϐ and β…), which lower-casing leaves apart. JavaScript has
 * no case folding (`localeCompare` and `Intl.Collator` compare; they give no key to store and
 * match with LIKE), and what lower-casing leaves to fold is 22 letters, so they are listed here
 * rather than taken from a Unicode data package: every lower-case letter whose simple case
 * folding (Unicode CaseFolding.txt, status C and S) is another lower-case letter. Cherokee folds
 * the other way (to its capitals) and lower-casing already unites its cases.
 * test/unit/normalize.test.ts checks the list against every code point: each letter, its upper
 * case and its lower case share one key.
 */
export function caseKey(value: string): string {
  const lower = value.toLowerCase();
  // (replace returns the same string when nothing matches)
  return NON_ASCII.test(lower) ? lower.replace(FOLDED, (c) => FOLDS[c]!) : lower;
}

/** Each lower-case letter that has a lower-case twin, and that twin (see `caseKey`). */
export const FOLDS: Readonly<Record<string, string>> = {
  '\u00b5': '\u03bc', // µ micro sign → μ
  '\u017f': 's', // ſ long s
  '\u0345': '\u03b9', // combining ypogegrammeni → ι
  '\u03c2': '\u03c3', // ς final sigma → σ
  '\u03d0': '\u03b2', // ϐ → β
  '\u03d1': '\u03b8', // ϑ → θ
  '\u03d5': '\u03c6', // ϕ → φ
  '\u03d6': '\u03c0', // ϖ → π
  '\u03f0': '\u03ba', // ϰ → κ
  '\u03f1': '\u03c1', // ϱ → ρ
  '\u03f5': '\u03b5', // ϵ → ε
  '\u1c80': '\u0432', // Cyrillic rounded ve → в
  '\u1c81': '\u0434', // long-legged de → д
  '\u1c82': '\u043e', // narrow o → о
  '\u1c83': '\u0441', // wide es → с
  '\u1c84': '\u0442', // tall te → т
  '\u1c85': '\u0442', // three-legged te → т
  '\u1c86': '\u044a', // tall hard sign → ъ
  '\u1c87': '\u0463', // tall yat → ѣ
  '\u1c88': '\ua64b', // unblended uk → ꙋ
  '\u1e9b': '\u1e61', // ẛ → ṡ
  '\u1fbe': '\u03b9', // prosgegrammeni → ι
};

const FOLDED = new RegExp(`[${Object.keys(FOLDS).join('')}]`, 'gu');
const NON_ASCII = /[^\x00-\x7f]/;

/** Event name folding (decisions §5): NFKD, combining marks removed, lower-cased (`caseKey`). */
export function foldName(value: string): string {
  // NFKD and its marks change only characters outside ASCII (an ASCII name skips both)
  return caseKey(NON_ASCII.test(value) ? value.normalize('NFKD').replace(/\p{M}/gu, '') : value);
}

/** Case-insensitive comparison key without accent folding (Venue/Artist/Series names). */
export function lowerName(value: string): string {
  return caseKey(value);
}

/** Venue `locality` filter key: the stored locality trimmed, then lower-cased (`caseKey`). */
export function localityKey(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return caseKey(value.trim());
}
