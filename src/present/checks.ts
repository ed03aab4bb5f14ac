/**
 * Checks on stored values as they are projected. The importer stores what it is given
 * (decisions §6); the public shapes are guaranteed here. A value the contract cannot represent
 * is a `ProjectionError` → sanitized 500, never silently dropped or truncated (spec: Event rule 3).
 */
import { ProjectionError } from './errors.js';
import { DIGITAL_LOCATION_KINDS } from '../plan/event-fields.js';

export const MAX_URL_ENTRIES = 25;

export function fail(what: string): never {
  throw new ProjectionError(`invalid stored projection: ${what}`);
}

export function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) fail(`${what} must be a non-empty string`);
  return value;
}

export function nullableText(value: unknown, what: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') fail(`${what} must be a string or null`);
  return value;
}

export function nonEmptyOrNull(value: unknown, what: string): string | null {
  return value === null || value === undefined ? null : text(value, what);
}

export function oneOf<T extends string>(value: unknown, allowed: readonly T[], what: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) fail(`${what} is not one of ${allowed.join(', ')}`);
  return value as T;
}

export function httpUrl(value: unknown, what: string): string {
  if (typeof value !== 'string' || !/^https?:\/\/[^\s]+$/.test(value) || !URL.canParse(value)) {
    fail(`${what} must be an http(s) URL`);
  }
  return value;
}

/** A positive integer at most 2^53-1, from int8 text, or null. */
export function positiveIntOrNull(value: unknown, what: string): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) fail(`${what} must be a positive integer`);
  return n;
}

export function nonNegativeIntOrNull(value: unknown, what: string): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) fail(`${what} must be a non-negative integer`);
  return n;
}

export interface UrlEntry {
  url: string;
  label: string | null;
  kindCode?: (typeof DIGITAL_LOCATION_KINDS)[number];
}

/** A complete public URL collection: at most 25 entries, each `{url, label}` (+ `kindCode`). */
export function urlCollection(value: unknown, what: string, withKind: true): Required<UrlEntry>[];
export function urlCollection(value: unknown, what: string, withKind?: false): UrlEntry[];
export function urlCollection(value: unknown, what: string, withKind = false): UrlEntry[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) fail(`${what} must be a list`);
  if (value.length > MAX_URL_ENTRIES) fail(`${what} holds ${value.length} entries (at most ${MAX_URL_ENTRIES})`);
  return value.map((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null) fail(`${what}[${i}] must be an object`);
    const e = entry as Record<string, unknown>;
    const out: UrlEntry = { url: httpUrl(e.url, `${what}[${i}].url`), label: nullableText(e.label, `${what}[${i}].label`) };
    if (withKind) out.kindCode = oneOf(e.kindCode, DIGITAL_LOCATION_KINDS, `${what}[${i}].kindCode`);
    return out;
  });
}

/** Complete membership collections are bounded like URL collections. */
export function boundedCollection<T>(items: T[], what: string): T[] {
  if (items.length > MAX_URL_ENTRIES) fail(`${what} holds ${items.length} entries (at most ${MAX_URL_ENTRIES})`);
  return items;
}
