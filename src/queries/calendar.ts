/**
 * Calendar feeds (an extension: docs/api-guide.md): the Events of one active Artist, Venue or Series that
 * a subscribed calendar shows. One statement, which also checks that the parent exists and is
 * active (`EXISTS`): a feed with Events proves it, so `readCalendar` asks the parent's own
 * statement only when the feed is empty, to tell a 404 from an empty calendar.
 *
 * - "ahead": active Events whose phase (queries/phase.ts, the definition the JSON API shows) is
 *   `upcoming` or `current`, plus Events of unknown zone (phase `indeterminate`) whose start date
 *   is today (UTC) or later; the first 500 in start order;
 * - "recent": Events of the last 30 days so a calendar keeps what just happened: phase
 *   `historical` and their last local day (end date, else start date) at most 30 days before the
 *   Event's own today, or `indeterminate` and starting in the 30 days before today (UTC); the
 *   last 500 in start order (the most recent: a calendar keeps what just happened).
 *
 * Each row carries its location Venue (the Event's primary active Venue, decisions §5: the first
 * with both locality and country name by (locality, countryName, publicId); else its first active
 * Venue in relationship-route order, name then publicId) as the JSON of its public columns.
 */
import type { VenueItemRow } from './items.js';
import { venueColumns } from './items.js';
import { seriesContextEvents } from './events.js';
import { phaseSql } from './phase.js';
import { parentSelect, requireParent, type Parent } from './parents.js';
import { Params, utcText } from './sql.js';
import type { Statement } from './statement.js';
import type { Reader } from '../db/reader.js';

export type CalendarParent = { readonly kind: 'artist' | 'venue' | 'series'; readonly id: string };

const parentOf = ({ kind, id }: CalendarParent): Parent =>
  kind === 'artist' ? { kind, artistId: id } : kind === 'venue' ? { kind, venueId: id } : { kind, seriesId: id };

export const FEED_MAX_AHEAD = 500;
export const FEED_MAX_RECENT = 500;
export const FEED_RECENT_DAYS = 30;

export interface CalendarRow {
  public_id: string;
  name: string;
  administrative_state_code: string;
  time_zone: string;
  time_zone_known: boolean;
  start_precision: string;
  start_local_date: string;
  start_local_time: string | null;
  start_utc: string | null;
  end_precision: string | null;
  end_local_date: string | null;
  end_local_time: string | null;
  end_utc: string | null;
  ticket_links: unknown;
  updated_at: string;
  /** Changes of the marker since the Event was first stored (migration 015). */
  revision: number;
  venue: VenueItemRow | null;
}

function members(parent: CalendarParent, p: Params): string {
  switch (parent.kind) {
    case 'artist':
      return `SELECT ea.event_id FROM event_artists ea JOIN artists a ON a.id = ea.artist_id WHERE a.public_id = ${p.add(parent.id)} AND a.active`;
    case 'venue':
      return `SELECT ev.event_id FROM event_venues ev JOIN venues v ON v.id = ev.venue_id WHERE v.public_id = ${p.add(parent.id)} AND v.active`;
    case 'series':
      return seriesContextEvents(p, parent.id, null);
  }
}

const ELIGIBLE = `lv.active AND lv.locality <> '' AND lv.country_name <> ''`;

export function calendarStatement(parent: CalendarParent, now: string): Statement {
  const p = new Params();
  const at = p.add(now, 'timestamptz');
  const { phase } = phaseSql('e', at);
  const utcToday = `(${at} AT TIME ZONE 'UTC')::date`;
  const order = ['e.start_local_date', 'e.start_rank', 'e.start_key', 'e.public_id'];
  const venue = venueColumns('lv', ['publicId', 'name', 'location', 'publishedCoordinates']).join(', ');
  // each branch's first or last `limit` Events in start order; the feed lists both in start order
  const branch = (condition: string, limit: number, end: 'first' | 'last') => `(SELECT e.id, e.start_local_date AS o0, e.start_rank AS o1, e.start_key AS o2, e.public_id AS o3
      FROM events e
     WHERE e.active AND e.id IN (${members(parent, p)}) AND ${condition}
     ORDER BY ${order.map((k) => (end === 'first' ? k : `${k} DESC`)).join(', ')}
     LIMIT ${limit})`;
  const ahead = `(${phase} IN ('upcoming', 'current') OR (${phase} = 'indeterminate' AND e.start_local_date >= ${utcToday}))`;
  // The Event's own today only when its zone is known (AND does not fix an evaluation order; CASE does).
  const recent = `((${phase} = 'historical' AND CASE WHEN e.time_zone_known
        THEN COALESCE(e.end_local_date, e.start_local_date) >= (${at} AT TIME ZONE e.time_zone)::date - ${FEED_RECENT_DAYS} ELSE false END)
     OR (${phase} = 'indeterminate' AND e.start_local_date >= ${utcToday} - ${FEED_RECENT_DAYS} AND e.start_local_date < ${utcToday}))`;
  const text = `SELECT e.public_id, e.name, e.administrative_state_code, e.time_zone, e.time_zone_known,
         e.start_precision, e.start_local_date::text AS start_local_date, e.start_local_time, ${utcText('e.start_at')} AS start_utc,
         e.end_precision, e.end_local_date::text AS end_local_date, e.end_local_time, ${utcText('e.end_at')} AS end_utc,
         e.ticket_links, ${utcText('e.updated_at')} AS updated_at, e.revision,
         (SELECT to_json(x) FROM (SELECT ${venue}
            FROM event_venues lev JOIN venues lv ON lv.id = lev.venue_id
           WHERE lev.event_id = e.id AND lv.active
           ORDER BY CASE WHEN ${ELIGIBLE} THEN 0 ELSE 1 END,
                    CASE WHEN ${ELIGIBLE} THEN lv.locality END, CASE WHEN ${ELIGIBLE} THEN lv.country_name END,
                    CASE WHEN ${ELIGIBLE} THEN NULL ELSE lv.name END, lv.public_id
           LIMIT 1) x) AS venue
    FROM (${branch(ahead, FEED_MAX_AHEAD, 'first')} UNION ALL ${branch(recent, FEED_MAX_RECENT, 'last')}) f
    JOIN events e ON e.id = f.id
   WHERE EXISTS (${parentSelect(parentOf(parent), p)})
   ORDER BY f.o0, f.o1, f.o2, f.o3`;
  return { name: `calendar.${parent.kind}`, text, values: p.values };
}

/** The feed's rows; `ResourceNotFound` (404) when the parent is missing or inactive. */
export async function readCalendar(reader: Reader, parent: CalendarParent, now: string): Promise<CalendarRow[]> {
  const rows = await reader.rows<CalendarRow>(calendarStatement(parent, now));
  if (rows.length === 0) await requireParent(reader, parentOf(parent));
  return rows;
}
