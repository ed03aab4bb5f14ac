/**
 * Collection admission reserves room for the full cursor in the normalized URL before any
 * database work (spec: Errors, last paragraph; Limits: URL ≤ 4,096 bytes, ≤ 32 parameters).
 */
import { InvalidQuery, UrlTooLong } from '../controls/errors.js';
import { MAX_CURSOR_LENGTH } from '../controls/cursor.js';
import { MAX_QUERY_PARAMETERS } from '../controls/query-string.js';

export const MAX_URL_BYTES = 4096;
const CURSOR_PARAMETER = 'cursor=';

export function checkUrlBudget(path: string, normalizedQuery: string, parameterCount: number): void {
  // The bytes of `${path}?${normalizedQuery}&cursor=${a cursor of the longest length}` (no `&`
  // after an empty query), counted without writing that URL out on every request. A cursor is
  // base64url plus one dot: it never grows under percent-encoding.
  const separator = normalizedQuery === '' ? 0 : 1;
  const reserved = Buffer.byteLength(path, 'utf8') + 1 + Buffer.byteLength(normalizedQuery, 'utf8') + separator + CURSOR_PARAMETER.length + MAX_CURSOR_LENGTH;
  if (reserved > MAX_URL_BYTES) throw new UrlTooLong();
  if (parameterCount + 1 > MAX_QUERY_PARAMETERS) {
    throw new InvalidQuery('The query cannot be paginated.', [
      { parameter: '*', message: `too many parameters to leave room for cursor (at most ${MAX_QUERY_PARAMETERS - 1} besides it)` },
    ]);
  }
}

