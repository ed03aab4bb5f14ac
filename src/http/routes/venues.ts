/** GET /v1/venues and GET /v1/venues/{venueId} (spec), one named call per stage. */
import type { FastifyInstance } from 'fastify';
import { VENUE_DETAIL } from '../../controls/lists.js';
import { parseDetailFields, pathIds } from '../../controls/resource.js';
import { parseVenueControls } from '../../controls/venues.js';
import { planList } from '../../plan/list.js';
import { listShape } from '../../queries/list.js';
import { presentVenue } from '../../present/items.js';
import type { VenueItemRow } from '../../queries/items.js';
import { venueDetailStatement, venueListSource } from '../../queries/venues.js';
import type { RouteContext } from './context.js';
import { controlsReader } from './request-controls.js';
import { sendDetail, sendList } from './resource-reads.js';

export function venuesRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const venueListControls = controlsReader(parseVenueControls);
  const venueDetailFields = controlsReader((raw) => parseDetailFields(raw, VENUE_DETAIL));
  app.get('/v1/venues', async (request, reply) => {
    const controls = venueListControls(request);
    const source = venueListSource(controls);
    const plan = planList('/v1/venues', controls, listShape(source), ctx.clock());
    const near = controls.filters.near !== null;
    return sendList<VenueItemRow & { distance_km?: number } & Record<string, unknown>>(request, reply, ctx, {
      plan,
      parent: null,
      source,
      // Extension (decisions §8): with `near`, each item carries its distance in km (3 decimals),
      // set on the item presentVenue built (a spread and a new member: plan/collection.ts `withBase`)
      item: near
        ? (row) => Object.assign(presentVenue(row, controls.fields), { distanceKm: Number(row.distance_km) })
        : (row) => presentVenue(row, controls.fields),
    });
  });

  app.get('/v1/venues/:venueId', async (request, reply) => {
    const { venueId } = pathIds(request.params, ['venueId']);
    const fields = venueDetailFields(request);
    return sendDetail<VenueItemRow & Record<string, unknown>>(request, reply, ctx, venueDetailStatement(venueId, fields), (row) =>
      presentVenue(row, fields),
    );
  });
}
