/**
 * The controls every collection shares: `limit` (1-50, default 20, over 50 rejected:
 * decisions §5), `cursor` (1-1,024 characters) and `updatedSince` (a query instant that needs an
 * explicit `sort=updatedAt` and a selected `updatedAt`: spec GET /v1/events, GET /v1/venues).
 */
import { MAX_CURSOR_LENGTH } from './cursor.js';
import { normalizeQueryInstant, parseLimit } from './formats.js';
import type { ParameterReader } from './query-string.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 50;
export const INSTANT_MESSAGE = 'must be a UTC instant YYYY-MM-DDTHH:MM:SS with an optional 1-6 digit fraction and Z';

export function readLimit(r: ParameterReader): number {
  const text = r.scalar('limit');
  if (text === undefined) return DEFAULT_LIMIT;
  return parseLimit(text, MAX_LIMIT) ?? (r.fail('limit', `must be a whole number from 1 to ${MAX_LIMIT}`), DEFAULT_LIMIT);
}

export function readCursor(r: ParameterReader): string | null {
  const cursor = r.scalar('cursor');
  if (cursor === undefined) return null;
  if (cursor.length > MAX_CURSOR_LENGTH) r.fail('cursor', `must be at most ${MAX_CURSOR_LENGTH} characters`);
  return cursor;
}

export function readInstant(r: ParameterReader, name: string): string | null {
  const value = r.scalar(name);
  if (value === undefined) return null;
  return normalizeQueryInstant(value) ?? r.fail(name, INSTANT_MESSAGE) ?? null;
}

/** `updatedSince` with its two prerequisites. */
export function readUpdatedSince(r: ParameterReader, explicitSort: string | undefined, fields: readonly string[]): string | null {
  const since = readInstant(r, 'updatedSince');
  if (since !== null) {
    if (explicitSort !== 'updatedAt') r.fail('updatedSince', 'requires sort=updatedAt');
    if (!fields.includes('updatedAt')) r.fail('updatedSince', 'requires fields to contain updatedAt');
  }
  return since;
}

/** Pushes `name=value` unless the value is null or the default. */
export function putPair(pairs: [string, string][], name: string, value: string | null, fallback?: string): void {
  if (value !== null && value !== fallback) pairs.push([name, value]);
}
