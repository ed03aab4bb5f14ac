/**
 * The controls every collection shares: `limit` (1-50, default 20, over 50 rejected:
 * decisions §5), `cursor` (1-1,024 characters) and `updatedSince` (a query instant that needs an
 * explicit `sort=updatedAt` and a selected `updatedAt`: spec GET /v1/events, GET /v1/venues).
 * Their schemas are in parameter-schemas.ts.
 */
import type { TString } from '@sinclair/typebox';
import { normalizeQueryInstant } from './formats.js';
import type { ParameterReader } from './parameter-reader.js';
import { CURSOR, DEFAULT_LIMIT, LIMIT, UPDATED_SINCE, type ParameterSpec } from './parameter-schemas.js';

export function readLimit(r: ParameterReader): number {
  return r.integer(LIMIT) ?? DEFAULT_LIMIT;
}

export function readCursor(r: ParameterReader): string | null {
  return r.value(CURSOR) ?? null;
}

/**
 * A query instant its schema accepts. Whether its date exists (2023-02-29) is checked by hand;
 * the result is normalized to six fractional digits (spec: Events rule 10).
 */
export function readInstant(r: ParameterReader, spec: ParameterSpec<TString>): string | null {
  const value = r.value(spec);
  if (value === undefined) return null;
  return normalizeQueryInstant(value) ?? r.fail(spec.name, spec.invalid) ?? null;
}

/** `updatedSince` with its two prerequisites (rules across parameters: by hand). */
export function readUpdatedSince(r: ParameterReader, explicitSort: string | undefined, fields: readonly string[]): string | null {
  const since = readInstant(r, UPDATED_SINCE);
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
