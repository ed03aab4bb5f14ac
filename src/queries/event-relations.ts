/**
 * The statements that complete a page of Events, one per relationship whatever the page size
 * (no N+1): Artist and Venue previews (first PREVIEW_SIZE + 1 members per Event, in the order of
 * the relationship routes: name bytewise, then publicId), direct Series and Edition programs.
 */
import { Params } from './sql.js';
import { ARTIST_ITEM_COLUMNS, VENUE_ITEM_COLUMNS, artistMediaJoin, singleMediaJoin } from './items.js';
import type { Statement } from './statement.js';

export const PREVIEW_SIZE = 5;

export function artistPreviewsStatement(eventIds: readonly string[], rich: boolean): Statement {
  const p = new Params();
  const ids = p.add(eventIds, 'bigint[]');
  const text = `SELECT x.event_id::text AS owner_id, ${ARTIST_ITEM_COLUMNS('a', rich)}
    FROM unnest(${ids}) AS x(event_id)
    CROSS JOIN LATERAL (
      SELECT a.id
        FROM event_artists ea JOIN artists a ON a.id = ea.artist_id AND a.active
       WHERE ea.event_id = x.event_id
       ORDER BY a.name, a.public_id
       LIMIT ${p.add(PREVIEW_SIZE + 1, 'int')}) pick
    JOIN artists a ON a.id = pick.id
    ${artistMediaJoin('a')}
    ORDER BY x.event_id, a.name, a.public_id`;
  return { name: 'events.artistPreviews', text, values: p.values };
}

export function venuePreviewsStatement(eventIds: readonly string[], rich: boolean): Statement {
  const p = new Params();
  const ids = p.add(eventIds, 'bigint[]');
  const text = `SELECT x.event_id::text AS owner_id, ${VENUE_ITEM_COLUMNS('v', rich)}
    FROM unnest(${ids}) AS x(event_id)
    CROSS JOIN LATERAL (
      SELECT v.id
        FROM event_venues ev JOIN venues v ON v.id = ev.venue_id AND v.active
       WHERE ev.event_id = x.event_id
       ORDER BY v.name, v.public_id
       LIMIT ${p.add(PREVIEW_SIZE + 1, 'int')}) pick
    JOIN venues v ON v.id = pick.id
    ${singleMediaJoin('v')}
    ORDER BY x.event_id, v.name, v.public_id`;
  return { name: 'events.venuePreviews', text, values: p.values };
}

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

/** Direct Series memberships of the Events (active Series of `direct` structure). */
export function directSeriesStatement(eventIds: readonly string[]): Statement {
  const p = new Params();
  const text = `SELECT es.event_id::text AS owner_id, s.public_id, s.slug, s.name, s.structure_code
    FROM event_series es ${DIRECT_SERIES_JOIN('es', 's')}
    WHERE es.event_id = ANY(${p.add(eventIds, 'bigint[]')})
    ORDER BY es.event_id, s.name, s.public_id`;
  return { name: 'events.directSeries', text, values: p.values };
}

export interface EditionProgramRow {
  owner_id: string;
  s_public_id: string;
  s_slug: string;
  s_name: string;
  ed_public_id: string;
  ed_slug: string;
  ed_name: string;
}

/** Edition programs of the Events, each paired with its own Series (both active). */
export function editionProgramsStatement(eventIds: readonly string[]): Statement {
  const p = new Params();
  const text = `SELECT ee.event_id::text AS owner_id,
           s.public_id AS s_public_id, s.slug AS s_slug, s.name AS s_name,
           ed.public_id AS ed_public_id, ed.slug AS ed_slug, ed.name AS ed_name
    FROM event_editions ee
    ${EDITION_PROGRAM_JOINS('ee', 'ed', 's')}
    WHERE ee.event_id = ANY(${p.add(eventIds, 'bigint[]')})
    ORDER BY ee.event_id, s.name, s.public_id, ed.name, ed.public_id`;
  return { name: 'events.editionPrograms', text, values: p.values };
}
