/**
 * Event rows → public Event objects (as their JSON text), field by field from the registry (an
 * allow-list: nothing from the spec's exclusion list is ever read, let alone written). Unselected
 * fields are omitted, absent nullable values are null, empty collections are [] (spec: Event
 * rules 1-4). Each own field of a distinct row is checked and rendered once (ownMember).
 */
import type { Static } from '@sinclair/typebox';
import type { Event, Schedule } from '../contract/event.js';
import { ADMINISTRATIVE_STATES, EVENT_TYPES, PHASE_BASES, TEMPORAL_PHASES, type EventField } from '../plan/event-fields.js';
import type { EventOwnColumns, EventRow } from '../queries/events.js';
import type { ArtistItemRow, VenueItemRow } from '../queries/items.js';
import type { EditionProgramRow, SeriesRefRow } from '../queries/event-programs.js';
import type { EventRelationRows } from '../queries/events-read.js';
import { PREVIEW_SIZE } from '../queries/event-relations.js';
import { boundedCollection, fail, nullableText, oneOf, text, urlCollection } from './checks.js';
import { RawJson } from './envelope.js';
import { artistItem, profileMedia, venueItem } from './items.js';
import { editionProgram, seriesMembership } from './series.js';

/** The public Event (the contract's schema): every member below is typed by it. */
type EventOut = Static<typeof Event>;
type ScheduleOut = Static<typeof Schedule>;
/** The schedule as a row decides it: without the temporal phase (the operation time decides that). */
type RowSchedule = Omit<ScheduleOut, 'temporalPhaseCode' | 'temporalPhaseBasisCode'>;

