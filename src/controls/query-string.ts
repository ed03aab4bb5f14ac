/**
 * Raw query string → named values (all of them, repeated ones kept), refusing what cannot be
 * decoded; controls/parameter-reader.ts then checks each value against its route's schemas.
 *
 * Written here rather than using Fastify's parser because the contract needs what generic
 * parsers (and JSON Schema) hide: repeated keys, the difference between `a=` and `a`, and
 * malformed escapes.
 */
import { InvalidQuery, type ErrorDetail } from './errors.js';

export const MAX_QUERY_PARAMETERS = 32;

export type RawQuery = ReadonlyMap<string, readonly string[]>;

function decode(component: string): string | null {
  // without an escape or a plus sign a component is its own decoding (a cursor, most values)
  if (component.indexOf('%') === -1 && component.indexOf('+') === -1) return component;
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * Splits and decodes; refuses malformed escapes, NUL characters and too many parameters (reading
 * stops at the 33rd).
 */
export function parseQueryString(search: string): RawQuery {
  const params = new Map<string, string[]>();
  if (search === '') return params;
  const details: ErrorDetail[] = [];
  let count = 0;
  for (const segment of search.split('&')) {
    if (segment === '') continue;
    // Past the limit nothing more is read: the refusal is decided, and a query of thousands of
    // malformed segments must not cost (or answer) one problem each.
    if (++count > MAX_QUERY_PARAMETERS) break;
    const eq = segment.indexOf('=');
    const rawName = eq === -1 ? segment : segment.slice(0, eq);
    const rawValue = eq === -1 ? '' : segment.slice(eq + 1);
    const name = decode(rawName);
    const value = decode(rawValue);
    if (name === null) {
      details.push({ parameter: rawName.slice(0, 64), message: 'the parameter name is not valid percent-encoded UTF-8' });
      continue;
    }
    if (value === null) {
      details.push({ parameter: name.slice(0, 64), message: 'the value is not valid percent-encoded UTF-8' });
      continue;
    }
    if (name.includes('\0') || value.includes('\0')) {
      details.push({ parameter: name.replace(/\0/g, '\\0').slice(0, 64), message: 'NUL characters are not allowed' });
      continue;
    }
    const list = params.get(name);
    if (list) list.push(value);
    else params.set(name, [value]);
  }
  if (count > MAX_QUERY_PARAMETERS) {
    details.unshift({ parameter: '*', message: `at most ${MAX_QUERY_PARAMETERS} query parameters are accepted` });
  }
  if (details.length > 0) throw new InvalidQuery('The query string is malformed.', details);
  return params;
}

/** The query part of a raw request URL (without `?`), or ''. */
export function searchOf(rawUrl: string): string {
  const q = rawUrl.indexOf('?');
  return q === -1 ? '' : rawUrl.slice(q + 1);
}

/** The path part of a raw request URL. */
export function pathOf(rawUrl: string): string {
  const q = rawUrl.indexOf('?');
  return q === -1 ? rawUrl : rawUrl.slice(0, q);
}
