/**
 * The Events page statement: one SELECT over active Events with every filter, the context, the
 * keyset boundary and the order of the plan, fetching `limit + 1` rows to learn `hasMore`.
 * Only the columns the selection needs are read (allow-list); never `*` of a table (an outer
 * query reading what the rows carry takes `*` of the allow-listed page subquery).
 */
import type { EventsPlan } from '../plan/events.js';
import type { EventSort } from '../plan/event-fields.js';
import { carriedColumns, type CarriedColumns } from './event-carried.js';
import { lowerName } from '../text/normalize.js';
import { selectedMediaJoin } from './items.js';
import { afterNearWalk, afterWalk, boundedSearch, nearWalkedSource, termsWithoutTrigram, unindexed, unindexedMatchText, walkedSource, type ScanPart } from './bounded-scan.js';
import { nameContainsCondition, nameContainsUnindexed } from './name-search.js';
import { shapedSearch, walkedIds, type SearchChoice } from './search-shape.js';
import { eventNearCondition } from './near.js';
import { nearEventsWalk } from './near-events.js';
import { boundSql, currentBound, currentCandidateBranches, phaseFilter } from './phase.js';
import { currentCandidates } from './current-candidates.js';
import { nearWalkBounds, startBranches } from './start-bounds.js';
import { Params, keysetAfter, opaqueValues, orderBy, orderByOutputs, orderKeyOutputs, rowLimit, wildcardContains, type SortKey } from './sql.js';
import type { Statement } from './statement.js';
import { EVENT_RAW_TEXT, eventOutputs, outputsOf, selectList, sortKeyOutputs, type Output } from './event-columns.js';

export { eventColumns, type EventOwnColumns, type EventRow } from './event-columns.js';

const SORT_KEYS: Record<EventSort, readonly SortKey[]> = {
  startLocalDate: [
    { expr: 'e.start_local_date', direction: 'asc', cast: 'date' },
    { expr: 'e.start_rank', direction: 'asc', cast: 'int2' },
    { expr: 'e.start_key', direction: 'asc', cast: 'timestamptz' },
    { expr: 'e.public_id', direction: 'asc', cast: 'text', kind: 'publicId' },
  ],
  '-startLocalDate': [
    { expr: 'e.start_local_date', direction: 'desc', cast: 'date' },
    { expr: 'e.start_rank', direction: 'asc', cast: 'int2' },
    { expr: 'e.start_key', direction: 'desc', cast: 'timestamptz' },
    { expr: 'e.public_id', direction: 'asc', cast: 'text', kind: 'publicId' },
  ],
  startInstant: [
    { expr: 'e.start_at', direction: 'asc', cast: 'timestamptz' },
    { expr: 'e.public_id', direction: 'asc', cast: 'text', kind: 'publicId' },
  ],
  '-startInstant': [
    { expr: 'e.start_at', direction: 'desc', cast: 'timestamptz' },
    { expr: 'e.public_id', direction: 'asc', cast: 'text', kind: 'publicId' },
  ],
  updatedAt: [
    { expr: 'e.updated_at', direction: 'asc', cast: 'timestamptz' },
    { expr: 'e.public_id', direction: 'asc', cast: 'text', kind: 'publicId' },
  ],
};

/** The Event membership of a context (spec: GET /v1/events rule 2; decisions §5). */
function contextFilter(plan: EventsPlan, p: Params): string | null {
  const ctx = plan.controls.context;
  if (ctx === null) return null;
  switch (ctx.kind) {
    case 'artist':
      return `e.id IN (SELECT ea.event_id FROM event_artists ea JOIN artists a ON a.id = ea.artist_id
                       WHERE a.public_id = ${p.add(ctx.artistId)} AND a.active)`;
    case 'venue':
      return `e.id IN (SELECT ev.event_id FROM event_venues ev JOIN venues v ON v.id = ev.venue_id
                       WHERE v.public_id = ${p.add(ctx.venueId)} AND v.active)`;
    case 'series':
      return `e.id IN (${seriesContextEvents(p, ctx.seriesId, ctx.editionId)})`;
  }
}

