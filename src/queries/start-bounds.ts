/**
 * Performance only (docs/architecture.md#start-date-branches): the page of an order whose filter bounds the OTHER start
 * column, read in branches, as `upcoming` is in the default order (queries/phase.ts).
 *
 * An Event's local start date and its start instant normally lie within a day of each other: the
 * instant's UTC date is the local date, or the day before or after (zones from UTC-12 to UTC+14).
 * So a bound on one column implies a bound on the other, and the page can be read as a range of
 * the order's own index from there. Without it, PostgreSQL walked the order's index from its
 * start and filtered every Event it passed: `startInstantGte=<today>` in the default order, or
 * `temporalPhaseCode=upcoming&sort=startInstant`, passed every past Event first, 1.2–1.9 s at
 * 1,000,000 Events, and a cold run ended at the statement timeout as a 503.
 *
 * A document may give an Event a local date more than a day away from its instant; such Events
 * (normally none) escape the bound and are read by a branch of their own, from the partial index
 * that holds them: events_start_inconsistent (migration 002: the date more than a day BEFORE the
 * instant's UTC date) or events_dates_after_instants (migration 011: more than a day AFTER). Every
 * branch keeps every filter, so the page is exactly the page of the plain statement. The Events
 * escaping the bound at the order's start lie before it in the page order, which a bounded
 * search's walk relies on (queries/bounded-scan.ts).
 *
 * The escaping Events of a start-instant order, and those of the bound at a date order's end, are
 * ordered by keys no index holds (below).
 *
 * At most one bound per side: when several filters imply one, the phase's is taken.
 */
import type { EventControls } from '../controls/events.js';
import { boundSql, historicalBranches, historicalRanges, upcomingBranches, upcomingRanges, utcDate, type PhaseRange } from './phase.js';
import type { Params } from './sql.js';

/** Midnight UTC of a date expression, as a timestamptz. */
const midnightUtc = (date: string) => `((${date})::timestamp AT TIME ZONE 'UTC')`;
/** The instant's UTC date. */
const instantDate = (e: string) => `(${e}.start_at AT TIME ZONE 'UTC')::date`;
/** Held by events_dates_after_instants (migration 011): the local date more than a day after the instant's. */
const dateAfterInstant = (e: string) => `${e}.start_at IS NOT NULL AND ${e}.start_local_date > ${instantDate(e)} + 1`;
/** Held by events_start_inconsistent (migration 002): the local date more than a day before the instant's. */
const dateBeforeInstant = (e: string) => `${e}.start_at IS NOT NULL AND ${e}.start_local_date < ${instantDate(e)} - 1`;

/**
 * One side's bound on the order's column, and the Events that escape it (a partial index's);
 * `ranges`: the usual branch's Events that its filter can accept, as disjoint ranges of the
 * indexes of the order this side starts (upcoming's ascending, historical's descending: phase.ts).
 */
interface Side {
  readonly usual: string;
  readonly rare: string;
  readonly ranges?: readonly PhaseRange[];
}

/**
 * The page's branches: `usual`, a range of the order's index between the bounds (a bounded
 * search walks it: queries/bounded-scan.ts), and each bound's escaping Events, `unindexed` when
 * they are to be ordered by keys no index holds (unindexed in bounded-scan.ts).
 */
export interface StartBranches {
  readonly usual: string;
  /** The page reads these instead of `usual` when given (not a bounded search's walk: it walks `usual`). */
  readonly ranges?: readonly PhaseRange[];
  readonly rares: readonly PhaseRange[];
}

/**
 * The branches of the page, or null when no filter bounds its order (or the page is not ordered
 * by a start column). `now` gives the operation time's placeholder; `bound`: as upcomingBranches,
 * for a phase's bound (`once` for the phase alone, whose plan is then stable); a date or instant
 * filter's is always inline (its plan depends on the value). `twoSided`: also the bound at the
 * order's end, so that a walk stops there (a phase that contradicts a date filter, or a bound
 * beyond the catalogue, read every Event to the end: `startInstantGte=<now>&temporalPhaseCode=historical`
 * 1.4–1.6 s for no row, and a 503 cold). A bounded search takes the start's only: its rest part
 * reads every Event after its walk, and the end's escaping Events lie there.
 *
 * The branches are disjoint: each side's usual and escaping conditions exclude each other, and the
 * two sides' escaping Events are of opposite kinds (a local date more than a day before its
 * instant's UTC date, or more than a day after), so no Event is read twice.
 */
