/**
 * Collection admission reserves room for the full cursor in the normalized URL before any
 * database work (spec: Errors, last paragraph; Limits: URL ≤ 4,096 bytes, ≤ 32 parameters).
 */
import { InvalidQuery, UrlTooLong } from '../controls/errors.js';
import { MAX_CURSOR_LENGTH } from '../controls/cursor.js';
import { MAX_QUERY_PARAMETERS } from '../controls/query-string.js';

export const MAX_URL_BYTES = 4096;

export function checkUrlBudget(path: string, normalizedQuery: string, parameterCount: number): void {
  // A cursor is base64url plus one dot: it never grows under percent-encoding.
  const reserved = `${path}?${normalizedQuery}${normalizedQuery === '' ? '' : '&'}cursor=${'x'.repeat(MAX_CURSOR_LENGTH)}`;
  if (Buffer.byteLength(reserved, 'utf8') > MAX_URL_BYTES) throw new UrlTooLong();
  if (parameterCount + 1 > MAX_QUERY_PARAMETERS) {
    throw new InvalidQuery('The query cannot be paginated.', [
      { parameter: '*', message: `too many parameters to leave room for cursor (at most ${MAX_QUERY_PARAMETERS - 1} besides it)` },
    ]);
  }
}