/** The phase filter for `code` (queries/phase.ts phaseFilter) on any alias, its placeholders fixed. */
const phaseFilterOf = (code: string, now: string, value: string) => (alias: string) => phaseFilter(alias, now, value, code);

/**
 * Event ids of a Series context (decisions §5): a `direct` Series' direct members, or the
 * programs of an `editioned` Series' active Editions, narrowed to one Edition when given. Not
 * filtered by Event activity. Shared with the lineup routes (decisions §2, routes 13 and 17).
 */
export function seriesContextEvents(p: Params, seriesId: string, editionId: string | null): string {
  const series = p.add(seriesId);
  if (editionId === null) {
    return `SELECT es.event_id FROM series s JOIN event_series es ON es.series_id = s.id
             WHERE s.public_id = ${series} AND s.active AND s.structure_code = 'direct'
            UNION ALL
            SELECT ee.event_id FROM series s JOIN editions ed ON ed.series_id = s.id AND ed.active
              JOIN event_editions ee ON ee.edition_id = ed.id
             WHERE s.public_id = ${series} AND s.active AND s.structure_code = 'editioned'`;
  }
  return `SELECT ee.event_id FROM series s JOIN editions ed ON ed.series_id = s.id AND ed.active
            JOIN event_editions ee ON ee.edition_id = ed.id
           WHERE s.public_id = ${series} AND s.active AND s.structure_code = 'editioned'
             AND ed.public_id = ${p.add(editionId)}`;
}

/**
 * `scan`: a part of a bounded search (only when `boundedSearch(plan)`); `choice`: a one-term
 * search written for the plan the planner chose (only when `shapedSearch(plan)`; queries/search-shape.ts).
 */
