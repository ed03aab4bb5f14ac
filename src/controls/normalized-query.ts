/**
 * The normalized query of a request: its effective controls as `name=value` pairs, sorted by
 * name, defaults omitted, CSV members in registry order. It is what `links.next` carries and
 * what a cursor's fingerprint binds, so equivalent requests (other parameter order, CSV order,
 * explicit defaults) get the same next link (spec: Events rule 9).
 */

export type QueryPairs = ReadonlyArray<readonly [string, string]>;

export function encodeQuery(pairs: QueryPairs): string {
  return [...pairs]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
}

export function withCursor(path: string, normalizedQuery: string, cursor: string): string {
  const c = `cursor=${encodeURIComponent(cursor)}`;
  return `${path}?${normalizedQuery === '' ? c : `${normalizedQuery}&${c}`}`;
}
