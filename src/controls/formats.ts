/**
 * The Common formats of the specification (spec: Resources › Common formats), as pure checks
 * and normalizers shared by every route.
 */

export const PUBLIC_ID = /^[0-9A-Za-z]{12}$/;
export const isPublicId = (value: string): boolean => PUBLIC_ID.test(value);

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** `YYYY-MM-DD`, a real calendar date, years 0001-9999. */
export function isDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

const QUERY_INSTANT = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d{1,6}))?Z$/;

/**
 * A query instant: UTC `YYYY-MM-DDTHH:MM:SS`, optional 1-6 fractional digits, then `Z`.
 * Returns it normalized to exactly six fractional digits (spec: Events rule 10), or null.
 */
export function normalizeQueryInstant(value: string): string | null {
  const m = QUERY_INSTANT.exec(value);
  if (!m || !isDate(m[1] as string)) return null;
  const fraction = (m[5] ?? '').padEnd(6, '0');
  return `${m[1]}T${m[2]}:${m[3]}:${m[4]}.${fraction}Z`;
}

/** Trimmed name-filter text: 1..200 characters after trimming, or null. */
export function trimmedTerm(value: string, max = 200): string | null {
  const trimmed = value.trim();
  if (trimmed.length === 0 || [...trimmed].length > max) return null;
  return trimmed;
}
