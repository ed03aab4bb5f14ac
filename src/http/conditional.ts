/**
 * `If-None-Match` evaluation (spec: Conditional reads; RFC 9110 §13.1.2). Weak comparison:
 * weak and strong forms of the same tag match; lists and `*` match. A header that is not a
 * well-formed `*` or entity-tag list is ignored entirely (no match from a valid fragment).
 * Written here because the contract's "malformed → ignored" rule is stricter than `fresh`.
 */

const ETAG = String.raw`(?:W\/)?"[\x21\x23-\x7E\x80-\xFF]*"`;
const LIST = new RegExp(String.raw`^[ \t]*${ETAG}(?:[ \t]*,[ \t]*${ETAG})*[ \t]*$`);
const ONE = new RegExp(ETAG, 'g');

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

export function ifNoneMatchMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (/^[ \t]*\*[ \t]*$/.test(value)) return true;
  if (!LIST.test(value)) return false;
  const wanted = opaque(etag);
  return (value.match(ONE) ?? []).some((tag) => opaque(tag) === wanted);
}
