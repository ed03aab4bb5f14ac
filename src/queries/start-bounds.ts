/**
 * Performance only (docs/performance.md): the page of an order whose filter bounds the OTHER start
 * column, read in two branches, as `upcoming` is in the default order (queries/phase.ts).
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
 * (normally none) are read by the second branch, from the partial index that holds them:
 * events_start_inconsistent (migration 002: the date more than a day BEFORE the instant's UTC
 * date) or events_dates_after_instants (migration 011: more than a day AFTER). Both branches keep
 * every filter, so the page is exactly the page of the plain statement. In every case the second
 * branch's Events lie before the first branch's bound in the page order, which a bounded search's
 * walk relies on (queries/bounded-scan.ts).
 *
 * The second branch of a start-instant order is ordered by keys no index holds: the partial indexes
 * are in local-date order, and ordered by the instant's own index PostgreSQL walked it from its start
 * (it prices a comparison of two columns at a third of the rows, not at the none there are: 1.1 s).
 *
 * Only the bound on the side the order starts from is added: the other side is reached by the
 * walk itself. One bound per page: when several filters imply one, the phase's comes first.
 */
import type { EventControls } from '../controls/events.js';
import { boundSql, historicalBranches, upcomingBranches, utcDate } from './phase.js';
import type { Params } from './sql.js';

/** Midnight UTC of a date expression, as a timestamptz. */
const midnightUtc = (date: string) => `((${date})::timestamp AT TIME ZONE 'UTC')`;
/** The instant's UTC date. */
const instantDate = (e: string) => `(${e}.start_at AT TIME ZONE 'UTC')::date`;
/** Held by events_dates_after_instants (migration 011): the local date more than a day after the instant's. */
const dateAfterInstant = (e: string) => `${e}.start_at IS NOT NULL AND ${e}.start_local_date > ${instantDate(e)} + 1`;
/** Held by events_start_inconsistent (migration 002): the local date more than a day before the instant's. */
const dateBeforeInstant = (e: string) => `${e}.start_at IS NOT NULL AND ${e}.start_local_date < ${instantDate(e)} - 1`;

/** The two branches' conditions; `rareUnindexed`: order the second by keys no index holds (unindexed in bounded-scan.ts). */
export interface StartBranches {
  readonly usual: string;
  readonly rare: string;
  readonly rareUnindexed: boolean;
}

const dateOrder = ([usual, rare]: [string, string]): StartBranches => ({ usual, rare, rareUnindexed: false });
const instantOrder = (usual: string, rare: string): StartBranches => ({ usual, rare, rareUnindexed: true });

/**
 * The two branches of the page, or null when no filter bounds the start of its order
 * (or the page is not ordered by a start column). `now` gives the operation time's placeholder;
 * `bound`: as upcomingBranches, for a phase's bound (`once` for the phase alone, whose plan is then
 * stable); a date or instant filter's is always inline (its plan depends on the value).
 */
export function startBranches(
  c: EventControls,
  e: string,
  p: Params,
  now: () => string,
  bound: 'once' | 'inline',
): StartBranches | null {
  const phase = c.temporalPhaseCode;
  switch (c.sort) {
    case 'startLocalDate':
      if (phase === 'upcoming') return dateOrder(upcomingBranches(now(), e, bound));
      // start_at >= T: the instant's UTC date is at least T's, so the local date at least the day before
      if (c.startInstantGte !== null) return dateOrder(upcomingBranches(p.add(c.startInstantGte, 'timestamptz'), e, 'inline'));
      return null;
    case '-startLocalDate':
      if (phase === 'historical') return dateOrder(historicalBranches(now(), e, bound));
      // start_at < T: the instant's UTC date is at most T's, so the local date at most the day after
      if (c.startInstantLt !== null) return dateOrder(historicalBranches(p.add(c.startInstantLt, 'timestamptz'), e, 'inline'));
      return null;
    case 'startInstant': {
      // upcoming: a start instant after now, or (the calendar rule) a local start date after the
      // local today, so on or after now's UTC date: the instant from the day before it on
      // startLocalDateGte=D: the instant from the day before D
      const upcoming = phase === 'upcoming';
      const from = upcoming ? `${utcDate(now())} - 1` : c.startLocalDateGte !== null ? `${p.add(c.startLocalDateGte, 'date')}::date - 1` : null;
      if (from === null) return null;
      const at = boundSql(midnightUtc(from), upcoming ? bound : 'inline');
      return instantOrder(`${e}.start_at >= ${at}`, `${e}.start_at < ${at} AND ${dateAfterInstant(e)}`);
    }
    case '-startInstant': {
      // historical: a start instant that has passed, or (the calendar rule) a local start date not
      // after the local today, so at most now's UTC date + 1: the instant before the third day
      // from now's UTC date; startLocalDateLt=D: the instant before the day after D
      const historical = phase === 'historical';
      const before = historical ? `${utcDate(now())} + 3` : c.startLocalDateLt !== null ? `${p.add(c.startLocalDateLt, 'date')}::date + 1` : null;
      if (before === null) return null;
      const at = boundSql(midnightUtc(before), historical ? bound : 'inline');
      return instantOrder(`${e}.start_at < ${at}`, `${e}.start_at >= ${at} AND ${dateBeforeInstant(e)}`);
    }
    default:
      return null;
  }
}

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
  const from = c.temporalPhaseCode === 'upcoming' ? now() : c.startInstantGte !== null ? p.add(c.startInstantGte, 'timestamptz') : null;
  const branches = from === null ? null : upcomingBranches(from, 'np', 'inline');
  if (branches === null && exact.length === 0) return null;
  const usual = [...(branches === null ? [] : [branches[0]]), ...exact].join(' AND ');
  return [usual, branches === null ? null : [branches[1], ...exact].join(' AND ')];
}
