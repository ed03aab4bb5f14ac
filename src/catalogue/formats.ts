/**
 * Scalar formats of the catalogue document (public-read-api-v1 "Common formats"; decisions §6).
 * Pure predicates, shared by the validator and the tests. publicIds and dates are the very checks
 * the read side applies (controls/formats.ts), so a document and a query agree on them.
 */
import { isDate, isPublicId as isPublicIdText } from '../controls/formats.js';

const LOCAL_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
// date-time with seconds, optional fraction, then Z or a ±hh:mm offset
const SCHEDULE_INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;
// query-instant form: UTC, seconds required, 1-6 fractional digits, Z
const UTC_INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?Z$/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Largest UTC offset PostgreSQL accepts in a timestamptz literal is ±15:59. */
const MAX_OFFSET_HOURS = 15;

export function isPublicId(value: unknown): value is string {
  return typeof value === 'string' && isPublicIdText(value);
}

/** `YYYY-MM-DD`, a real calendar date (leap years included), years 0001-9999: the read side's rule. */
export function isLocalDate(value: unknown): value is string {
  return typeof value === 'string' && isDate(value);
}

/** `HH:MM`, 24-hour. */
export function isLocalTime(value: unknown): value is string {
  return typeof value === 'string' && LOCAL_TIME.test(value);
}

function validClock(h: string | undefined, m: string | undefined, s: string | undefined): boolean {
  return Number(h) <= 23 && Number(m) <= 59 && Number(s) <= 59;
}

/**
 * Schedule boundary `instant`: date-time with seconds, optional fraction (1-9 digits), and `Z`
 * or a `+hh:mm`/`-hh:mm` offset (at most ±15:59, PostgreSQL's limit).
 */
export function isScheduleInstant(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = SCHEDULE_INSTANT.exec(value);
  if (!m || !isLocalDate(m[1]) || !validClock(m[2], m[3], m[4])) return false;
  if (m[5] !== undefined && (Number(m[5]) > MAX_OFFSET_HOURS || Number(m[6]) > 59)) return false;
  return true;
}

/** An explicit `updatedAt`: the query-instant form, UTC `YYYY-MM-DDTHH:MM:SS(.1-6 digits)?Z`. */
export function isUtcInstant(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = UTC_INSTANT.exec(value);
  return !!m && isLocalDate(m[1]) && validClock(m[2], m[3], m[4]);
}

/**
 * Text PostgreSQL can store unchanged: no NUL character (text columns reject it) and no lone
 * UTF-16 surrogate (it would be silently replaced when encoded as UTF-8).
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}
