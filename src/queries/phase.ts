/**
 * Temporal phase (decisions §4), as ONE SQL definition used both to project
 * `schedule.temporalPhaseCode`/`temporalPhaseBasisCode` and to filter by `temporalPhaseCode`, so
 * the filter returns exactly the Events whose returned phase matches. `now` is the request's
 * single operation time (a parameter), never the database clock. The first matching row decides.
 */

/** The columns of `events` the phase rule reads (phaseSql): what a query must output to apply it on another alias. */
export const PHASE_INPUTS = ['time_zone_known', 'start_at', 'end_at', 'end_precision', 'time_zone', 'start_local_date', 'end_local_date'] as const;

/** `e` is the events alias; `now` a timestamptz placeholder. */
export function phaseSql(e: string, now: string): { phase: string; basis: string } {
  const today = `(${now} AT TIME ZONE ${e}.time_zone)::date`;
  const exactBoth = `${e}.start_at IS NOT NULL AND ${e}.end_at IS NOT NULL`;
  const exactOpen = `${e}.start_at IS NOT NULL AND ${e}.end_precision IS NULL`;
  const phase = `(CASE
    WHEN NOT ${e}.time_zone_known THEN 'indeterminate'
    WHEN ${exactBoth} THEN
      CASE WHEN ${now} < ${e}.start_at THEN 'upcoming' WHEN ${now} < ${e}.end_at THEN 'current' ELSE 'historical' END
    WHEN ${exactOpen} THEN
      CASE WHEN ${now} < ${e}.start_at THEN 'upcoming' WHEN ${today} = ${e}.start_local_date THEN 'current' ELSE 'historical' END
    ELSE
      CASE WHEN ${today} < ${e}.start_local_date THEN 'upcoming'
           WHEN ${today} <= COALESCE(${e}.end_local_date, ${e}.start_local_date) THEN 'current'
           ELSE 'historical' END
  END)`;
  const basis = `(CASE
    WHEN NOT ${e}.time_zone_known THEN 'incomplete'
    WHEN ${exactBoth} THEN 'exact'
    WHEN ${exactOpen} THEN CASE WHEN ${now} < ${e}.start_at THEN 'exact' ELSE 'inferred' END
    ELSE 'calendar'
  END)`;
  return { phase, basis };
}

/**
 * Performance only (docs/architecture.md#current): every current Event satisfies this, and indexes return
 * the Events that do: those whose instants [start, end) hold `now` (both instants known: the
 * `exact` rule), and the others whose local dates [start date, end date or start date] meet the
 * local todays any zone can have at `now` (localTodays; the `inferred` rule's start date is that
 * today, and the `calendar` rule's today lies in the span). Each kind is asked in two parts, each
 * with its index's predicate written out (migration 013): a long span from a GiST of spans (this
 * expression), a short one from a btree of its start (a span of at most 24 hours that holds `now`
 * started in the 24 hours before it; a span of one local day is that day). A superset: the phase
 * rule, filtered beside it, decides.
 */
export function currentBound(e: string, now: string): string {
  return `(${currentBranches(e, now).join('\n      OR ')})`;
}

/**
 * currentBound's four parts, each its own index's predicate and condition: disjoint (a span is
 * long or short, its instants known or not), so a page can also ask each index apart (UNION ALL)
 * and read the candidates from the indexes alone (migration 016: their INCLUDE columns hold the
 * phase rule's inputs and the order keys; queries/current-candidates.ts).
 */
export function currentBranches(e: string, now: string): string[] {
  const [first, last] = localTodays(now);
  const instants = `${e}.start_at IS NOT NULL AND ${e}.end_at IS NOT NULL`;
  const dated = `(${e}.start_at IS NULL OR ${e}.end_at IS NULL)`;
  return [
    `(${instants} AND ${e}.end_at - ${e}.start_at > interval '24 hours'
        AND tstzrange(${e}.start_at, greatest(${e}.start_at, ${e}.end_at), '[)') @> ${now})`,
    `(${instants} AND ${e}.end_at - ${e}.start_at <= interval '24 hours'
        AND ${e}.start_at > ${now} - interval '24 hours' AND ${e}.start_at <= ${now} AND ${e}.end_at > ${now})`,
    `(${multiDayDates(e)}
        AND ${datesMeet(e, first, last)})`,
    `(${dated} AND (${e}.end_local_date IS NULL OR ${e}.end_local_date <= ${e}.start_local_date)
        AND ${e}.start_local_date >= ${first} AND ${e}.start_local_date <= ${last})`,
  ];
}