function boundary(precision: unknown, localDate: unknown, localTime: unknown, instant: unknown, what: string): ScheduleOut['start'] {
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

/** The schedule without its temporal phase (which depends on the operation time, not on the row). */
function scheduleOfRow(row: Readonly<EventOwnColumns>): RowSchedule {
  const zone = text(row.time_zone, 'schedule.referenceTimeZoneId');
  if (zone.length > 255) fail('schedule.referenceTimeZoneId is longer than 255');
  const out: RowSchedule = {
    referenceTimeZoneId: zone,
    start: boundary(row.start_precision, row.start_local_date, row.start_local_time, row.start_instant, 'schedule.start'),
  };
  if (row.end_precision !== null && row.end_precision !== undefined) {
    out.end = boundary(row.end_precision, row.end_local_date, row.end_local_time, row.end_instant, 'schedule.end');
  }
  return out;
}

/** The phase members that close `schedule` (its last two keys), for this request's operation time. */
function phaseMembers(row: EventRow): string {
  const phase: ScheduleOut['temporalPhaseCode'] = oneOf(row.phase, TEMPORAL_PHASES, 'schedule.temporalPhaseCode');
  const basis: ScheduleOut['temporalPhaseBasisCode'] = oneOf(row.basis, PHASE_BASES, 'schedule.temporalPhaseBasisCode');
  return `"temporalPhaseCode":"${phase}","temporalPhaseBasisCode":"${basis}"`;
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
 * A read's related rows, and whether its previews are the rich ones (`include`). Written member
 * by member, not `{ ...rows, richArtists, … }` (plan/collection.ts `withBase` says why).
 */
export function eventRelations(rows: EventRelationRows, include: readonly string[]): EventRelations {
  return {
    artists: rows.artists,
    venues: rows.venues,
    series: rows.series,
    editions: rows.editions,
    richArtists: include.includes('artists'),
    richVenues: include.includes('venues'),
  };
}

/**
 * The rendered items of a frozen (shared, immutable) rows array: the stored previews, parsed once
 * per distinct text by queries/preview-texts.ts. Rendering is a function of the rows and of
 * plain/rich, so each array is checked, projected and serialized once; an array whose projection
 * fails is never entered (every request selecting it gets the sanitized 500).
 */
const renderedItems = { plain: new WeakMap<object, string>(), rich: new WeakMap<object, string>() };

/** An Event's preview of Artists or Venues: `{items, isComplete, href}`, as rendered JSON. */
function preview<R>(rows: readonly R[] | undefined, href: string, rich: boolean, item: (r: R, rich: boolean) => Record<string, unknown>): string {
  const list = rows ?? [];
  if (!Array.isArray(list)) fail('stored previews must be a list');
  const memo = Object.isFrozen(list) ? renderedItems[rich ? 'rich' : 'plain'] : undefined;
  let items = memo?.get(list);
  if (items === undefined) {
    items = JSON.stringify(list.slice(0, PREVIEW_SIZE).map((r) => item(r, rich)));
    memo?.set(list, items);
  }
  // the key order JSON.stringify of `{ items, isComplete, href }` would write
  return `{"items":${items},"isComplete":${list.length <= PREVIEW_SIZE},"href":${JSON.stringify(href)}}`;
}

type OwnField = Exclude<EventField, 'artists' | 'venues' | 'directEventSeries' | 'editionPrograms'>;

/**
 * The value of each field that only the Event's own columns decide (the schedule without its
 * phase), typed by the contract: a projection that drifts from it does not compile.
 */
const OWN_VALUES: { readonly [F in OwnField]: (row: Readonly<EventOwnColumns>) => F extends 'schedule' ? RowSchedule : Exclude<EventOut[F], undefined> } = {
  publicId: (row) => text(row.public_id, 'publicId'),
  slug: (row) => text(row.slug, 'slug'),
  name: (row) => text(row.name, 'name'),
  schedule: (row) => scheduleOfRow(row),
  administrativeStateCode: (row) => oneOf(row.administrative_state_code, ADMINISTRATIVE_STATES, 'administrativeStateCode'),
  profileMedia: (row) => profileMedia(row as unknown as Parameters<typeof profileMedia>[0]),
  updatedAt: (row) => text(row.updated_at, 'updatedAt'),
  description: (row) => nullableText(row.description, 'description'),
  eventTypeCode: (row) => (row.event_type_code == null ? null : oneOf(row.event_type_code, EVENT_TYPES, 'eventTypeCode')),
  digitalLocations: (row) => urlCollection(row.digital_locations, 'digitalLocations', true),
  links: (row) => urlCollection(row.links, 'links'),
  ticketLinks: (row) => urlCollection(row.ticket_links, 'ticketLinks'),
};

/**
 * Each own field of a distinct row, rendered once: `"name":value` (the schedule without its
 * closing brace; the phase members close it per request). Keyed by the frozen row the rows stage
 * shares (queries/event-own.ts), so an entry lives as long as its row in that memo. A field whose
 * projection fails is never entered: the sanitized 500 for every request that selects it.
 */
const renderedFields = new WeakMap<object, Map<OwnField, string>>();

function ownMember(field: OwnField, row: Readonly<EventOwnColumns>): string {
  let fields = renderedFields.get(row);
  let member = fields?.get(field);
  if (member === undefined) {
    const json = JSON.stringify(OWN_VALUES[field](row));
    member = `${JSON.stringify(field)}:${field === 'schedule' ? json.slice(0, -1) : json}`;
    if (Object.isFrozen(row)) {
      if (fields === undefined) renderedFields.set(row, (fields = new Map()));
      fields.set(field, member);
    }
  }
  return member;
}

/**
 * An Event as its public JSON object: the selected fields in the selection's order (Event rules
 * 1-4), each from the allow-list above. Rendered to text here, member by member, because an
 * Event's own members are the same on every read of the same row (see ownMember); only the phase
 * and the relationships are per request.
 */
export function presentEvent(row: EventRow, fields: readonly EventField[], rel: EventRelations): RawJson {
  const id = row.public_id;
  let out = '';
  for (const field of fields) {
    let member: string;
    switch (field) {
      case 'artists':
        member = `"artists":${preview(rel.artists.get(row.id), `/v1/events/${id}/artists`, rel.richArtists, artistItem)}`;
        break;
      case 'venues':
        member = `"venues":${preview(rel.venues.get(row.id), `/v1/events/${id}/venues`, rel.richVenues, venueItem)}`;
        break;
      case 'directEventSeries':
        member = `"directEventSeries":${JSON.stringify(boundedCollection((rel.series.get(row.id) ?? []).map((s) => seriesMembership(s)), 'directEventSeries'))}`;
        break;
      case 'editionPrograms':
        member = `"editionPrograms":${JSON.stringify(boundedCollection((rel.editions.get(row.id) ?? []).map((e) => editionProgram(e)), 'editionPrograms'))}`;
        break;
      case 'schedule':
        member = `${ownMember(field, row.own)},${phaseMembers(row)}}`;
        break;
      default:
        member = ownMember(field, row.own);
    }
    out += out === '' ? member : `,${member}`;
  }
  return new RawJson(`{${out}}`);
}
