/**
 * The machine-readable contract (spec: Versioning): OpenAPI 3.1.0, contract version 1.0.0,
 * environment-independent (no servers), each operation embedding its schemas inline. Built from
 * the same TypeBox schemas the service serializes with and the same parameter specs its
 * controls validate requests with (controls/parameter-schemas.ts, controls/lists.ts): each
 * operation documents exactly the parameter list its route's parser accepts.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorEnvelope, objectOf, pageOf } from '../contract/common.js';
import { Event } from '../contract/event.js';
import {
  ARTIST_DETAIL,
  ARTIST_LIST,
  ARTIST_MEMBERS,
  EDITION_DETAIL,
  EDITION_LIST,
  EDITION_PROGRAMS,
  SERIES_DETAIL,
  SERIES_LIST,
  SERIES_MEMBERSHIPS,
  VENUE_DETAIL,
  VENUE_MEMBERS,
} from '../controls/lists.js';
import { EVENT_DETAIL_QUERY, EVENT_QUERY, pathId, type ParameterSpec } from '../controls/parameter-schemas.js';
import { VENUE_LIST } from '../controls/venues.js';
import { Artist, Edition, EditionProgram, Series, SeriesMembership, Venue } from '../contract/resources.js';
import { ALLOW_ORIGIN, EXPOSED_HEADERS, PREFLIGHT } from './cors-headers.js';
import { CACHE_NONE, CACHE_RESOURCE } from './respond.js';
import { ALLOWED_METHODS } from './routes/known-paths.js';
import EXAMPLES from './reference/examples.generated.js';

export interface OperationSpec {
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly kind: 'collection' | 'detail' | 'operational';
  readonly parameters: readonly ParameterSpec[];
  readonly response: TSchema;
  /** The success media type; default application/json. */
  readonly contentType?: string;
  readonly description?: string;
}

const eventId = pathId('eventId', 'An Event publicId (malformed → 404)');
const artistId = pathId('artistId', 'An Artist publicId (malformed → 404)');
const venueId = pathId('venueId', 'A Venue publicId (malformed → 404)');
const seriesId = pathId('seriesId', 'A Series publicId (malformed → 404)');
const editionId = pathId('editionId', 'An Edition publicId of that Series (malformed → 404)');

/** Routes 2-17 of decisions §2 except the Events collection (route 1, above). */
function RESOURCE_OPERATIONS(): OperationSpec[] {
  const op = (
    path: string,
    operationId: string,
    summary: string,
    kind: 'collection' | 'detail',
    parameters: readonly ParameterSpec[],
    response: TSchema,
  ): OperationSpec => ({ path, operationId, summary, kind, parameters, response });
  return [
    op('/v1/events/:eventId', 'getEvent', 'An active Event with every field', 'detail', [eventId, ...EVENT_DETAIL_QUERY], objectOf(Event)),
    op('/v1/events/:eventId/artists', 'listEventArtists', "The Event's active Artists (rich items)", 'collection', [eventId, ...ARTIST_MEMBERS.parameters], pageOf(Artist)),
    op('/v1/events/:eventId/venues', 'listEventVenues', "The Event's active Venues (rich items)", 'collection', [eventId, ...VENUE_MEMBERS.parameters], pageOf(Venue)),
    op('/v1/events/:eventId/series', 'listEventSeries', 'Series the Event belongs to directly', 'collection', [eventId, ...SERIES_MEMBERSHIPS.parameters], pageOf(SeriesMembership)),
    op('/v1/events/:eventId/editions', 'listEventEditions', 'Edition programs the Event is in, each with its Series', 'collection', [eventId, ...EDITION_PROGRAMS.parameters], pageOf(EditionProgram)),
    op('/v1/artists', 'listArtists', 'A page of active Artists', 'collection', ARTIST_LIST.parameters, pageOf(Artist)),
    op('/v1/artists/:artistId', 'getArtist', 'An active Artist with every field', 'detail', [artistId, ...ARTIST_DETAIL.parameters], objectOf(Artist)),
    op('/v1/venues', 'listVenues', 'A page of active Venues', 'collection', VENUE_LIST.parameters, pageOf(Venue)),
    op('/v1/venues/:venueId', 'getVenue', 'An active Venue with every field', 'detail', [venueId, ...VENUE_DETAIL.parameters], objectOf(Venue)),
    op('/v1/series', 'listSeries', 'A page of active Series', 'collection', SERIES_LIST.parameters, pageOf(Series)),
    op('/v1/series/:seriesId', 'getSeries', 'An active Series with every field', 'detail', [seriesId, ...SERIES_DETAIL.parameters], objectOf(Series)),
    op('/v1/series/:seriesId/artists', 'listSeriesArtists', 'Lineup: active Artists of the active Events in the Series context', 'collection', [seriesId, ...ARTIST_MEMBERS.parameters], pageOf(Artist)),
    op('/v1/series/:seriesId/editions', 'listSeriesEditions', 'The active Editions of the Series', 'collection', [seriesId, ...EDITION_LIST.parameters], pageOf(Edition)),
    op('/v1/series/:seriesId/editions/:editionId', 'getEdition', 'An active Edition of an active Series, with every field', 'detail', [seriesId, editionId, ...EDITION_DETAIL.parameters], objectOf(Edition)),
    op('/v1/series/:seriesId/editions/:editionId/venues', 'listEditionVenues', "The Edition's official active Venues", 'collection', [seriesId, editionId, ...VENUE_MEMBERS.parameters], pageOf(Venue)),
    op('/v1/series/:seriesId/editions/:editionId/artists', 'listEditionArtists', "Lineup: active Artists of the active Events in the Edition's program", 'collection', [seriesId, editionId, ...ARTIST_MEMBERS.parameters], pageOf(Artist)),
  ];
}

