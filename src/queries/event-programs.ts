/**
 * The statements of an Event's direct Series and Edition programs: for a page of Events one per
 * kind whatever the page size (no N+1), for an Event detail a column of its own statement. The
 * joins that decide which programs an Event shows are shared with the reverse routes 5 and 6.
 */
import { Params, rowLimit } from './sql.js';
import type { Statement } from './statement.js';

export interface SeriesRefRow {
  owner_id: string;
  public_id: string;
  slug: string;
  name: string;
  structure_code: string;
}

/**
 * Eligibility of an Event's direct Series and Edition programs, shared with the reverse routes
 * 5 and 6 (decisions §3: the Event's fields list the same members in the same order).
 */
export const DIRECT_SERIES_JOIN = (es: string, s: string) =>
  `JOIN series ${s} ON ${s}.id = ${es}.series_id AND ${s}.active AND ${s}.structure_code = 'direct'`;
export const EDITION_PROGRAM_JOINS = (ee: string, ed: string, s: string) =>
  `JOIN editions ${ed} ON ${ed}.id = ${ee}.edition_id AND ${ed}.active
    JOIN series ${s} ON ${s}.id = ${ed}.series_id AND ${s}.active AND ${s}.structure_code = 'editioned'`;

/**
 * Complete collections of an Event hold at most 25 members (Event rule 3); a read takes at most
 * one more per Event, enough to see an overflow (a sanitized 500), never every stored row.
 */
export const MEMBERSHIP_READ_LIMIT = 26;

/**
 * The first MEMBERSHIP_READ_LIMIT rows of `member` (a SELECT over the Event's memberships,
 * reading `x.event_id`, ordered) for each Event. One id (a page of one Event) is `= $1`:
 * PostgreSQL prices `= ANY` of an unknown array above its custom plans and so re-plans it on
 * every execution; a single id keeps the generic plan (~0.2-0.3 ms of planning saved per
 * statement at 1M Events). A page takes each Event's first rows by a lateral pick. (An Event
 * detail reads the same rows inside its own statement: `membershipsJson` below.)
 */
function perEvent(eventIds: readonly string[], p: Params, columns: string, member: string, order: string): string {
  const events =
    eventIds.length === 1 ? `(SELECT ${p.add(eventIds[0], 'bigint')} AS event_id) x` : `unnest(${p.add(eventIds, 'bigint[]')}) AS x(event_id)`;
  return `SELECT ${columns} FROM ${events}
    CROSS JOIN LATERAL (${member} ORDER BY ${order} ${rowLimit(MEMBERSHIP_READ_LIMIT)}) m
    ORDER BY x.event_id, ${memberOrder(order)}`;
}

/** The member order over the lateral `m`: its columns are selected as <alias>_<column>. */
const memberOrder = (order: string) => order.replace(/\b(s|ed)\./g, 'm.$1_');

/**
 * What an Event's memberships of one kind read: the member SELECT (reading `x.event_id`), its
 * order, and the row each member becomes (`m.<alias>_<column>` names the member's columns).
 */
interface MembershipShape {
  readonly outputs: string;
  readonly member: string;
  readonly order: string;
}

/** The Events' rows of one membership kind, each tagged with its Event (`owner_id`). */
function membershipsStatement(eventIds: readonly string[], shape: MembershipShape, name: string): Statement {
  const p = new Params();
  const text = perEvent(eventIds, p, `x.event_id::text AS owner_id, ${shape.outputs}`, shape.member, shape.order);
  return { name, text, values: p.values, stablePlan: true };
}

/**
 * The same rows for the Event of the enclosing query (its id: `eventId`), as one JSON array text
 * in that query's own row: an Event detail and an Events page read their Series and Edition
 * programs in their one statement instead of one round trip each. The same members, limit and
 * order (the aggregate's own ORDER BY, not the lateral's, so the order is guaranteed); `r` is the
 * row `perEvent` selects without its `owner_id`, so the array's objects carry the same names and
 * text values.
 */
function membershipsJson(shape: MembershipShape, eventId: string): string {
  return `(SELECT coalesce(json_agg(r ORDER BY ${memberOrder(shape.order)}), '[]')::text
      FROM (SELECT ${eventId} AS event_id) x
      CROSS JOIN LATERAL (${shape.member} ORDER BY ${shape.order} ${rowLimit(MEMBERSHIP_READ_LIMIT)}) m
      CROSS JOIN LATERAL (SELECT ${shape.outputs}) r)`;
}

/** Direct Series memberships (active Series of `direct` structure). */
const DIRECT_SERIES: MembershipShape = {
  outputs: 'm.s_public_id AS public_id, m.s_slug AS slug, m.s_name AS name, m.s_structure_code AS structure_code',
  member: `SELECT s.public_id AS s_public_id, s.slug AS s_slug, s.name AS s_name, s.structure_code AS s_structure_code
       FROM event_series es ${DIRECT_SERIES_JOIN('es', 's')}
      WHERE es.event_id = x.event_id`,
  order: 's.name, s.public_id',
};

/** Edition programs, each paired with its own Series (both active). */
const EDITION_PROGRAMS: MembershipShape = {
  outputs: 'm.s_public_id, m.s_slug, m.s_name, m.ed_public_id, m.ed_slug, m.ed_name',
  member: `SELECT s.public_id AS s_public_id, s.slug AS s_slug, s.name AS s_name,
            ed.public_id AS ed_public_id, ed.slug AS ed_slug, ed.name AS ed_name
       FROM event_editions ee
       ${EDITION_PROGRAM_JOINS('ee', 'ed', 's')}
      WHERE ee.event_id = x.event_id`,
  order: 's.name, s.public_id, ed.name, ed.public_id',
};

/** Direct Series memberships of the Events. */
export const directSeriesStatement = (eventIds: readonly string[]): Statement =>
  membershipsStatement(eventIds, DIRECT_SERIES, 'events.directSeries');

export interface EditionProgramRow {
  owner_id: string;
  s_public_id: string;
  s_slug: string;
  s_name: string;
  ed_public_id: string;
  ed_slug: string;
  ed_name: string;
}

/** Edition programs of the Events. */
export const editionProgramsStatement = (eventIds: readonly string[]): Statement =>
  membershipsStatement(eventIds, EDITION_PROGRAMS, 'events.editionPrograms');

/**
 * The select-list columns of an Event row's Series (`series_json`) and Edition programs
 * (`editions_json`), the Event's id being the SQL expression `eventId` (queries/event-carried.ts).
 */
export const directSeriesJsonColumn = (eventId: string) => `${membershipsJson(DIRECT_SERIES, eventId)} AS series_json`;
export const editionProgramsJsonColumn = (eventId: string) => `${membershipsJson(EDITION_PROGRAMS, eventId)} AS editions_json`;