export function startBranches(
  c: EventControls,
  e: string,
  p: Params,
  now: () => string,
  bound: 'once' | 'inline',
  twoSided: boolean,
): StartBranches | null {
  const phase = c.temporalPhaseCode;
  const byDate = c.sort === 'startLocalDate' || c.sort === '-startLocalDate';
  if (!byDate && c.sort !== 'startInstant' && c.sort !== '-startInstant') return null;
  // each side: its bound from the phase first, else from the other start column's filter
  const lower = (): Side | null => {
    if (byDate) return dateFrom(c, e, p, now, bound);
    // upcoming: a start instant after now, or (the calendar rule) a local start date after the
    // local today, so on or after now's UTC date: the instant from the day before it;
    // startLocalDateGte=D: the instant from the day before D
    if (phase === 'upcoming') return instantFrom(e, boundSql(midnightUtc(`${utcDate(now())} - 1`), bound));
    return c.startLocalDateGte === null ? null : instantFrom(e, midnightUtc(`${p.add(c.startLocalDateGte, 'date')}::date - 1`));
  };
  const upper = (): Side | null => {
    if (byDate) {
      // historical, or start_at < T: the instant's UTC date is at most now's (T's), so the local
      // date at most the day after
      if (phase === 'historical') {
        // newest first walks the ranges (phase.ts); oldest first has none
        const branches = historicalBranches(now(), e, bound);
        return ascending ? side(branches) : side(branches, historicalRanges(now(), e, bound));
      }
      return c.startInstantLt === null ? null : side(historicalBranches(p.add(c.startInstantLt, 'timestamptz'), e, 'inline'));
    }
    // historical: a start instant that has passed, or (the calendar rule) a local start date not
    // after the local today, so at most now's UTC date + 1: the instant before the third day from
    // now's UTC date; startLocalDateLt=D: the instant before the day after D
    if (phase === 'historical') return instantBefore(e, boundSql(midnightUtc(`${utcDate(now())} + 3`), bound));
    return c.startLocalDateLt === null ? null : instantBefore(e, midnightUtc(`${p.add(c.startLocalDateLt, 'date')}::date + 1`));
  };
  const ascending = c.sort === 'startLocalDate' || c.sort === 'startInstant';
  const [first, last] = ascending ? [lower, upper] : [upper, lower];
  const start = first();
  const end = twoSided ? last() : null;
  if (start === null && end === null) return null;
  const sides = [start, end].filter((s): s is Side => s !== null);
  // Escaping Events in the order of their partial index only at a date order's start (as upcoming
  // always was); elsewhere PostgreSQL walked the order's own index for them, from the bound to the
  // end of the table (it prices the comparison of two columns at a third of the rows, not at the
  // none there are): `startInstantGte&startInstantLt` a month apart, 1.6 s for that branch alone.
  const rare = (s: Side) => ({ condition: s.rare, unindexed: !(byDate && s === start) });
  const usual = sides.map((s) => s.usual).join(' AND ');
  // the start side's ranges (in the order that side starts), each within the end's bound
  const ranges = byDate && start?.ranges !== undefined ? start.ranges.map((r) => (end === null ? r : { ...r, condition: `${r.condition} AND ${end.usual}` })) : undefined;
  return { usual, rares: sides.map(rare), ...(ranges !== undefined ? { ranges } : {}) };
}

// (ranges set here, not added to a spread of a side: plan/collection.ts `withBase`)
const side = ([usual, rare]: [string, string], ranges?: readonly PhaseRange[]): Side => (ranges === undefined ? { usual, rare } : { usual, rare, ranges });

/**
 * The lower bound of the local start date: upcoming, or start_at >= T: the instant's UTC date is
 * at least now's (T's), so the local date at least the day before (upcomingBranches).
 */
function dateFrom(c: EventControls, e: string, p: Params, now: () => string, bound: 'once' | 'inline'): Side | null {
  if (c.temporalPhaseCode === 'upcoming') return side(upcomingBranches(now(), e, bound), upcomingRanges(now(), e, bound));
  return c.startInstantGte === null ? null : side(upcomingBranches(p.add(c.startInstantGte, 'timestamptz'), e, 'inline'));
}
const instantFrom = (e: string, at: string): Side => ({ usual: `${e}.start_at >= ${at}`, rare: `${e}.start_at < ${at} AND ${dateAfterInstant(e)}` });
const instantBefore = (e: string, at: string): Side => ({ usual: `${e}.start_at < ${at}`, rare: `${e}.start_at >= ${at} AND ${dateBeforeInstant(e)}` });

/**
 * Where the near walk (queries/near-events.ts: `near` in the default order) starts and ends in
 * each cell, on `np` (event_places_by_start_date is in local start date order): from upcoming's
 * bound or a start instant's (the two branches of `startLocalDate` above, the second for the
 * Events whose dates escape the bound), within the page's own startLocalDate bounds (exact: added
 * to both). Without them the walk read every position of the radius before the first match and
 * after the last: near London within 500 km, `startLocalDateGte=2031-06-01` 294 ms.
 */
export function nearWalkBounds(c: EventControls, p: Params, now: () => string): [string, string | null] | null {
  const exact = [
    ...(c.startLocalDateGte !== null ? [`np.start_local_date >= ${p.add(c.startLocalDateGte, 'date')}`] : []),
    ...(c.startLocalDateLt !== null ? [`np.start_local_date < ${p.add(c.startLocalDateLt, 'date')}`] : []),
  ];
  const from = dateFrom(c, 'np', p, now, 'inline');
  if (from === null && exact.length === 0) return null;
  const usual = [...(from === null ? [] : [from.usual]), ...exact].join(' AND ');
  return [usual, from === null ? null : [from.rare, ...exact].join(' AND ')];
}
