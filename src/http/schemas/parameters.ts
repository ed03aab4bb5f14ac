/** Query and path parameter schemas, documented once and shared by every operation. */
import { Type, type TSchema } from '@sinclair/typebox';
import { EVENT_FIELDS, EVENT_INCLUDES, EVENT_SORTS, TEMPORAL_PHASES, ADMINISTRATIVE_STATES } from '../../plan/event-fields.js';
import {
  ARTIST_FIELDS,
  EDITION_FIELDS,
  EDITION_PROGRAM_FIELDS,
  EDITION_SORTS,
  MEMBER_SORTS,
  NAMED_SORTS,
  SERIES_FIELDS,
  SERIES_MEMBERSHIP_FIELDS,
  VENUE_FIELDS,
  VENUE_STATUSES,
} from '../../plan/resource-fields.js';

export interface ParameterSpec {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly description: string;
  readonly schema: TSchema;
  readonly required?: boolean;
}

const csv = (members: readonly string[]) =>
  Type.String({ minLength: 1, description: `Comma-separated unique members of: ${members.join(', ')}` });
const enumOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
const queryInstant = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?Z$',
  description: 'UTC instant with seconds, optional 1-6 digit fraction, Z',
});
const date = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Calendar date YYYY-MM-DD (0001-9999)' });
const publicId = Type.String({ pattern: '^[0-9A-Za-z]{12}$' });
const term = Type.String({ minLength: 1, maxLength: 200 });

const q = (name: string, schema: TSchema, description: string): ParameterSpec => ({ name, in: 'query', schema, description });
export const pathId = (name: string, description: string): ParameterSpec => ({ name, in: 'path', schema: publicId, description, required: true });

export const limitParam = q(
  'limit',
  Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Digits only, no sign or leading zero; over 50 is rejected (400), never clamped' }),
  'Page size: 1-50, default 20',
);
export const cursorParam = q('cursor', Type.String({ minLength: 1, maxLength: 1024 }), 'Opaque value from links.next; use with unchanged controls');

export const EVENT_QUERY: readonly ParameterSpec[] = [
  limitParam,
  cursorParam,
  q('nameContains', term, 'Case-insensitive containment on the name or its accent-folded form; % and _ are wildcards'),
  q('cityContains', term, "Containment on the primary active Venue's locality"),
  q('countryContains', term, "Containment on the primary active Venue's country name"),
  q('temporalPhaseCode', enumOf(TEMPORAL_PHASES), 'Phase at request time'),
  q('administrativeStateCode', enumOf(ADMINISTRATIVE_STATES), 'Administrative state'),
  q('startInstantGte', queryInstant, 'Inclusive exact UTC start lower bound; date-only Events never match'),
  q('startInstantLt', queryInstant, 'Exclusive exact UTC start upper bound'),
  q('startLocalDateGte', date, 'Inclusive organizer start-local-date lower bound'),
  q('startLocalDateLt', date, 'Exclusive organizer start-local-date upper bound'),
  q('updatedSince', queryInstant, 'Inclusive change marker lower bound; requires sort=updatedAt and fields containing updatedAt'),
  q('sort', enumOf(EVENT_SORTS), 'Order; default startLocalDate; publicId breaks ties'),
  q('fields', csv(EVENT_FIELDS), 'Replaces the default top-level selection'),
  q('include', csv(EVENT_INCLUDES), 'Upgrades a selected relationship preview by one level'),
  q('artistId', publicId, 'Artist context'),
  q('venueId', publicId, 'Venue context'),
  q('seriesId', publicId, 'Series context'),
  q('editionId', publicId, "Narrows seriesId to that Edition's program; requires seriesId"),
];

const literalTerm = Type.String({ minLength: 1, maxLength: 200, description: '1-200 characters after trimming; not blank' });
const fieldsParam = (members: readonly string[], note: string) => q('fields', csv(members), note);
const updatedSinceParam = q('updatedSince', queryInstant, 'Inclusive change marker lower bound; requires sort=updatedAt and fields containing updatedAt');
const nameContainsParam = q('nameContains', literalTerm, 'Case-insensitive literal substring: %, _, backslash and ! match themselves; no accent folding');
const namedSortParam = q('sort', enumOf(NAMED_SORTS), 'name (default, bytewise), -name or updatedAt (ascending); publicId breaks ties');
const memberSortParam = q('sort', enumOf(MEMBER_SORTS), 'name (the only order): names bytewise, then publicId');

export const ARTIST_QUERY: readonly ParameterSpec[] = [
  limitParam, cursorParam, nameContainsParam, namedSortParam, updatedSinceParam,
  fieldsParam(ARTIST_FIELDS, 'Replaces the default selection (publicId, slug, name, profileMedia)'),
];
export const SERIES_QUERY: readonly ParameterSpec[] = [
  limitParam, cursorParam, nameContainsParam, namedSortParam, updatedSinceParam,
  fieldsParam(SERIES_FIELDS, 'Replaces the default selection (publicId, slug, name, structureCode, profileMedia)'),
];
export const VENUE_QUERY: readonly ParameterSpec[] = [
  limitParam, cursorParam, nameContainsParam,
  q('locality', literalTerm, 'Case-insensitive equality with the trimmed stored locality; no accent folding; Venues without locality never match'),
  q('countryCode', Type.String({ pattern: '^[A-Z]{2}$' }), 'Exact country code'),
  q('statusCode', enumOf(VENUE_STATUSES), 'Venue status (independent of visibility)'),
  namedSortParam, updatedSinceParam,
  fieldsParam(VENUE_FIELDS, 'Replaces the default selection (publicId, slug, name, statusCode, location, profileMedia)'),
];
export const EDITION_QUERY: readonly ParameterSpec[] = [
  limitParam, cursorParam,
  q('sort', enumOf(EDITION_SORTS), 'startLocalDate (default), -startLocalDate, name (bytewise) or updatedAt; publicId breaks ties'),
  updatedSinceParam,
  fieldsParam(EDITION_FIELDS, 'Replaces the default selection (publicId, slug, name, series, startLocalDate, endLocalDate, profileMedia)'),
];
const memberQuery = (fields: readonly string[], note: string): readonly ParameterSpec[] => [limitParam, cursorParam, memberSortParam, fieldsParam(fields, note)];
export const ARTIST_MEMBER_QUERY = memberQuery(ARTIST_FIELDS, 'Replaces the rich item selection (publicId, slug, name, profileMedia, description)');
export const VENUE_MEMBER_QUERY = memberQuery(VENUE_FIELDS, 'Replaces the rich item selection (every Venue field except updatedAt)');
export const SERIES_MEMBERSHIP_QUERY = memberQuery(SERIES_MEMBERSHIP_FIELDS, 'Top-level keys of each item (default all)');
export const EDITION_PROGRAM_QUERY = memberQuery(EDITION_PROGRAM_FIELDS, 'Top-level keys of each item: series and/or edition (default both)');

export const detailQuery = (fields: readonly string[]): readonly ParameterSpec[] => [
  fieldsParam(fields, 'Replaces the detail selection (default: every field)'),
];
export const EVENT_DETAIL_QUERY: readonly ParameterSpec[] = [
  fieldsParam(EVENT_FIELDS, 'Replaces the detail selection (default: every field)'),
  q('include', csv(EVENT_INCLUDES), 'Upgrades a selected relationship preview by one level'),
];
