/**
 * The query and path parameters of every route, as TypeBox schemas: the single definition that
 * the parsers validate with (controls/parameter-reader.ts compiles each schema once and checks
 * every value against it) and that `lineup openapi` documents (http/openapi.ts). A route accepts
 * exactly the parameters of its spec list, so the contract and the parsers cannot drift apart.
 *
 * Each schema says everything about one value that JSON Schema can say, and never refuses a
 * value the contract accepts. What it cannot say stays hand-written, and says so where it is
 * done: the query-string rules (repeated keys, `a=` vs `a`, malformed escapes: query-string.ts,
 * parameter-reader.ts), unique comma-separated members and an integer's spelling
 * (parameter-reader.ts), lengths after trimming (resource.ts readTerm), whether a date exists
 * (events.ts, paging.ts readInstant) and rules across parameters (the route parsers).
 */
import { Type, type TInteger, type TLiteral, type TSchema, type TString, type TUnion } from '@sinclair/typebox';
import { ADMINISTRATIVE_STATES, EVENT_FIELDS, EVENT_INCLUDES, EVENT_SORTS, TEMPORAL_PHASES } from '../plan/event-fields.js';
import { EDITION_SORTS, MEMBER_SORTS, NAMED_SORTS, VENUE_SORTS, VENUE_STATUSES } from '../plan/resource-fields.js';
import { MAX_CURSOR_LENGTH, restartHint } from './cursor.js';
import { PUBLIC_ID } from './formats.js';

export interface ParameterSpec<S extends TSchema = TSchema> {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly description: string;
  /** What the value must be; documented as the parameter's schema and checked by the reader. */
  readonly schema: S;
  readonly required?: boolean;
  /** The 400 detail message for a value the schema refuses (not part of the document). */
  readonly invalid: string;
}

/** A comma-separated list: its schema's pattern is built from `members` (registry order). */
export interface CsvParameterSpec<T extends string = string> extends ParameterSpec<TString> {
  readonly members: readonly T[];
}

export type EnumSchema<T extends string> = TUnion<TLiteral<T>[]>;

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 50;
export const MAX_TERM_LENGTH = 200;

/** Escapes the syntax characters only: other escapes (`\-`) are errors in Unicode-mode patterns. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Dates 0001-9999 with months 01-12 and days 01-31; whether the day exists is checked by hand. */
const DATE_PATTERN = '(?!0000)\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])';
const TIME_PATTERN = '(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,6})?';

export const QUERY_INSTANT_SCHEMA = Type.String({
  pattern: `^${DATE_PATTERN}T${TIME_PATTERN}Z$`,
  description: 'UTC instant YYYY-MM-DDTHH:MM:SS with an optional 1-6 digit fraction and Z; the date must exist',
});
export const DATE_SCHEMA = Type.String({
  pattern: `^${DATE_PATTERN}$`,
  description: 'Calendar date YYYY-MM-DD (years 0001-9999); the day must exist in its month',
});
export const PUBLIC_ID_SCHEMA = Type.String({ pattern: PUBLIC_ID.source });
/**
 * A filter term. Its 1-200 characters are counted after trimming surrounding whitespace, which
 * JSON Schema cannot express: the raw value has no maxLength (surrounding spaces are allowed)
 * and readTerm (resource.ts) measures the trimmed text. `\S` is "not blank" (JavaScript's trim and `\s`
 * know the same whitespace).
 */
export const TERM_SCHEMA = Type.String({
  minLength: 1,
  pattern: '\\S',
  description: `1-${MAX_TERM_LENGTH} characters once surrounding whitespace is trimmed (so not blank); the raw value may carry that whitespace`,
});

export const enumSchema = <T extends string>(values: readonly T[]): EnumSchema<T> => Type.Union(values.map((v) => Type.Literal(v)));

/** Members separated by commas, whitespace around each ignored; uniqueness is checked by hand. */
export function csvSchema(members: readonly string[]): TString {
  const member = `(?:${members.map(escapeRegExp).join('|')})`;
  return Type.String({
    minLength: 1,
    pattern: `^\\s*${member}\\s*(?:,\\s*${member}\\s*)*$`,
    description: `Comma-separated unique members of: ${members.join(', ')}`,
  });
}

