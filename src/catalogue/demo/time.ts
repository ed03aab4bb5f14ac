/**
 * Calendar helpers of the demo generator: date arithmetic on `YYYY-MM-DD` strings and the
 * conversion of an organizer's local date and time in an IANA zone to an instant (Intl).
 */

const DAY_MS = 86_400_000;

// Both conversions are remembered: a catalogue's dates are a few thousand days around its anchor
// date, asked for again and again (Date's parsing and toISOString are costly per Event). Bounded
// all the same, for a caller that walks many more.
const MEMO_MAX = 100_000;
const msOfDate = new Map<string, number>();
const dateOfDay = new Map<number, string>();

export function dateToMs(date: string): number {
  let ms = msOfDate.get(date);
  if (ms === undefined) {
    ms = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
    if (msOfDate.size < MEMO_MAX) msOfDate.set(date, ms);
  }
  return ms;
}

export function msToDate(ms: number): string {
  const day = Math.floor(ms / DAY_MS); // the UTC date depends on the day only
  let date = dateOfDay.get(day);
  if (date === undefined) {
    date = new Date(ms).toISOString().slice(0, 10);
    if (dateOfDay.size < MEMO_MAX) dateOfDay.set(day, date);
  }
  return date;
}

/**
 * End of `isoSeconds`' own arithmetic, which covers 1970 (from 0 on, `%` is a modulo) up to 9999
 * (`toISOString` writes a four-digit year): `Date` writes the rest.
 */
const FOUR_DIGIT_YEARS_END = Date.UTC(10_000, 0, 1);

/**
 * `new Date(ms).toISOString().slice(0, 19)` (`YYYY-MM-DDTHH:MM:SS`): the date from the memo, the
 * time of day by arithmetic (a Date and its text per entity are a noticeable share of a seed
 * worker's generating, in every entity's change marker).
 */
export function isoSeconds(ms: number): string {
  if (!(ms >= 0 && ms < FOUR_DIGIT_YEARS_END)) return new Date(ms).toISOString().slice(0, 19);
  const seconds = Math.floor((ms % DAY_MS) / 1000);
  return `${msToDate(ms)}T${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}

export function addDays(date: string, days: number): string {
  return msToDate(dateToMs(date) + days * DAY_MS);
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Per zone, its formatter, or null for a zone Intl does not know (asked once: a refusal costs ≈ 60 µs). */
const formatters = new Map<string, Intl.DateTimeFormat | null>();
const UNKNOWN_ZONE = new RangeError('a time zone Intl does not know');

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      });
    } catch {
      f = null;
    }
    formatters.set(zone, f);
  }
  if (f === null) throw UNKNOWN_ZONE;
  return f;
}

/** The zone's UTC offset in minutes at instant `ms` (local = UTC + offset), asked of Intl. */
function intlOffsetAt(ms: number, zone: string): number {
  const parts: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute));
  return Math.round((local - Math.floor(ms / 60_000) * 60_000) / 60_000);
}

/**
 * Offsets per zone and UTC week: the offset at the week's start, at its end, and the first minute
 * of the second one (found by bisection) when they differ. Intl is slow (formatToParts asked per
 * Event would be a tenth of a seed's Node CPU); a week holds at most one change of offset in any
 * real zone, and a catalogue spans a few hundred weeks, so a zone costs a few hundred entries.
 * The offset at a week's end is asked only when the next week starts with another one: with at
 * most one change, the two are equal otherwise (one Intl call per week instead of two).
 */
const WEEK_MS = 7 * DAY_MS;
interface Week {
  readonly before: number;
  readonly after: number;
  /** First minute (UTC ms) with `after`. */
  readonly change: number;
}
/** Per zone, by week number (a map per zone: no key string built per lookup). */
const weeks = new Map<string, Map<number, Week>>();
/** Per zone, the offset at each week's first minute, by week number. */
const weekStarts = new Map<string, Map<number, number>>();

function offsetAtWeekStart(w: number, zone: string): number {
  let starts = weekStarts.get(zone);
  if (!starts) weekStarts.set(zone, (starts = new Map()));
  let offset = starts.get(w);
  if (offset === undefined) {
    offset = intlOffsetAt(w * WEEK_MS, zone);
    starts.set(w, offset);
  }
  return offset;
}

function offsetAt(ms: number, zone: string): number {
  const w = Math.floor(ms / WEEK_MS);
  let zoneWeeks = weeks.get(zone);
  if (!zoneWeeks) weeks.set(zone, (zoneWeeks = new Map()));
  let week = zoneWeeks.get(w);
  if (!week) {
    let lo = w * WEEK_MS;
    let hi = lo + WEEK_MS - 60_000;
    const before = offsetAtWeekStart(w, zone);
    const after = offsetAtWeekStart(w + 1, zone) === before ? before : intlOffsetAt(hi, zone);
    if (before === after) hi += 60_000;
    else
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
        if (intlOffsetAt(mid, zone) === before) lo = mid;
        else hi = mid;
      }
    week = { before, after, change: hi };
    zoneWeeks.set(w, week);
  }
  return Math.floor(ms / 60_000) * 60_000 < week.change ? week.before : week.after;
}

/** Offset in minutes in effect at local `date` `time` in `zone`. */
function localOffset(date: string, time: string, zone: string): number {
  const guess = dateToMs(date) + Number(time.slice(0, 2)) * 3_600_000 + Number(time.slice(3, 5)) * 60_000;
  const offset = offsetAt(guess, zone);
  return offsetAt(guess - offset * 60_000, zone);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * The instant of local `date` `time` (HH:MM) in `zone`, written either in UTC (`…Z`) or with the
 * zone's offset (`…+05:30`). A zone unknown to Intl is treated as UTC.
 */
export function instantOf(date: string, time: string, zone: string, withOffset: boolean): string {
  let offset = 0;
  try {
    offset = localOffset(date, time, zone);
  } catch {
    offset = 0; // not a real zone (the demo's "Mars/Olympus_Mons")
  }
  if (withOffset) {
    const sign = offset < 0 ? '-' : '+';
    const abs = Math.abs(offset);
    return `${date}T${time}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  }
  const ms = dateToMs(date) + Number(time.slice(0, 2)) * 3_600_000 + Number(time.slice(3, 5)) * 60_000 - offset * 60_000;
  return `${isoSeconds(ms)}Z`;
}

/** Adds minutes to a local date and time; returns the new local [date, time]. */
export function addMinutes(date: string, time: string, minutes: number): [string, string] {
  const total = Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) + minutes;
  const days = Math.floor(total / 1440);
  const rest = total - days * 1440;
  return [addDays(date, days), `${pad(Math.floor(rest / 60))}:${pad(rest % 60)}`];
}