/** Extension (decisions §8): iCalendar feeds of an Artist, a Venue or a Series. No query parameters. */
function CALENDAR_OPERATIONS(): OperationSpec[] {
  const description =
    'Extension beyond the v1 contract. An iCalendar (RFC 5545) feed for calendar subscriptions: the parent\'s active Events whose ' +
    'phase is upcoming or current (and those of unknown time zone starting today or later), the first 500 in start order, plus the Events of the last 30 days ' +
    '(the most recent 500), in start order. One VEVENT per Event: UID <publicId>@lineup, SUMMARY the name, DTSTART/DTEND as the schedule (a date-time in its reference ' +
    'time zone with its VTIMEZONE, or in UTC when the zone is unknown; a date as VALUE=DATE, DTEND the day after an inclusive end date; no DTEND without an end), ' +
    'STATUS CANCELLED or CONFIRMED, LOCATION from the primary active Venue, GEO only for published coordinates, URL the first ticket link, ' +
    'DTSTAMP and LAST-MODIFIED the updatedAt, SEQUENCE the updatedAt in whole seconds since 2000-01-01 UTC plus the number of times the Event\'s updatedAt has changed (it grows whenever the marker advances). A missing or inactive parent is a 404 error envelope.';
  const feed = (path: string, operationId: string, summary: string, id: ParameterSpec): OperationSpec => ({
    path,
    operationId,
    summary,
    kind: 'detail',
    parameters: [id],
    response: Type.String({ description: 'iCalendar text (RFC 5545)' }),
    contentType: 'text/calendar',
    description,
  });
  return [
    feed('/v1/artists/:artistId/calendar.ics', 'getArtistCalendar', "Calendar feed of the Artist's Events (iCalendar)", artistId),
    feed('/v1/venues/:venueId/calendar.ics', 'getVenueCalendar', "Calendar feed of the Venue's Events (iCalendar)", venueId),
    feed('/v1/series/:seriesId/calendar.ics', 'getSeriesCalendar', "Calendar feed of the Series' Events (iCalendar)", seriesId),
  ];
}

export const OPERATIONS: readonly OperationSpec[] = [
  {
    path: '/v1/health',
    operationId: 'getHealth',
    summary: 'Reports that the process runs',
    kind: 'operational',
    parameters: [],
    response: objectOf(Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false })),
  },
  {
    path: '/v1/ready',
    operationId: 'getReady',
    summary: 'Reports that the service can read its database',
    kind: 'operational',
    parameters: [],
    response: objectOf(Type.Object({ status: Type.Literal('ready') }, { additionalProperties: false })),
  },
  {
    path: '/v1/events',
    operationId: 'listEvents',
    summary: 'A page of active Events',
    kind: 'collection',
    parameters: EVENT_QUERY,
    response: pageOf(Event),
  },
  ...RESOURCE_OPERATIONS(),
  ...CALENDAR_OPERATIONS(),
];

/** Strips TypeBox's symbol keys: the document is plain JSON Schema 2020-12. */
const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema));

const header = (description: string, schema: object = { type: 'string' }, required = true) => ({ description, required, schema });

