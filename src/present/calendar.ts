/**
 * Calendar rows → an iCalendar feed (RFC 5545; an extension: docs/api-guide.md), written by
 * `ical-generator` with the VTIMEZONE components of `@touch4it/ical-timezones`; local date-times
 * are handed over as Luxon DateTimes in their zone (ical-generator formats a plain Date in the
 * process's zone). What the feed says is what the JSON API shows of the Event, nothing more:
 *
 * - UID `<publicId>@lineup`; SUMMARY the name; STATUS CANCELLED or CONFIRMED
 *   (administrativeStateCode); URL the first ticket link (`,`, `;` and `\` percent-encoded:
 *   ical-generator escapes a URI value as TEXT, which RFC 5545 does not do for URIs, so a parser
 *   would read the backslashes); DTSTAMP and LAST-MODIFIED the
 *   updatedAt; SEQUENCE the updatedAt in whole seconds since 2000-01-01 UTC (0 before 2000) plus
 *   the Event's revision, the count of its marker's changes (migration 015): it grows whenever
 *   the marker advances, by a second or by a microsecond, and an Event whose marker never changed
 *   keeps the SEQUENCE it had before the count existed.
 * - DTSTART/DTEND as the schedule says: a date-time boundary is its local date and time with
 *   TZID = the reference zone (and that zone's VTIMEZONE); when the zone is unknown (to the
 *   database or to the VTIMEZONE data) the boundary's exact instant in UTC instead. A date-only
 *   boundary is VALUE=DATE; a date-only end is inclusive in the schedule and exclusive in
 *   iCalendar, so DTEND is the day after it. When the two precisions differ, DTEND follows
 *   DTSTART's value type (RFC 5545 requires it): a date-only end after a timed start ends at the
 *   next day's midnight in the zone (no DTEND when that zone is unknown); a timed end after a
 *   date-only start ends with its own day. No DTEND when the schedule has no end.
 * - LOCATION: the location Venue's name, then its formatted address, or its locality and country
 *   name; GEO only for published coordinates. GEO is written here, not by ical-generator: it
 *   writes GEO only when latitude and longitude are both truthy, so a Venue exactly on the
 *   equator or the prime meridian got none. The line goes before the VEVENT's END (property order
 *   is free in RFC 5545) and is far shorter than 75 octets, so it needs no folding.
 */
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { ICalEventStatus, type ICalEventData } from 'ical-generator';
import { DateTime } from 'luxon';
import type { CalendarRow } from '../queries/calendar.js';
import { ADMINISTRATIVE_STATES } from '../plan/event-fields.js';
import { oneOf, text, urlCollection } from './checks.js';
import { publishedCoordinates, venueLocation } from './items.js';

/** ical-generator writes the leading `-` of the formal public identifier itself. */
const PRODUCT = '//Lineup//Lineup public read API 1.0//EN';
const SEQUENCE_EPOCH = Date.UTC(2000, 0, 1);

/**
 * The VTIMEZONE of a zone, or null when it is not known (the boundary then falls back to its UTC
 * instant). A zone named by an alias (`US/Pacific`, `Asia/Calcutta`) comes back under its
 * canonical name; its TZID is set to the name the DTSTART/DTEND lines use, as RFC 5545 requires a
 * VTIMEZONE for every TZID (a reader otherwise takes the time as floating).
 */
function vtimezone(zone: string): string | null {
  const component = getVtimezoneComponent(zone);
  return component === null ? null : component.replace(/^TZID:.*$/m, `TZID:${zone}`);
}