/** Events with a span of local dates (not both instants) of more than one day. */
const multiDayDates = (e: string) => `(${e}.start_at IS NULL OR ${e}.end_at IS NULL) AND ${e}.end_local_date > ${e}.start_local_date`;

/** Its span of local dates meets [first, last] (the expression of the span indexes: migrations 016, 022, 023). */
const datesMeet = (e: string, first: string, last: string) =>
  `daterange(${e}.start_local_date, greatest(${e}.start_local_date, COALESCE(${e}.end_local_date, ${e}.start_local_date)), '[]')
            && daterange(${first}, ${last}, '[]')`;

/**
 * The longest span of local dates (end date − start date, in days) read by its length
 * (migration 023: `events_current_short_dates`); longer ones by their range
 * (`events_current_long_dates`).
 */
export const SHORT_SPAN_DAYS = 7;

/**
 * The parts of a page of `current` alone (queries/current-candidates.ts): currentBranches, the
 * multi-day spans of local dates split by length. A span of L days that meets the local todays
 * [first, last] starts in [first − L, last]: one ordered range of `events_current_short_dates` per
 * length, read in the page's order as far as the page needs (the overlapping spans of every length
 * were all filtered and sorted before: ≈ 340 entries at 1,000,000 demo Events against ≈ 45), and
 * the few longer spans by their range. Still disjoint, still a superset: the phase rule decides.
 */
export function currentCandidateBranches(e: string, now: string): string[] {
  const [instantsLong, instantsShort, , days] = currentBranches(e, now);
  const [first, last] = localTodays(now);
  const length = `${e}.end_local_date - ${e}.start_local_date`;
  const short = Array.from({ length: SHORT_SPAN_DAYS }, (_, i) => i + 1).map(
    (spanDays) => `(${multiDayDates(e)} AND ${length} = ${spanDays}
        AND ${e}.start_local_date >= ${first} - ${spanDays} AND ${e}.start_local_date <= ${last})`,
  );
  const long = `(${multiDayDates(e)} AND ${length} > ${SHORT_SPAN_DAYS}
        AND ${datesMeet(e, first, last)})`;
  return [instantsLong!, instantsShort!, ...short, long, days!];
}

/**
 * The first and last local date that any zone has at `now`: zones run from UTC-12 to UTC+14, so
 * the UTC dates of now - 12 hours and now + 14 hours. Two dates for 22 hours of each UTC day (the
 * UTC date and the day before until 10:00, the UTC date and the day after from 12:00), three in
 * between: a fifth to a third fewer `current` candidates than the UTC date ± 1 day for most of
 * the day.
 */
export function localTodays(now: string): [string, string] {
  return [utcDate(`(${now} - interval '12 hours')`), utcDate(`(${now} + interval '14 hours')`)];
}

/** The UTC date of `now`: every zone's local date is within a day of it (UTC-12 to UTC+14). */
export const utcDate = (now: string) => `(${now} AT TIME ZONE 'UTC')::date`;

/** A bound computed from `now`: `once` as a sub-SELECT (an InitPlan, priced as unknown), `inline` as an expression. */
export const boundSql = (day: string, bound: 'once' | 'inline') => (bound === 'once' ? `(SELECT ${day})` : `(${day})`);

/**
 * Performance only (docs/architecture.md#start-date-branches): `temporalPhaseCode=upcoming` in the default order. Every
 * upcoming Event starts on or after the UTC date of `now` minus one day (a zone's local date is
 * within a day of UTC), unless its start instant lies more than a day after its own local start
 * date (an inconsistent document); such Events are read from their own small partial index
 * (events_start_inconsistent, migration 002). Both branches keep every filter and the phase
 * rule itself, so the page is exactly the page of the plain statement.
 *
 * `once` writes the bound as a sub-SELECT, which PostgreSQL runs once (an InitPlan) and prices as
 * an unknown value in every plan: for the upcoming page with no other filter, whose branches have
 * the same best plan for every `now`. Priced from the value, the custom plan of today's bound
 * always looked cheaper than the generic one, so PostgreSQL planned that page on every execution
 * (test/db/generic-plans.test.ts). `inline` lets the planner see the value (other filters and the
 * near walk choose their plans by it).
 */
