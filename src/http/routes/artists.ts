/** GET /v1/artists and GET /v1/artists/{artistId} (decisions §2, §3). */
import type { FastifyInstance } from 'fastify';
import { ARTIST_DETAIL, ARTIST_LIST } from '../../controls/lists.js';
import { parseDetailFields, parseListControls, pathIds } from '../../controls/resource.js';
import { planList } from '../../plan/list.js';
import { listShape } from '../../queries/list.js';
import { presentArtist } from '../../present/items.js';
import { artistDetailStatement, artistListSource } from '../../queries/artists.js';
import type { ArtistItemRow } from '../../queries/items.js';
import type { RouteContext } from './context.js';
import { controlsReader } from './request-controls.js';
import { sendDetail, sendList } from './resource-reads.js';

type Row = ArtistItemRow & Record<string, unknown>;

export function artistsRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const artistListControls = controlsReader((raw) => parseListControls(raw, ARTIST_LIST));
  const artistDetailFields = controlsReader((raw) => parseDetailFields(raw, ARTIST_DETAIL));
  app.get('/v1/artists', async (request, reply) => {
    const controls = artistListControls(request);
    const source = artistListSource(controls);
    const plan = planList('/v1/artists', controls, listShape(source), ctx.clock());
    return sendList<Row>(request, reply, ctx, {
      plan,
      parent: null,
      source,
      item: (row) => presentArtist(row, controls.fields),
    });
  });

  app.get('/v1/artists/:artistId', async (request, reply) => {
    const { artistId } = pathIds(request.params, ['artistId']);
    const fields = artistDetailFields(request);
    return sendDetail<Row>(request, reply, ctx, artistDetailStatement(artistId, fields), (row) => presentArtist(row, fields));
  });
}