/** The URI as RFC 5545 readers will read it back (see the module comment). */
export const feedUrl = (url: string) => url.replace(/[,;\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

const localDate = (date: string) => DateTime.fromISO(date, { zone: 'utc' });
const localDateTime = (date: string, time: string, zone: string) => DateTime.fromISO(`${date}T${time}`, { zone });

function location(row: CalendarRow): ICalEventData['location'] {
  const venue = row.venue;
  if (venue === null) return null;
  const place = venueLocation(venue) as { formattedAddress?: string; locality?: string | null; countryName?: string | null };
  const parts = [text(venue.name, 'venue.name'), place.formattedAddress ?? null, ...(place.formattedAddress === undefined ? [place.locality ?? null, place.countryName ?? null] : [])];
  return { title: parts.filter((p): p is string => p !== null).join(', ') };
}

/** An iCalendar FLOAT: plain decimal notation (String() writes 1e-7 for tiny numbers). */
function float(n: number): string {
  const s = String(n === 0 ? 0 : n);
  return s.includes('e') ? n.toFixed(20).replace(/\.?0+$/, '') : s;
}

/** The GEO line of an Event's location Venue, when its coordinates are published. */
function geoLine(row: CalendarRow): string | null {
  if (row.venue === null) return null;
  const geo = publishedCoordinates(row.venue) as { latitude: number; longitude: number } | null;
  return geo === null ? null : `GEO:${float(geo.latitude)};${float(geo.longitude)}\r\n`;
}

/** DTSTART/DTEND and the zone of one Event (see the module comment). */
function times(row: CalendarRow): Pick<ICalEventData, 'start' | 'end' | 'allDay' | 'timezone'> {
  if (row.start_precision === 'date') {
    const start = localDate(row.start_local_date);
    const end = row.end_precision === null || row.end_local_date === null ? null : localDate(row.end_local_date).plus({ days: 1 });
    return { allDay: true, start, end, timezone: null };
  }
  const zoned = row.time_zone_known && vtimezone(row.time_zone) !== null;
  if (zoned) {
    const start = localDateTime(row.start_local_date, row.start_local_time as string, row.time_zone);
    let end: DateTime | null = null;
    if (row.end_precision === 'date-time') end = localDateTime(row.end_local_date as string, row.end_local_time as string, row.time_zone);
    if (row.end_precision === 'date') end = localDateTime(row.end_local_date as string, '00:00', row.time_zone).plus({ days: 1 });
    return { allDay: false, start, end, timezone: row.time_zone };
  }
  const start = DateTime.fromISO(text(row.start_utc, 'schedule.start.instant'), { zone: 'utc' });
  const end = row.end_precision === 'date-time' ? DateTime.fromISO(text(row.end_utc, 'schedule.end.instant'), { zone: 'utc' }) : null;
  return { allDay: false, start, end, timezone: null };
}

export function presentCalendar(rows: readonly CalendarRow[]): string {
  const calendar = ical({ prodId: PRODUCT, timezone: { name: null, generator: vtimezone } });
  const geo = rows.map(geoLine);
  for (const row of rows) {
    const updated = new Date(text(row.updated_at, 'updatedAt'));
    const state = oneOf(row.administrative_state_code, ADMINISTRATIVE_STATES, 'administrativeStateCode');
    const ticket = urlCollection(row.ticket_links, 'ticketLinks')[0];
    calendar.createEvent({
      id: `${text(row.public_id, 'publicId')}@lineup`,
      summary: text(row.name, 'name'),
      ...times(row),
      status: state === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      location: location(row),
      url: ticket === undefined ? null : feedUrl(ticket.url),
      stamp: updated,
      lastModified: updated,
      sequence: Math.max(0, Math.floor((updated.getTime() - SEQUENCE_EPOCH) / 1000)) + row.revision,
    });
  }
  // The VEVENTs come out in the order they were created: the i-th END:VEVENT line closes rows[i]
  // (a value cannot hold a line break: TEXT escapes it, and a folded line starts with a space).
  let i = 0;
  const body = calendar.toString().replace(/\r\nEND:VEVENT\r\n/g, (end) => `\r\n${geo[i++] ?? ''}${end.slice(2)}`);
  if (i !== rows.length) throw new Error(`calendar: ${i} VEVENT ends for ${rows.length} Events`);
  // RFC 5545 §3.1: every content line ends with CRLF, the last one too (ical-generator omits it).
  return `${body}\r\n`;
}
