/**
 * Series and Edition routes (decisions §2, routes 11-17): collection, detail, lineups, a
 * Series' Editions, Edition detail and the Edition's official Venues. Editions are read only
 * under their own Series; an inactive Series hides everything under it.
 */
import type { FastifyInstance } from 'fastify';
import { ARTIST_MEMBERS, EDITION_DETAIL, EDITION_LIST, SERIES_DETAIL, SERIES_LIST, VENUE_MEMBERS } from '../../controls/lists.js';
import { parseDetailFields, parseListControls, parseMemberControls, pathIds } from '../../controls/resource.js';
import { planList } from '../../plan/list.js';
import { listShape } from '../../queries/list.js';
import { presentArtist, presentVenue } from '../../present/items.js';
import { presentEdition, presentSeries } from '../../present/series.js';
import type { ArtistItemRow, VenueItemRow } from '../../queries/items.js';
import { editionVenuesSource, lineupSource } from '../../queries/members.js';
import {
  editionDetailStatement,
  editionListSource,
  seriesDetailStatement,
  seriesListSource,
  type EditionRow,
  type SeriesRow,
} from '../../queries/series.js';
import type { RouteContext } from './context.js';
import { controlsReader } from './request-controls.js';
import { sendDetail, sendList } from './resource-reads.js';

type Row<T> = T & Record<string, unknown>;

export function seriesRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const seriesListControls = controlsReader((raw) => parseListControls(raw, SERIES_LIST));
  const seriesDetailFields = controlsReader((raw) => parseDetailFields(raw, SERIES_DETAIL));
  const artistMembersControls = controlsReader((raw) => parseMemberControls(raw, ARTIST_MEMBERS));
  const editionListControls = controlsReader((raw) => parseListControls(raw, EDITION_LIST));
  const editionDetailFields = controlsReader((raw) => parseDetailFields(raw, EDITION_DETAIL));
  const venueMembersControls = controlsReader((raw) => parseMemberControls(raw, VENUE_MEMBERS));
  app.get('/v1/series', async (request, reply) => {
    const controls = seriesListControls(request);
    const source = seriesListSource(controls);
    const plan = planList('/v1/series', controls, listShape(source), ctx.clock());
    return sendList<Row<SeriesRow>>(request, reply, ctx, {
      plan,
      parent: null,
      source,
      item: (row) => presentSeries(row, controls.fields),
    });
  });

  app.get('/v1/series/:seriesId', async (request, reply) => {
    const { seriesId } = pathIds(request.params, ['seriesId']);
    const fields = seriesDetailFields(request);
    return sendDetail<Row<SeriesRow>>(request, reply, ctx, seriesDetailStatement(seriesId, fields), (row) => presentSeries(row, fields));
  });

  app.get('/v1/series/:seriesId/artists', async (request, reply) => {
    const { seriesId } = pathIds(request.params, ['seriesId']);
    const controls = artistMembersControls(request);
    const source = lineupSource(seriesId, null, controls.fields);
    const plan = planList(`/v1/series/${seriesId}/artists`, controls, listShape(source), ctx.clock());
    return sendList<Row<ArtistItemRow>>(request, reply, ctx, {
      plan,
      parent: { kind: 'series', seriesId },
      source,
      item: (row) => presentArtist(row, controls.fields),
    });
  });

  app.get('/v1/series/:seriesId/editions', async (request, reply) => {
    const { seriesId } = pathIds(request.params, ['seriesId']);
    const controls = editionListControls(request);
    const source = editionListSource(seriesId, controls);
    const plan = planList(`/v1/series/${seriesId}/editions`, controls, listShape(source), ctx.clock());
    return sendList<Row<EditionRow>>(request, reply, ctx, {
      plan,
      parent: { kind: 'series', seriesId },
      source,
      item: (row) => presentEdition(row, controls.fields),
    });
  });

  app.get('/v1/series/:seriesId/editions/:editionId', async (request, reply) => {
    const { seriesId, editionId } = pathIds(request.params, ['seriesId', 'editionId']);
    const fields = editionDetailFields(request);
    return sendDetail<Row<EditionRow>>(request, reply, ctx, editionDetailStatement(seriesId, editionId, fields), (row) =>
      presentEdition(row, fields),
    );
  });

  app.get('/v1/series/:seriesId/editions/:editionId/venues', async (request, reply) => {
    const { seriesId, editionId } = pathIds(request.params, ['seriesId', 'editionId']);
    const controls = venueMembersControls(request);
    const source = editionVenuesSource(seriesId, editionId, controls.fields);
    const plan = planList(`/v1/series/${seriesId}/editions/${editionId}/venues`, controls, listShape(source), ctx.clock());
    return sendList<Row<VenueItemRow>>(request, reply, ctx, {
      plan,
      parent: { kind: 'edition', seriesId, editionId },
      source,
      item: (row) => presentVenue(row, controls.fields),
    });
  });

  app.get('/v1/series/:seriesId/editions/:editionId/artists', async (request, reply) => {
    const { seriesId, editionId } = pathIds(request.params, ['seriesId', 'editionId']);
    const controls = artistMembersControls(request);
    const source = lineupSource(seriesId, editionId, controls.fields);
    const plan = planList(`/v1/series/${seriesId}/editions/${editionId}/artists`, controls, listShape(source), ctx.clock());
    return sendList<Row<ArtistItemRow>>(request, reply, ctx, {
      plan,
      parent: { kind: 'edition', seriesId, editionId },
      source,
      item: (row) => presentArtist(row, controls.fields),
    });
  });
}
