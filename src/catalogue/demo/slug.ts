/** URL slugs of the demo catalogue: accents folded, ASCII letters and digits, hyphens. */
export function slugify(text: string): string {
  // NFKD and the marks it splits off change only characters outside ASCII, so an ASCII name (a
  // third of the demo's) skips both
  const folded = (NON_ASCII.test(text) ? text.normalize('NFKD').replace(/\p{M}/gu, '') : text).toLowerCase();
  // What `.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60)` returns — the runs of
  // ASCII letters and digits joined by single hyphens, cut at 60 — in one pass over the name (the
  // two regular expressions cost several times as much per name; test/unit/normalize.test.ts
  // compares both)
  let slug = '';
  let i = 0;
  const n = folded.length;
  while (i < n && slug.length < MAX) {
    while (i < n && !isAlnum(folded.charCodeAt(i))) i++;
    const start = i;
    while (i < n && isAlnum(folded.charCodeAt(i))) i++;
    if (start < i) slug = slug === '' ? folded.slice(start, i) : `${slug}-${folded.slice(start, i)}`;
  }
  return slug.length > MAX ? slug.slice(0, MAX) : slug;
}

const MAX = 60;
const NON_ASCII = /[^\x00-\x7f]/;
/** a-z or 0-9 */
const isAlnum = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