export const TERM_MESSAGE = `must be 1-${MAX_TERM_LENGTH} characters after trimming surrounding whitespace`;
export const INSTANT_MESSAGE = 'must be a UTC instant YYYY-MM-DDTHH:MM:SS with an optional 1-6 digit fraction and Z';
export const DATE_MESSAGE = 'must be a calendar date YYYY-MM-DD (years 0001-9999)';
export const PUBLIC_ID_MESSAGE = 'must be a publicId: 12 characters from 0-9A-Za-z';

export const queryParameter = <S extends TSchema>(name: string, schema: S, description: string, invalid: string): ParameterSpec<S> => ({
  name,
  in: 'query',
  schema,
  description,
  invalid,
});
export const enumParameter = <T extends string>(name: string, values: readonly T[], description: string): ParameterSpec<EnumSchema<T>> =>
  queryParameter(name, enumSchema(values), description, `unsupported value (accepted: ${values.join(', ')})`);
export const csvParameter = <T extends string>(name: string, members: readonly T[], description: string): CsvParameterSpec<T> => ({
  ...queryParameter(name, csvSchema(members), description, `must be comma-separated unique members of: ${members.join(', ')}`),
  members,
});
/** Path ids: a malformed one is answered 404 without any read (decisions §2), never 400. */
export const pathId = (name: string, description: string): ParameterSpec<TString> => ({
  name,
  in: 'path',
  schema: PUBLIC_ID_SCHEMA,
  description,
  required: true,
  invalid: PUBLIC_ID_MESSAGE,
});

export const LIMIT: ParameterSpec<TInteger> = queryParameter(
  'limit',
  Type.Integer({
    minimum: 1,
    maximum: MAX_LIMIT,
    default: DEFAULT_LIMIT,
    description: `Digits only, no sign or leading zero; over ${MAX_LIMIT} is rejected (400), never clamped`,
  }),
  `Page size: 1-${MAX_LIMIT}, default ${DEFAULT_LIMIT}`,
  `must be a whole number from 1 to ${MAX_LIMIT}`,
);
export const CURSOR = queryParameter(
  'cursor',
  Type.String({ minLength: 1, maxLength: MAX_CURSOR_LENGTH }),
  'Opaque value from links.next; use with unchanged controls',
  `must be at most ${MAX_CURSOR_LENGTH} characters. ${restartHint}`,
);
export const UPDATED_SINCE = queryParameter(
  'updatedSince',
  QUERY_INSTANT_SCHEMA,
  'Inclusive change marker lower bound; requires sort=updatedAt and fields containing updatedAt',
  INSTANT_MESSAGE,
);

/**
 * "Near a place" (an extension: docs/api-guide.md): `near=LAT,LON` in decimal degrees, at most six
 * decimals, no spaces; the pattern holds the ranges (latitude -90..90, longitude -180..180).
 */
const LATITUDE_PATTERN = '-?(?:(?:[1-8]?\\d)(?:\\.\\d{1,6})?|90(?:\\.0{1,6})?)';
const LONGITUDE_PATTERN = '-?(?:(?:1[0-7]\\d|[1-9]?\\d)(?:\\.\\d{1,6})?|180(?:\\.0{1,6})?)';
export const NEAR = queryParameter(
  'near',
  Type.String({
    pattern: `^${LATITUDE_PATTERN},${LONGITUDE_PATTERN}$`,
    description: 'LAT,LON in decimal degrees (latitude -90..90, longitude -180..180, at most 6 decimals, no spaces)',
  }),
  'Extension (beyond v1): only items within radiusKm of this point, by great-circle distance to published Venue coordinates',
  'must be LAT,LON in decimal degrees (latitude -90..90, longitude -180..180, at most 6 decimals, no spaces)',
);
/** The number's range (> 0, ≤ 500) is checked by hand (radius.ts): the value is text. */
export const MAX_RADIUS_KM = 500;
export const DEFAULT_RADIUS_KM = 25;
export const RADIUS_KM = queryParameter(
  'radiusKm',
  Type.String({
    pattern: '^\\d{1,3}(?:\\.\\d{1,6})?$',
    description: `A number greater than 0 and at most ${MAX_RADIUS_KM}, at most 6 decimals; default ${DEFAULT_RADIUS_KM}; requires near`,
  }),
  `Extension (beyond v1): radius in kilometres around near (default ${DEFAULT_RADIUS_KM}); requires near`,
  `must be a number greater than 0 and at most ${MAX_RADIUS_KM} (at most 6 decimals)`,
);