/** Headers on every response (spec: "Every response carries a server-generated request identifier header"; anonymous CORS). */
const COMMON_HEADERS = {
  'X-Request-ID': header('Server-generated request identifier'),
  'Access-Control-Allow-Origin': header(`Always ${ALLOW_ORIGIN}`, { type: 'string', const: ALLOW_ORIGIN }),
  'Access-Control-Expose-Headers': header(EXPOSED_HEADERS, { type: 'string' }),
};
const NO_STORE = { 'Cache-Control': header(`Always ${CACHE_NONE}`, { type: 'string', const: CACHE_NONE }) };
const CACHED = { 'Cache-Control': header(CACHE_RESOURCE, { type: 'string', const: CACHE_RESOURCE }) };
const ETAG = { ETag: header('Weak validator of the whole serialized body (pagination and next link included)', { type: 'string', pattern: '^W/".+"$' }) };
const DATE = { Date: header('Delivery time; never a change checkpoint', { type: 'string' }, false) };
const RETRY_AFTER = { 'Retry-After': header('Seconds to wait: digits only; guidance, not a reservation', { type: 'string', pattern: '^\\d+$' }) };
const ALLOW = (allow: string) => ({ Allow: header(`The supported methods: ${allow}`, { type: 'string', const: allow }) });

const errorContent = { 'application/json': { schema: plain(ErrorEnvelope) } };

type Method = 'get' | 'head' | 'options';

function errorResponse(method: Method, description: string, extra: Record<string, unknown> = {}) {
  return {
    description,
    headers: { ...COMMON_HEADERS, ...NO_STORE, ...extra },
    // A HEAD response never carries a body (same headers as GET).
    ...(method === 'head' ? {} : { content: errorContent }),
  };
}

/** Every status of the spec's Errors table that the operation can answer. */
function errorResponses(method: Method, resource: boolean, allow: string): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  if (method !== 'options') {
    responses[400] = errorResponse(
      method,
      resource
        ? 'Invalid query (type invalid_query): unknown, repeated, empty or unsupported parameters, bad combinations, malformed or incompatible cursor, a parameter budget that cannot fit pagination'
        : 'Invalid query (type invalid_query): this operation accepts no query parameters',
    );
  }
  if (resource && method !== 'options') {
    responses[404] = errorResponse(method, 'Not found (type not_found): a malformed path id, or a missing or inactive addressed resource or parent; never cached, also for conditional requests');
  }
  if (method !== 'options') responses[405] = errorResponse(method, 'Method not allowed (type method_not_allowed)', ALLOW(allow));
  responses[414] = errorResponse(method, 'URL too long (type invalid_query): the normalized URL, including room reserved for the continuation cursor, exceeds 4,096 bytes');
  responses[429] = errorResponse(method, 'Rate limited (type rate_limited): the client token bucket is exhausted', RETRY_AFTER);
  responses[500] = errorResponse(method, 'Unexpected failure, persisted-data overflow or invalid persisted projection (type internal_error)');
  responses[503] = errorResponse(
    method,
    'Unavailable (type unavailable): database or read admission unavailable, HTTP capacity exhausted, rate-limiter store full, readiness failure, stopping',
    RETRY_AFTER,
  );
  return responses;
}

/** The GET's examples, set on its 200 and on the refusal's response (a HEAD has no body to show). */
function withExamples(operationId: string, responses: Record<string, any>, contentType: string): void {
  for (const [status, example] of Object.entries(EXAMPLES[operationId] ?? {})) {
    const response = responses[status];
    if (response === undefined) throw new Error(`examples.json: ${operationId} has no ${status} response`);
    const type = status === '200' ? contentType : 'application/json';
    const content = response.content[type];
    const name = status === '200' ? 'demo' : (example.value as { error: { type: string } }).error.type;
    response.content = { ...response.content, [type]: { ...content, examples: { [name]: { summary: example.summary, description: `GET ${example.request}`, value: example.value } } } };
  }
}

