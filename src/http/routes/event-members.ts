/**
 * GET /v1/events/{eventId} and its member routes (decisions §2, routes 2-6): the detail with
 * every field, the Artists and Venues behind the preview `href`s, and the reverse Series and
 * Edition-program routes. A missing or inactive Event is 404.
 */
import type { FastifyInstance } from 'fastify';
import { parseEventDetailControls } from '../../controls/event-detail.js';
import { ARTIST_MEMBERS, EDITION_PROGRAMS, SERIES_MEMBERSHIPS, VENUE_MEMBERS } from '../../controls/lists.js';
import { parseMemberControls, pathIds } from '../../controls/resource.js';
import { planList } from '../../plan/list.js';
import { listShape } from '../../queries/list.js';
import { objectEnvelope } from '../../present/envelope.js';
import { eventRelations, presentEvent } from '../../present/event.js';
import { presentArtist, presentVenue } from '../../present/items.js';
import { editionProgram, seriesMembership } from '../../present/series.js';
import { fetchEventDetail } from '../../queries/event-detail.js';
import type { EditionProgramRow, SeriesRefRow } from '../../queries/event-programs.js';
import type { ArtistItemRow, VenueItemRow } from '../../queries/items.js';
import { eventArtistsSource, eventEditionsSource, eventSeriesSource, eventVenuesSource } from '../../queries/members.js';
import { notFound } from '../errors.js';
import { sendResource } from '../respond.js';
import type { RouteContext } from './context.js';
import { controlsReader } from './request-controls.js';
import { sendList } from './resource-reads.js';

type Row<T> = T & Record<string, unknown>;

export function eventMemberRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const eventDetailControls = controlsReader(parseEventDetailControls);
  const artistMembersControls = controlsReader((raw) => parseMemberControls(raw, ARTIST_MEMBERS));
  const venueMembersControls = controlsReader((raw) => parseMemberControls(raw, VENUE_MEMBERS));
  const seriesMembershipsControls = controlsReader((raw) => parseMemberControls(raw, SERIES_MEMBERSHIPS));
  const editionProgramsControls = controlsReader((raw) => parseMemberControls(raw, EDITION_PROGRAMS));
  app.get('/v1/events/:eventId', async (request, reply) => {
    const { eventId } = pathIds(request.params, ['eventId']);
    const controls = eventDetailControls(request);
    const now = ctx.clock().toISOString();
    const found = await ctx.read(request, (reader) => fetchEventDetail(reader, eventId, controls, now));
    if (found === null) throw notFound();
    const relations = eventRelations(found.relations, controls.include);
    return sendResource(request, reply, objectEnvelope(presentEvent(found.row, controls.fields, relations)));
  });

  app.get('/v1/events/:eventId/artists', async (request, reply) => {
    const { eventId } = pathIds(request.params, ['eventId']);
    const controls = artistMembersControls(request);
    const source = eventArtistsSource(eventId, controls.fields);
    const plan = planList(`/v1/events/${eventId}/artists`, controls, listShape(source), ctx.clock());
    return sendList<Row<ArtistItemRow>>(request, reply, ctx, {
      plan,
      parent: { kind: 'event', eventId },
      source,
      item: (row) => presentArtist(row, controls.fields),
    });
  });

  app.get('/v1/events/:eventId/venues', async (request, reply) => {
    const { eventId } = pathIds(request.params, ['eventId']);
    const controls = venueMembersControls(request);
    const source = eventVenuesSource(eventId, controls.fields);
    const plan = planList(`/v1/events/${eventId}/venues`, controls, listShape(source), ctx.clock());
    return sendList<Row<VenueItemRow>>(request, reply, ctx, {
      plan,
      parent: { kind: 'event', eventId },
      source,
      item: (row) => presentVenue(row, controls.fields),
    });
  });

  app.get('/v1/events/:eventId/series', async (request, reply) => {
    const { eventId } = pathIds(request.params, ['eventId']);
    const controls = seriesMembershipsControls(request);
    const source = eventSeriesSource(eventId, controls.fields);
    const plan = planList(`/v1/events/${eventId}/series`, controls, listShape(source), ctx.clock());
    return sendList<Row<SeriesRefRow>>(request, reply, ctx, {
      plan,
      parent: { kind: 'event', eventId },
      source,
      item: (row) => seriesMembership(row, controls.fields, 'series'),
    });
  });

  app.get('/v1/events/:eventId/editions', async (request, reply) => {
    const { eventId } = pathIds(request.params, ['eventId']);
    const controls = editionProgramsControls(request);
    const source = eventEditionsSource(eventId, controls.fields);
    const plan = planList(`/v1/events/${eventId}/editions`, controls, listShape(source), ctx.clock());
    return sendList<Row<EditionProgramRow>>(request, reply, ctx, {
      plan,
      parent: { kind: 'event', eventId },
      source,
      item: (row) => editionProgram(row, controls.fields, 'edition'),
    });
  });
}
