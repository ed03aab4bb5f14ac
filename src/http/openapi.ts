/**
 * The machine-readable contract (spec: Versioning): OpenAPI 3.1.0, contract version 1.0.0,
 * environment-independent (no servers), each operation embedding its schemas inline. Built from
 * the same TypeBox schemas and parameter specs the service and its tests use.
 */
import type { TSchema } from '@sinclair/typebox';
import { ErrorEnvelope, objectOf, pageOf } from './schemas/common.js';
import { Event } from './schemas/event.js';
import {
  ARTIST_MEMBER_QUERY,
  ARTIST_QUERY,
  EDITION_PROGRAM_QUERY,
  EDITION_QUERY,
  EVENT_DETAIL_QUERY,
  EVENT_QUERY,
  SERIES_MEMBERSHIP_QUERY,
  SERIES_QUERY,
  VENUE_MEMBER_QUERY,
  VENUE_QUERY,
  detailQuery,
  pathId,
  type ParameterSpec,
} from './schemas/parameters.js';
import { Artist, Edition, EditionProgram, Series, SeriesMembership, Venue } from './schemas/resources.js';
import { ARTIST_FIELDS, EDITION_FIELDS, SERIES_FIELDS, VENUE_FIELDS } from '../plan/resource-fields.js';
import { Type } from '@sinclair/typebox';

export interface OperationSpec {
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly kind: 'collection' | 'detail' | 'operational';
  readonly parameters: readonly ParameterSpec[];
  readonly response: TSchema;
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
    op('/v1/events/:eventId/artists', 'listEventArtists', "The Event's active Artists (rich items)", 'collection', [eventId, ...ARTIST_MEMBER_QUERY], pageOf(Artist)),
    op('/v1/events/:eventId/venues', 'listEventVenues', "The Event's active Venues (rich items)", 'collection', [eventId, ...VENUE_MEMBER_QUERY], pageOf(Venue)),
    op('/v1/events/:eventId/series', 'listEventSeries', 'Series the Event belongs to directly', 'collection', [eventId, ...SERIES_MEMBERSHIP_QUERY], pageOf(SeriesMembership)),
    op('/v1/events/:eventId/editions', 'listEventEditions', 'Edition programs the Event is in, each with its Series', 'collection', [eventId, ...EDITION_PROGRAM_QUERY], pageOf(EditionProgram)),
    op('/v1/artists', 'listArtists', 'A page of active Artists', 'collection', ARTIST_QUERY, pageOf(Artist)),
    op('/v1/artists/:artistId', 'getArtist', 'An active Artist with every field', 'detail', [artistId, ...detailQuery(ARTIST_FIELDS)], objectOf(Artist)),
    op('/v1/venues', 'listVenues', 'A page of active Venues', 'collection', VENUE_QUERY, pageOf(Venue)),
    op('/v1/venues/:venueId', 'getVenue', 'An active Venue with every field', 'detail', [venueId, ...detailQuery(VENUE_FIELDS)], objectOf(Venue)),
    op('/v1/series', 'listSeries', 'A page of active Series', 'collection', SERIES_QUERY, pageOf(Series)),
    op('/v1/series/:seriesId', 'getSeries', 'An active Series with every field', 'detail', [seriesId, ...detailQuery(SERIES_FIELDS)], objectOf(Series)),
    op('/v1/series/:seriesId/artists', 'listSeriesArtists', 'Lineup: active Artists of the active Events in the Series context', 'collection', [seriesId, ...ARTIST_MEMBER_QUERY], pageOf(Artist)),
    op('/v1/series/:seriesId/editions', 'listSeriesEditions', 'The active Editions of the Series', 'collection', [seriesId, ...EDITION_QUERY], pageOf(Edition)),
    op('/v1/series/:seriesId/editions/:editionId', 'getEdition', 'An active Edition of an active Series, with every field', 'detail', [seriesId, editionId, ...detailQuery(EDITION_FIELDS)], objectOf(Edition)),
    op('/v1/series/:seriesId/editions/:editionId/venues', 'listEditionVenues', "The Edition's official active Venues", 'collection', [seriesId, editionId, ...VENUE_MEMBER_QUERY], pageOf(Venue)),
    op('/v1/series/:seriesId/editions/:editionId/artists', 'listEditionArtists', "Lineup: active Artists of the active Events in the Edition's program", 'collection', [seriesId, editionId, ...ARTIST_MEMBER_QUERY], pageOf(Artist)),
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
];

/** Strips TypeBox's symbol keys: the document is plain JSON Schema 2020-12. */
const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema));

const header = (description: string, schema: object = { type: 'string' }) => ({ description, schema });

const COMMON_HEADERS = {
  'X-Request-ID': header('Server-generated request identifier'),
  'Access-Control-Allow-Origin': header('Always *'),
};

function errorResponse(description: string, extra: Record<string, unknown> = {}) {
  return {
    description,
    headers: { ...COMMON_HEADERS, 'Cache-Control': header('no-store'), ...extra },
    content: { 'application/json': { schema: plain(ErrorEnvelope) } },
  };
}

const retryAfter = { 'Retry-After': header('Seconds to wait (digits only)', { type: 'string', pattern: '^\\d+$' }) };

function operation(op: OperationSpec, method: 'get' | 'head') {
  const resource = op.kind !== 'operational';
  const successHeaders = resource
    ? { ...COMMON_HEADERS, 'Cache-Control': header('public, max-age=60'), ETag: header('Weak validator of the whole body') }
    : { ...COMMON_HEADERS, 'Cache-Control': header('no-store') };
  const responses: Record<string, unknown> = {
    200: {
      description: 'Success',
      headers: successHeaders,
      ...(method === 'get' ? { content: { 'application/json': { schema: plain(op.response) } } } : {}),
    },
  };
  if (resource) {
    responses[304] = { description: 'Not modified (If-None-Match matched)', headers: successHeaders };
  }
  responses[400] = errorResponse('Invalid query (type invalid_query)');
  if (resource) responses[404] = errorResponse('Not found (type not_found)');
  responses[405] = errorResponse('Method not allowed', { Allow: header('Allowed methods') });
  responses[414] = errorResponse('URL too long (including room for the continuation cursor)');
  responses[429] = errorResponse('Rate limited (type rate_limited)', retryAfter);
  responses[500] = errorResponse('Unexpected failure or invalid stored projection (type internal_error)');
  responses[503] = errorResponse('Unavailable (type unavailable)', retryAfter);
  const parameters = op.parameters.map((p) => ({
    name: p.name,
    in: p.in,
    required: p.in === 'path' ? true : false,
    description: p.description,
    schema: plain(p.schema),
  }));
  if (resource) {
    parameters.push({
      name: 'If-None-Match',
      in: 'header' as 'query',
      required: false,
      description: 'A previously returned ETag, a comma-separated list, or *',
      schema: { type: 'string' },
    });
  }
  return {
    operationId: method === 'get' ? op.operationId : `${op.operationId}Head`,
    summary: method === 'get' ? op.summary : `${op.summary} (headers only)`,
    security: [],
    parameters,
    responses,
  };
}

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const op of OPERATIONS) {
    const path = op.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const item: Record<string, unknown> = { get: operation(op, 'get') };
    if (op.kind !== 'operational') item.head = operation(op, 'head');
    paths[path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lineup public read API',
      version: '1.0.0',
      description:
        'Anonymous, read-only JSON API over a catalogue of live-music Events, Artists, Venues, Series and Editions. ' +
        'Supply the base address to generated clients. Browser preflight (OPTIONS) is answered for every resource path.',
    },
    security: [],
    paths,
  };
}
