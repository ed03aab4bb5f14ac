/** URL slugs of the demo catalogue: accents folded, ASCII letters and digits, hyphens. */
export function slugify(text: string): string {
  // NFKD and the marks it splits off change only characters outside ASCII, so an ASCII name (a
  // third of the demo's) skips both (slugs were 6% of a seed worker's CPU, session 28)
  const folded = NON_ASCII.test(text) ? text.normalize('NFKD').replace(/\p{M}/gu, '') : text;
  return folded
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

const NON_ASCII = /[^\x00-\x7f]/;