export function upcomingBranches(now: string, e: string, bound: 'once' | 'inline'): [string, string] {
  // the first local date an upcoming Event can have
  const from = boundSql(`${utcDate(now)} - 1`, bound);
  return [
    `${e}.start_local_date >= ${from}`,
    `${e}.start_local_date < ${from} AND ${e}.start_at IS NOT NULL AND ${e}.start_local_date < (${e}.start_at AT TIME ZONE 'UTC')::date - 1`,
  ];
}

/**
 * Performance only (docs/architecture.md#start-date-branches): upcoming's usual branch (the local start date from the
 * UTC date `d` of now minus one day, upcomingBranches) as three disjoint conditions whose union
 * holds every upcoming Event of that branch, each a range of events_by_start_date (or of migration
 * 014's partial index) in the default order (start_local_date, start_rank, start_key): the plain
 * branch read and filtered every Event of the day before and of the day so far. An Event with a
 * start instant has start_rank 0 and start_key = its instant; the exact rules (both instants, or
 * a start instant and no end) make it upcoming only while now < its instant; the calendar rule
 * (a `date` end) only while its local today, at least d - 1 in every zone, is before its local
 * start date. So on day d - 1 only an Event starting after now can be upcoming; from day d on,
 * every Event after (d, 0, now) in the order may be; and of the Events on day d that started by
 * now, only those the calendar rule decides (the third range, held by migration 014's index).
 * The phase rule itself stays beside them: these conditions only leave out rows it rejects.
 */
export function upcomingRanges(now: string, e: string, bound: 'once' | 'inline'): PhaseRange[] {
  const dayBefore = utcDay(now, -1, bound);
  const day = utcDay(now, 0, bound);
  // a date-only Event is upcoming only before its local today, which is at least the first local date of now
  const firstToday = boundSql(localTodays(now)[0], bound);
  return [
    `${onDay(e, dayBefore)} AND ${e}.start_rank < 1 AND ${e}.start_key > ${now}`,
    `(${e}.start_local_date, ${e}.start_rank, ${e}.start_key) > (${day}, 0, ${now}) AND (${e}.start_rank = 0 OR ${e}.start_local_date > ${firstToday})`,
    `${onDay(e, day)} AND ${e}.start_rank < 1 AND ${e}.start_key <= ${now} AND ${calendarTimed(e)}`,
  ].map((condition) => ({ condition, unindexed: false }));
}

/** The UTC date of now plus `offset` days, as a bound (boundSql). */
const utcDay = (now: string, offset: number, bound: 'once' | 'inline') =>
  boundSql(`${utcDate(now)}${offset === 0 ? '' : offset > 0 ? ` + ${offset}` : ` - ${-offset}`}`, bound);

/**
 * One local start date, written as a range: an equality makes PostgreSQL drop the column from the
 * branch's sort order (a constant), and the union above then sorts every branch whole before
 * merging them, reading each to its LIMIT (likewise `start_rank < 1` / `> 0` for 0 and 1).
 */
const onDay = (e: string, day: string) => `${e}.start_local_date >= ${day} AND ${e}.start_local_date <= ${day}`;

/** A range of an order's index (`unindexed`: a few Events read apart and sorted, not walked in order). */
export interface PhaseRange {
  readonly condition: string;
  readonly unindexed: boolean;
}

/** Events with a start instant that the calendar rule decides (a `date` end): migration 014's partial index. */
const calendarTimed = (e: string) => `${e}.start_at IS NOT NULL AND ${e}.end_at IS NULL AND ${e}.end_precision IS NOT NULL`;

