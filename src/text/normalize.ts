/**
 * Text normalizations shared by the importer (which stores the derived columns) and the read
 * side (which normalizes query terms the same way). Done in JavaScript, not SQL, so PostgreSQL
 * and PGlite compare identical strings whatever their locale support.
 */

/** Event name folding (decisions §5): NFKD, combining marks removed, lower-cased. */
export function foldName(value: string): string {
  // NFKD and its marks change only characters outside ASCII (an ASCII name skips both)
  return (NON_ASCII.test(value) ? value.normalize('NFKD').replace(/\p{M}/gu, '') : value).toLowerCase();
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Case-insensitive comparison key without accent folding (Venue/Artist/Series names). */
export function lowerName(value: string): string {
  return value.toLowerCase();
}

/** Venue `locality` filter key: the stored locality trimmed, then lower-cased. */
export function localityKey(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.trim().toLowerCase();
}
