/**
 * Kinds of sort-key values a cursor may carry, checked after decoding and before any SQL: a
 * re-sealed cursor with keys that are not positions of its sort is malformed (400), never a
 * database cast error (500) or a silently empty page (decisions §5 "Cursors").
 */
import type { CursorKey } from './cursor.js';
import { isDate, isPublicId } from './formats.js';

export type KeyKind = 'date' | 'rank' | 'timestamp' | 'timestampOrMinusInfinity' | 'publicId' | 'name' | 'distance';

/** float8 as PostgreSQL writes a non-negative distance (shortest exact text: `12.5`, `1e-05`). */
const DISTANCE = /^\d{1,20}(\.\d{1,20})?(e[+-]\d{1,3})?$/;

/**
 * timestamptz exactly as PostgreSQL writes it with TimeZone=UTC, DateStyle=ISO (what the queries
 * select): microsecond precision, trailing fractional zeros dropped (`.5`, never `.500000`).
 */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{0,5}[1-9])?\+00$/;

/** Longest text key: an ordinary cursor holding it would not fit in 1,024 characters anyway. */
export const MAX_TEXT_KEY = 1024;

/** A lone surrogate: the string is not valid Unicode, so it has no UTF-8 form. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text PostgreSQL can take as a parameter: valid UTF-8 (no lone surrogate), no NUL, bounded. */
export function isKeyText(value: string): boolean {
  return value.length <= MAX_TEXT_KEY && !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

export function isKeyOfKind(kind: KeyKind, value: CursorKey): boolean {
  switch (kind) {
    case 'date':
      return typeof value === 'string' && isDate(value);
    case 'rank':
      // a finite integer in range: exactly 0 or 1 (never a string the database would parse)
      return value === 0 || value === 1;
    case 'timestamp': {
      const m = typeof value === 'string' ? TIMESTAMP.exec(value) : null;
      return m !== null && isDate(m[1] as string);
    }
    case 'timestampOrMinusInfinity':
      return value === '-infinity' || isKeyOfKind('timestamp', value);
    case 'publicId':
      return typeof value === 'string' && isPublicId(value);
    case 'name':
      return typeof value === 'string' && isKeyText(value);
    case 'distance':
      return typeof value === 'string' && DISTANCE.test(value) && Number.isFinite(Number(value));
  }
}

export function keysMatch(kinds: readonly KeyKind[], keys: readonly CursorKey[]): boolean {
  return keys.length === kinds.length && kinds.every((kind, i) => isKeyOfKind(kind, keys[i] as CursorKey));
}