function operation(op: OperationSpec, method: 'get' | 'head') {
  const resource = op.kind !== 'operational';
  const successHeaders = resource ? { ...COMMON_HEADERS, ...CACHED, ...ETAG, ...DATE } : { ...COMMON_HEADERS, ...NO_STORE };
  const responses: Record<string, unknown> = {
    200: {
      description: method === 'get' ? 'Success' : 'Success: the headers of the GET, no body',
      headers: successHeaders,
      ...(method === 'get' ? { content: { [op.contentType ?? 'application/json']: { schema: plain(op.response) } } } : {}),
    },
  };
  if (resource) {
    responses[304] = {
      description: 'Not modified: If-None-Match matched the current ETag (no body). A 304 never reports a change checkpoint',
      headers: { ...COMMON_HEADERS, ...CACHED, ...ETAG, ...DATE },
    };
  }
  Object.assign(responses, errorResponses(method, resource, ALLOWED_METHODS));
  if (method === 'get') withExamples(op.operationId, responses, op.contentType ?? 'application/json');
  const parameters: Record<string, unknown>[] = op.parameters.map((p) => ({
    name: p.name,
    in: p.in,
    required: p.in === 'path',
    description: p.description,
    schema: plain(p.schema),
  }));
  if (resource) {
    parameters.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'A previously returned ETag for this exact URL, a comma-separated list, or *; malformed content is ignored entirely',
      schema: { type: 'string' },
    });
  }
  return {
    operationId: method === 'get' ? op.operationId : `${op.operationId}Head`,
    summary: method === 'get' ? op.summary : `${op.summary} (headers only)`,
    ...(op.description ? { description: op.description } : {}),
    tags: [tagOf(op)],
    security: [],
    parameters,
    responses,
  };
}

/** Browser preflight (spec: Pre-flight and CORS), answered for every path, operational ones included. */
function preflight(op: OperationSpec) {
  return {
    operationId: `${op.operationId}Preflight`,
    summary: 'Browser preflight (CORS)',
    description: `Allowed methods ${PREFLIGHT.allowMethods}; the only additionally accepted request header is ${PREFLIGHT.allowHeaders}; any origin; credentials disabled. Preflights spend a rate-limit token.`,
    tags: [tagOf(op)],
    security: [],
    parameters: op.parameters
      .filter((p) => p.in === 'path')
      .map((p) => ({ name: p.name, in: p.in, required: true, description: p.description, schema: plain(p.schema) })),
    responses: {
      204: {
        description: 'Preflight accepted (no body)',
        headers: {
          ...COMMON_HEADERS,
          ...NO_STORE,
          'Access-Control-Allow-Methods': header(PREFLIGHT.allowMethods, { type: 'string', const: PREFLIGHT.allowMethods }),
          'Access-Control-Allow-Headers': header(PREFLIGHT.allowHeaders, { type: 'string', const: PREFLIGHT.allowHeaders }),
          'Access-Control-Max-Age': header('Seconds a browser may cache the preflight', { type: 'string', pattern: '^\\d+$' }),
        },
      },
      ...errorResponses('options', true, ALLOWED_METHODS),
    },
  };
}

const TAGS = [
  { name: 'Events', description: 'Events, their relationship and reverse routes' },
  { name: 'Artists', description: 'Artists' },
  { name: 'Venues', description: 'Venues' },
  { name: 'Series', description: 'Series, their Editions and lineups' },
  { name: 'Operational', description: 'Liveness and readiness' },
] as const;

function tagOf(op: OperationSpec): string {
  if (op.kind === 'operational') return 'Operational';
  const first = op.path.split('/')[2];
  return first === 'events' ? 'Events' : first === 'artists' ? 'Artists' : first === 'venues' ? 'Venues' : 'Series';
}

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const op of OPERATIONS) {
    const path = op.path.replace(/:([A-Za-z]+)/g, '{$1}');
    paths[path] = { get: operation(op, 'get'), head: operation(op, 'head'), options: preflight(op) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lineup public read API',
      version: '1.0.0',
      description:
        'Anonymous, read-only JSON API over a catalogue of live-music Events, Artists, Venues, Series and Editions. ' +
        'The document is environment-independent (no servers): supply the base address to generated clients. ' +
        'Collections are paged: follow links.next until it is null. Output updatedAt values are compared as strings. ' +
        'Every GET, operational ones included, also answers HEAD (same headers, no body) and OPTIONS (browser preflight). ' +
        'Extensions beyond the v1 contract (additive): near/radiusKm on /v1/venues and /v1/events with sort=distance and distanceKm on Venues, ' +
        'and the text/calendar feeds /v1/artists/{artistId}/calendar.ics, /v1/venues/{venueId}/calendar.ics, /v1/series/{seriesId}/calendar.ics. ' +
        'The service also answers this document at /openapi.json and an interactive reference at /docs (outside /v1, not operations of this contract; off with LINEUP_DOCS=false).',
      license: { name: 'Apache License 2.0', identifier: 'Apache-2.0' },
    },
    tags: TAGS,
    security: [],
    paths,
  };
}

/** The document as `lineup openapi` prints it and GET /openapi.json answers it: the committed openapi.json. */
export function openApiText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
