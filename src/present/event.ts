/**
 * Event rows → public Event objects, field by field from the registry (an allow-list: nothing
 * from the spec's exclusion list is ever read, let alone written). Unselected fields are
 * omitted, absent nullable values are null, empty collections are [] (spec: Event rules 1-4).
 */
import type { EventField } from '../plan/event-fields.js';
import type { EventRow } from '../queries/events.js';
import type { ArtistItemRow, VenueItemRow } from '../queries/items.js';
import type { EditionProgramRow, SeriesRefRow } from '../queries/event-relations.js';
import { PREVIEW_SIZE } from '../queries/event-relations.js';
import { boundedCollection, fail, nullableText, oneOf, text, urlCollection } from './checks.js';
import { RawJson } from './envelope.js';
import { artistItem, profileMedia, venueItem } from './items.js';
import { editionProgram, seriesMembership } from './series.js';

const PHASES = ['upcoming', 'current', 'historical', 'indeterminate'] as const;
const BASES = ['exact', 'calendar', 'incomplete', 'inferred'] as const;
const STATES = ['scheduled', 'cancelled'] as const;
const EVENT_TYPES = ['concert', 'dj-set', 'festival-day', 'livestream', 'other'] as const;

function boundary(precision: unknown, localDate: unknown, localTime: unknown, instant: unknown, what: string) {
  const p = oneOf(precision, ['date', 'date-time'] as const, `${what}.precision`);
  if (p === 'date') return { precision: p, localDate: text(localDate, `${what}.localDate`) };
  if (typeof localTime !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d$/.test(localTime)) fail(`${what}.localTime`);
  return {
    precision: p,
    localDate: text(localDate, `${what}.localDate`),
    localTime,
    instant: text(instant, `${what}.instant`),
  };
}

export function schedule(row: EventRow): Record<string, unknown> {
  const zone = text(row.time_zone, 'schedule.referenceTimeZoneId');
  if (zone.length > 255) fail('schedule.referenceTimeZoneId is longer than 255');
  const out: Record<string, unknown> = {
    referenceTimeZoneId: zone,
    start: boundary(row.start_precision, row.start_local_date, row.start_local_time, row.start_instant, 'schedule.start'),
  };
  if (row.end_precision !== null && row.end_precision !== undefined) {
    out.end = boundary(row.end_precision, row.end_local_date, row.end_local_time, row.end_instant, 'schedule.end');
  }
  out.temporalPhaseCode = oneOf(row.phase, PHASES, 'schedule.temporalPhaseCode');
  out.temporalPhaseBasisCode = oneOf(row.basis, BASES, 'schedule.temporalPhaseBasisCode');
  return out;
}

/** The related rows of a page, grouped by Event id. */
export interface EventRelations {
  readonly artists: ReadonlyMap<string, readonly ArtistItemRow[]>;
  readonly venues: ReadonlyMap<string, readonly VenueItemRow[]>;
  readonly series: ReadonlyMap<string, SeriesRefRow[]>;
  readonly editions: ReadonlyMap<string, EditionProgramRow[]>;
  readonly richArtists: boolean;
  readonly richVenues: boolean;
}

/**
 * The rendered items of a frozen (shared, immutable) rows array: the stored previews, parsed once
 * per distinct text by queries/stored-previews.ts. Rendering is a function of the rows and of
 * plain/rich, so each array is checked, projected and serialized once; an array whose projection
 * fails is never entered (every request selecting it gets the sanitized 500).
 */
const renderedItems = { plain: new WeakMap<object, string>(), rich: new WeakMap<object, string>() };

/** An Event's preview of Artists or Venues: `{items, isComplete, href}`, as rendered JSON. */
function preview<R>(rows: readonly R[] | undefined, href: string, rich: boolean, item: (r: R, rich: boolean) => Record<string, unknown>) {
  const list = rows ?? [];
  if (!Array.isArray(list)) fail('stored previews must be a list');
  const memo = Object.isFrozen(list) ? renderedItems[rich ? 'rich' : 'plain'] : undefined;
  let items = memo?.get(list);
  if (items === undefined) {
    items = JSON.stringify(list.slice(0, PREVIEW_SIZE).map((r) => item(r, rich)));
    memo?.set(list, items);
  }
  // the key order JSON.stringify of `{ items, isComplete, href }` would write
  return new RawJson(`{"items":${items},"isComplete":${list.length <= PREVIEW_SIZE},"href":${JSON.stringify(href)}}`);
}

export function presentEvent(row: EventRow, fields: readonly EventField[], rel: EventRelations): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const id = row.public_id;
  for (const field of fields) {
    switch (field) {
      case 'publicId':
        out.publicId = text(id, 'publicId');
        break;
      case 'slug':
        out.slug = text(row.slug, 'slug');
        break;
      case 'name':
        out.name = text(row.name, 'name');
        break;
      case 'schedule':
        out.schedule = schedule(row);
        break;
      case 'administrativeStateCode':
        out.administrativeStateCode = oneOf(row.administrative_state_code, STATES, 'administrativeStateCode');
        break;
      case 'profileMedia':
        out.profileMedia = profileMedia(row as unknown as Parameters<typeof profileMedia>[0]);
        break;
      case 'artists':
        out.artists = preview(rel.artists.get(row.id), `/v1/events/${id}/artists`, rel.richArtists, artistItem);
        break;
      case 'venues':
        out.venues = preview(rel.venues.get(row.id), `/v1/events/${id}/venues`, rel.richVenues, venueItem);
        break;
      case 'updatedAt':
        out.updatedAt = text(row.updated_at, 'updatedAt');
        break;
      case 'description':
        out.description = nullableText(row.description, 'description');
        break;
      case 'eventTypeCode':
        out.eventTypeCode = row.event_type_code == null ? null : oneOf(row.event_type_code, EVENT_TYPES, 'eventTypeCode');
        break;
      case 'digitalLocations':
        out.digitalLocations = urlCollection(row.digital_locations, 'digitalLocations', true);
        break;
      case 'links':
        out.links = urlCollection(row.links, 'links');
        break;
      case 'ticketLinks':
        out.ticketLinks = urlCollection(row.ticket_links, 'ticketLinks');
        break;
      case 'directEventSeries':
        out.directEventSeries = boundedCollection((rel.series.get(row.id) ?? []).map((s) => seriesMembership(s)), 'directEventSeries');
        break;
      case 'editionPrograms':
        out.editionPrograms = boundedCollection((rel.editions.get(row.id) ?? []).map((e) => editionProgram(e)), 'editionPrograms');
        break;
    }
  }
  return out;
}