const term = (name: string, description: string) => queryParameter(name, TERM_SCHEMA, description, TERM_MESSAGE);
const instant = (name: string, description: string) => queryParameter(name, QUERY_INSTANT_SCHEMA, description, INSTANT_MESSAGE);
const date = (name: string, description: string) => queryParameter(name, DATE_SCHEMA, description, DATE_MESSAGE);
const publicId = (name: string, description: string) => queryParameter(name, PUBLIC_ID_SCHEMA, description, PUBLIC_ID_MESSAGE);

/** GET /v1/events (spec: its parameter table), in documentation order. */
export const EVENT_PARAMETERS = {
  limit: LIMIT,
  cursor: CURSOR,
  nameContains: term('nameContains', 'Case-insensitive containment on the name or its accent-folded form; % and _ are wildcards'),
  cityContains: term('cityContains', "Containment on the primary active Venue's locality"),
  countryContains: term('countryContains', "Containment on the primary active Venue's country name"),
  temporalPhaseCode: enumParameter('temporalPhaseCode', TEMPORAL_PHASES, 'Phase at request time'),
  administrativeStateCode: enumParameter('administrativeStateCode', ADMINISTRATIVE_STATES, 'Administrative state'),
  startInstantGte: instant('startInstantGte', 'Inclusive exact UTC start lower bound; date-only Events never match'),
  startInstantLt: instant('startInstantLt', 'Exclusive exact UTC start upper bound'),
  startLocalDateGte: date('startLocalDateGte', 'Inclusive organizer start-local-date lower bound'),
  startLocalDateLt: date('startLocalDateLt', 'Exclusive organizer start-local-date upper bound'),
  updatedSince: UPDATED_SINCE,
  sort: enumParameter('sort', EVENT_SORTS, 'Order; default startLocalDate; publicId breaks ties'),
  fields: csvParameter('fields', EVENT_FIELDS, 'Replaces the default top-level selection'),
  include: csvParameter('include', EVENT_INCLUDES, 'Upgrades a selected relationship preview by one level'),
  artistId: publicId('artistId', 'Artist context'),
  venueId: publicId('venueId', 'Venue context'),
  seriesId: publicId('seriesId', 'Series context'),
  editionId: publicId('editionId', "Narrows seriesId to that Edition's program; requires seriesId"),
  near: NEAR,
  radiusKm: RADIUS_KM,
} as const;
export const EVENT_QUERY: readonly ParameterSpec[] = Object.values(EVENT_PARAMETERS);

/** GET /v1/events/{eventId}: `fields` and `include` only (decisions §2). */
export const EVENT_DETAIL_PARAMETERS = {
  fields: csvParameter('fields', EVENT_FIELDS, 'Replaces the detail selection (default: every field)'),
  include: EVENT_PARAMETERS.include,
} as const;
export const EVENT_DETAIL_QUERY: readonly ParameterSpec[] = Object.values(EVENT_DETAIL_PARAMETERS);

/** The literal name filters of Artists, Series and Venues (decisions §3). */
export const LITERAL_NAME_CONTAINS = term(
  'nameContains',
  'Case-insensitive literal substring: %, _, backslash and ! match themselves; no accent folding',
);
export const LOCALITY = term(
  'locality',
  'Case-insensitive equality with the trimmed stored locality; no accent folding; Venues without locality never match',
);
export const COUNTRY_CODE = queryParameter('countryCode', Type.String({ pattern: '^[A-Z]{2}$' }), 'Exact country code', 'must be two uppercase letters');
export const VENUE_STATUS = enumParameter('statusCode', VENUE_STATUSES, 'Venue status (independent of visibility)');
export const NAMED_SORT = enumParameter('sort', NAMED_SORTS, 'name (default, bytewise), -name or updatedAt (ascending); publicId breaks ties');
export const VENUE_SORT = enumParameter(
  'sort',
  VENUE_SORTS,
  'name (default, bytewise), -name, updatedAt (ascending) or distance (extension: nearest first, requires near); publicId breaks ties',
);
export const EDITION_SORT = enumParameter(
  'sort',
  EDITION_SORTS,
  'startLocalDate (default), -startLocalDate, name (bytewise) or updatedAt; publicId breaks ties',
);
export const MEMBER_SORT = enumParameter('sort', MEMBER_SORTS, 'name (the only order): names bytewise, then publicId');