/**
 * Performance only (docs/architecture.md#start-date-branches): historical newest first's usual branch (the local
 * start date at most the UTC date `d` of now plus one day, historicalBranches), the mirror of
 * upcomingRanges in `-startLocalDate` order (start_local_date DESC, start_rank, start_key DESC):
 * the plain branch read and filtered every Event of the days d + 1, d and d - 1 that was still to
 * come or current (≈ 1,200 rows per first page at 1M). An Event with a start instant after now
 * is upcoming by the exact rules, so on each of those three days the walk starts at now's
 * instant among the timed Events (then the date-only ones); the days before walk whole; and the
 * timed Events of those days that the calendar rule decides (historical by their dates whatever
 * their instant says) come apart from migration 014's partial index, sorted. A date-only Event of
 * day d + 1 can be historical too (an end date before its start date, in a zone whose today is
 * already d + 1). The phase rule stays beside them, after two cheap conditions every historical
 * Event of those days meets (the rule's local today costs a zone conversion per row): a timed one
 * has no end instant after now, a date-only one ended before the last local date of now.
 */
export function historicalRanges(now: string, e: string, bound: 'once' | 'inline'): PhaseRange[] {
  const day = (offset: number) => utcDay(now, offset, bound);
  const lastToday = boundSql(localTodays(now)[1], bound);
  const walks = [1, 0, -1].flatMap((offset) => [
    `${onDay(e, day(offset))} AND ${e}.start_rank < 1 AND ${e}.start_key <= ${now} AND (${e}.end_at IS NULL OR ${e}.end_at <= ${now})`,
    `${onDay(e, day(offset))} AND ${e}.start_rank > 0 AND COALESCE(${e}.end_local_date, ${e}.start_local_date) < ${lastToday}`,
  ]);
  return [
    ...walks.map((condition) => ({ condition, unindexed: false })),
    { condition: `${e}.start_local_date <= ${day(-2)}`, unindexed: false },
    {
      condition: `${e}.start_local_date >= ${day(-1)} AND ${e}.start_local_date <= ${day(1)} AND ${e}.start_rank = 0 AND ${e}.start_key > ${now} AND ${calendarTimed(e)}`,
      unindexed: true,
    },
  ];
}

/**
 * Performance only (docs/architecture.md#start-date-branches): `temporalPhaseCode=historical` in the `-startLocalDate`
 * order, the mirror of `upcomingBranches`. A historical Event either started at an instant that
 * has passed (the two rules with a start instant test it before anything else) or, by the calendar
 * rule, has a local start date not after its local today, which is at most the UTC date plus one
 * day. So its local start date is on or before that bound (the usual branch: a range walk of
 * events_by_start_date downwards from it), unless the date lies more than a day after its start
 * instant's UTC date (the second branch, held by the partial index events_dates_after_instants of
 * migration 011, normally empty). Both branches keep the phase rule itself, so the page is the
 * plain statement's.
 */
export function historicalBranches(now: string, e: string, bound: 'once' | 'inline'): [string, string] {
  // the last local date a historical Event can start on (unless inconsistent)
  const from = boundSql(`${utcDate(now)} + 1`, bound);
  return [
    `${e}.start_local_date <= ${from}`,
    `${e}.start_local_date > ${from} AND ${e}.start_at IS NOT NULL AND ${e}.start_local_date > (${e}.start_at AT TIME ZONE 'UTC')::date + 1`,
  ];
}

/**
 * The phase filter, written for the planner's estimate (the rows are the same either way).
 * PostgreSQL has no statistics of the phase expression and prices `phase = $n` at 0.5% of the
 * rows; `upcoming` and `historical` are about half of the Events each, so beside another filter it
 * would collect that filter's matches and sort them (half of a big city's Events), not walk the
 * order from the upcoming bound, which finds the page in a few milliseconds. Written
 * as `coalesce(phase = $n, false)` (a boolean function of the row: priced at half of the rows)
 * for those two. `indeterminate` (rare) states its column as well, which the planner knows;
 * `current` (rare) keeps the plain comparison beside its own bound (currentBound).
 * `e`: the events alias; `now`: the operation time's placeholder; `value`: the code's.
 */
export function phaseFilter(e: string, now: string, value: string, code: string): string {
  const { phase } = phaseSql(e, now);
  if (code === 'upcoming' || code === 'historical') return `coalesce(${phase} = ${value}, false)`;
  // indeterminate is exactly an unknown time zone (the rule's first case), stated for the planner's
  // estimate and the partial index of migration 012
  if (code === 'indeterminate') return `NOT ${e}.time_zone_known AND coalesce(${phase} = ${value}, false)`;
  return `${phase} = ${value}`;
}