export function eventsPageStatement(plan: EventsPlan, scan?: ScanPart, choice?: SearchChoice): Statement {
  const c = plan.controls;
  if (choice !== undefined && (scan !== undefined || !shapedSearch(plan))) throw new Error('a search shape for a page that is not a one-term search');
  const shape = choice?.shape;
  const p = new Params();
  // The operation time is a parameter only when used (an unreferenced parameter has no type).
  let nowParam: string | undefined;
  const now = () => (nowParam ??= p.add(plan.now, 'timestamptz'));
  const upcoming = c.temporalPhaseCode === 'upcoming';
  // historical newest first: the mirror of upcoming in the default order (queries/phase.ts)
  const historicalDown = c.temporalPhaseCode === 'historical' && c.sort === '-startLocalDate';
  const where = ['e.active'];
  const ctx = contextFilter(plan, p);
  if (ctx) where.push(ctx);
  // a bounded search's parts match its terms without a trigram through expressions no index holds
  // (queries/bounded-scan.ts); its other terms keep their indexes
  // and a search walked in its order (shape `walk`) matches its term through them too
  const everyTerm = shape === 'walk';
  const free = scan !== undefined ? termsWithoutTrigram(plan) : { name: everyTerm, city: everyTerm, country: everyTerm };
  // a shaped search's term is priced alike in its custom and generic plans (the plan is the shape's)
  const terms = shape !== undefined ? opaqueValues(p) : p;
  if (c.nameContains !== null) where.push(free.name ? nameContainsUnindexed(c.nameContains, terms) : nameContainsCondition(c.nameContains, terms));
  // The primary active Venue's keys (decisions §5), kept on the Event by the importer
  // (src/catalogue/primary-venue.ts, migration 003).
  const key = (column: string, unindexedForm: boolean) => (unindexedForm ? unindexedMatchText(column) : column);
  if (c.cityContains !== null) {
    where.push(`${key('e.primary_locality_key', free.city)} LIKE ${terms.add(wildcardContains(lowerName(c.cityContains)))}`);
  }
  if (c.countryContains !== null) {
    where.push(`${key('e.primary_country_key', free.country)} LIKE ${terms.add(wildcardContains(lowerName(c.countryContains)))}`);
  }
  // the phase filter on alias `e`, or on another (a page of current alone checks it once, above
  // its parts: queries/current-candidates.ts), with the same placeholders
  const phase = c.temporalPhaseCode === null ? null : phaseFilterOf(c.temporalPhaseCode, now(), p.add(c.temporalPhaseCode));
  const phaseOnE = phase?.('e') ?? null;
  if (phaseOnE !== null) where.push(phaseOnE);
  const current = c.temporalPhaseCode === 'current';
  if (c.administrativeStateCode !== null) where.push(`e.administrative_state_code = ${p.add(c.administrativeStateCode)}`);
  if (c.startInstantGte !== null) where.push(`e.start_at >= ${p.add(c.startInstantGte, 'timestamptz')}`);
  if (c.startInstantLt !== null) where.push(`e.start_at < ${p.add(c.startInstantLt, 'timestamptz')}`);
  // A range of the sort index's leading column and no other filter (startLocalDate bounds in a
  // startLocalDate order, updatedSince in the updatedAt order): the same best plan, a range walk,
  // for every value (stable). Its bounds are then sub-SELECTs, priced alike in the generic and the
  // custom plan (as the upcoming bound, queries/phase.ts): priced from the values, a month's custom
  // plan looked cheaper than the generic one and was re-planned on every execution.
  const byDate = c.sort === 'startLocalDate' || c.sort === '-startLocalDate';
  const dates = c.startLocalDateGte !== null || c.startLocalDateLt !== null;
  const leadingRange = where.length === 1 && c.near === null && (byDate ? c.updatedSince === null : c.sort === 'updatedAt' && !dates);
  const bound = (value: string, type: 'date' | 'timestamptz') => (leadingRange ? `(SELECT ${p.add(value, type)})` : p.add(value, type));
  if (c.startLocalDateGte !== null) where.push(`e.start_local_date >= ${bound(c.startLocalDateGte, 'date')}`);
  if (c.startLocalDateLt !== null) where.push(`e.start_local_date < ${bound(c.startLocalDateLt, 'date')}`);
  if (c.updatedSince !== null) where.push(`e.updated_at >= ${bound(c.updatedSince, 'timestamptz')}`);
  const filters = where.length - 1;
  // current: the Events whose span holds now, from their own indexes (queries/phase.ts). Alone,
  // its plan is the same for every `now` (those indexes' candidates, sorted): its bounds are then
  // sub-SELECTs, priced alike in the generic and the custom plan, so the prepared statement keeps
  // the generic plan (as upcoming's bound); priced from the value, the custom plan always looked
  // cheaper and PostgreSQL planned the page on every execution.
  const currentAlone = current && filters === 1 && c.near === null;
  // alone (and not a part of a bounded search, which needs a term), its candidates are read from
  // its indexes alone, each part apart (queries/current-candidates.ts)
  const currentParts = currentAlone && scan === undefined ? currentCandidateBranches('e', boundSql(now(), 'once')) : null;
  if (current && currentParts === null) where.push(currentBound('e', now()));
  // near in the default order walks event_places (queries/near-events.ts); other orders filter,
  // and so does the rest part of a bounded search (it starts after the near walk's first Events)
  const nearWalk = c.near === null || c.sort !== 'startLocalDate' ? null : nearEventsWalk(c.near, p, SORT_KEYS[c.sort], plan.after, () => nearWalkBounds(c, p, now));
  const walk = scan?.part === 'rest' ? null : nearWalk;
  if (c.near !== null && walk === null) where.push(eventNearCondition('e', c.near, p));
  if (walk !== null) where.push(...walk.conditions);
  // Statement.stablePlan: a walk of one sort index with no filter but the keyset has the same best
  // plan for every value. Any filter above makes the plan depend on the values, except:
  // upcoming alone (the branches below: a range walk of the sort index from the bound), and the
  // near walk alone or with upcoming (one ordered range of event_places per grid cell, merged:
  // the text fixes the cells' number, so one plan serves every place and time), and a range of
  // the sort index's leading column alone (above).
  const plainWalk = filters === 0 && c.near === null;
  // the phase filter alone, read in two branches (below): one plan for every `now`
  // (in its date order: the start-instant orders' branches are planned per request, as before them)
  const phaseOnly = filters === 1 && ((upcoming && c.sort === 'startLocalDate') || historicalDown) && c.near === null;
  const nearWalkOnly = walk !== null && (filters === 0 || (filters === 1 && upcoming));
  const rangeWalk = leadingRange && filters > 0;
  if (c.sort === 'startInstant' || c.sort === '-startInstant') where.push('e.start_at IS NOT NULL');
  const keys = walk?.keys ?? SORT_KEYS[c.sort];
  if (plan.after !== null && walk === null && nearWalk === null) where.push(keysetAfter(keys, plan.after, p));

  const outputs = [...eventOutputs(c.fields, now), ...sortKeyOutputs(keys)];
  const columns = selectList(outputs);
  const mediaJoin = selectedMediaJoin('e', c.fields);
  const limit = rowLimit(c.limit + 1);
  // the order keys again, typed, as o0… (what an outer query orders by)
  const order = orderKeyOutputs(keys);
  const carried = carriedColumns(c.fields, c.include, 'pg.id');
  // a filter that bounds the start of a start order (the phase, or the other start column): two
  // branches, a range of the order's index from the bound and the Events that escape it
  // (queries/start-bounds.ts); the near walk has its own
  // (not in the rest part of a search near a place: it starts after the near walk's Events, afterNearWalk)
  const branches = nearWalk === null ? startBranches(c, 'e', p, now, phaseOnly ? 'once' : 'inline', scan === undefined) : null;
  const branched = branches !== null;
  const usual = branches?.usual ?? '';
  // a bounded search (queries/bounded-scan.ts): the walk's own conditions (active, the order's
  // requirement, upcoming's usual branch, the cursor) and the walk's last Event; the near walk
  // has its own (the cursor and upcoming's bound in its branches)
  if (scan !== undefined && !boundedSearch(plan)) throw new Error('a bounded part of a page that is not a bounded search');
  const own = [
    'e.active',
    ...(c.sort === 'startInstant' || c.sort === '-startInstant' ? ['e.start_at IS NOT NULL'] : []),
    ...(branched ? [usual] : []),
    ...(scan !== undefined && plan.after !== null && nearWalk === null ? [keysetAfter(keys, plan.after, p)] : []),
  ];
  const walked = scan?.part !== 'rest' ? null : nearWalk !== null ? afterNearWalk(scan, keys, nearWalk) : afterWalk(scan, keys, own);
  if (branched && scan?.part !== 'rest') {
    // A bounded search's walked part walks the usual branch only (its bound at the order's start
    // alone): the escaping Events lie beyond that bound on the side the order starts from, so they
    // all come before its walk's last Event, and the rest part (every Event of the filters after
    // that one) never repeats them.
    const source = (condition: string) => (scan !== undefined && condition === usual ? walkedSource(scan, keys, own) : 'events e');
    const branch = (condition: string) => `(SELECT ${columns}, ${order}
    FROM ${source(condition)} ${mediaJoin}
    WHERE ${[...where, condition].join('\n      AND ')}
    ORDER BY ${orderBy(keys)}
    ${limit})`;
    // Escaping Events to be sorted: found, sorted and cut before the media join. PostgreSQL prices
    // them at a third of the rows (above), so joined first it planned a hash join that reads every
    // media row once one such Event exists.
    const sorted = (condition: string) => `(SELECT ${columns}, ${order}
    FROM (SELECT e.* FROM events e
      WHERE ${[...where, condition].join('\n        AND ')}
      ORDER BY ${orderBy(keys.map(unindexed))}
      ${limit}) e ${mediaJoin}
    ORDER BY ${orderBy(keys)})`;
    // upcoming's and historical's usual branch as ranges that pass over the Events of the days
    // around now that the phase rejects (queries/phase.ts)
    const usuals = scan === undefined && branches.ranges !== undefined ? branches.ranges : [{ condition: usual, unindexed: false }];
    const all = [...usuals, ...branches.rares].map((r) => (r.unindexed ? sorted(r.condition) : branch(r.condition)));
    // the union keeps the order keys only while the previews still have to be read and ordered
    const text = `SELECT ${carried.columns.length > 0 ? 'u.*' : outputsOf('u', outputs)} FROM (${all.join('\n    UNION ALL ')}) u
    ORDER BY ${orderByOutputs('u', keys)}
    ${limit}`;
    return { name: 'events.page', text: withCarried(text, keys, carried, outputs), values: p.values, stablePlan: phaseOnly, rawText: EVENT_RAW_TEXT };
  }
  let from = walk?.from ?? 'events e';
  let prefix = '';
  // current in the page statement's own walk, and a search that collects its term's matches (shape
  // `matches`): ordered by keys no index holds, so the planner sorts the few Events the indexes
  // return instead of walking the order (for current, through every past Event)
  const candidates = (current || shape === 'matches') && walk === null;
  let ordered = candidates ? keys.map(unindexed) : keys;
  if (scan?.part === 'walked') from = walk !== null ? nearWalkedSource(scan, walk) : walkedSource(scan, keys, own);
  if (walked !== null) {
    prefix = walked.prefix;
    where.push(...walked.after);
    ordered = keys.map(unindexed);
  }
  const selected = [columns, ...(carried.columns.length > 0 ? [order] : [])].join(', ');
  if (currentParts !== null && phase !== null) {
    const text = `SELECT ${selected}
    FROM ${currentCandidates(where.filter((w) => w !== phaseOnE), phase, c.sort === '-startLocalDate' ? 'perPart' : 'once', currentParts, keys, limit)} ${mediaJoin}
    ORDER BY ${orderBy(keys)}`;
    return { name: 'events.page', text: withCarried(text, keys, carried, outputs), values: p.values, stablePlan: true, rawText: EVENT_RAW_TEXT };
  }
  // A city or country walk in the default order picks its page's ids first from that order's index
  // (queries/search-shape.ts `walkedIds`; the other orders' indexes do not hold the keys, so their
  // walks stay as they were); those candidates are sorted and cut before the media join (current
  // at 1M: 350 probes of media for a page of 21 before)
  const idsFirst = shape === 'walk' && c.nameContains === null && c.sort === 'startLocalDate';
  const text = idsFirst
    ? `SELECT ${selected}
    FROM ${walkedIds(from, where, orderBy(ordered), limit)} ${mediaJoin}
    ORDER BY ${orderBy(keys)}`
    : candidates && scan === undefined && mediaJoin !== ''
    ? `SELECT ${selected}
    FROM (SELECT e.* FROM ${from}
      WHERE ${where.join('\n        AND ')}
      ORDER BY ${orderBy(ordered)}
      ${limit}) e ${mediaJoin}
    ORDER BY ${orderBy(keys)}`
    : `${prefix}SELECT ${selected}
    FROM ${from} ${mediaJoin}
    WHERE ${where.join('\n      AND ')}
    ORDER BY ${orderBy(ordered)}
    ${limit}`;
  const name = scan?.part === 'rest' ? 'events.pageRest' : 'events.page';
  const stablePlan = plainWalk || nearWalkOnly || rangeWalk || currentAlone || shape !== undefined;
  return {
    name,
    text: withCarried(text, keys, carried, outputs),
    values: p.values,
    stablePlan,
    ...(choice?.heavy === true ? { heavy: true } : {}),
    rawText: EVENT_RAW_TEXT,
  };
}

/**
 * The page's previews, Series and Edition programs, read by the page statement itself (one
 * statement, one round trip: queries/event-carried.ts) AFTER the page's LIMIT, so whatever plan
 * picks the page (an ordered walk, a sorted bitmap scan) probes `event_previews` and the
 * memberships for its rows only; the outer query orders by the typed order keys (o0…) the inner
 * query carries.
 */
function withCarried(inner: string, keys: readonly SortKey[], carried: CarriedColumns, outputs: readonly Output[]): string {
  if (carried.columns.length === 0) return inner;
  return `SELECT ${outputsOf('pg', outputs)}, ${carried.columns.join(', ')}
    FROM (${inner}) pg ${carried.join}
    ORDER BY ${orderByOutputs('pg', keys)}`;
}
