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

/** timestamptz as PostgreSQL writes it with TimeZone=UTC, DateStyle=ISO (what the queries select). */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?\+00$/;

export function isKeyOfKind(kind: KeyKind, value: CursorKey): boolean {
  switch (kind) {
    case 'date':
      return typeof value === 'string' && isDate(value);
    case 'rank':
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
      return typeof value === 'string' && value.length <= 4096;
    case 'distance':
      return typeof value === 'string' && DISTANCE.test(value) && Number.isFinite(Number(value));
  }
}

export function keysMatch(kinds: readonly KeyKind[], keys: readonly CursorKey[]): boolean {
  return keys.length === kinds.length && kinds.every((kind, i) => isKeyOfKind(kind, keys[i] as CursorKey));
}
