/**
 * Extension (docs/api-guide.md): GET /v1/artists/{artistId}/calendar.ics,
 * /v1/venues/{venueId}/calendar.ics and /v1/series/{seriesId}/calendar.ics. No query parameters;
 * feed rows (404 when the parent is missing or inactive) → iCalendar text → weak ETag/304 with
 * the resource cache policy. HEAD, CORS, rate limits and the request id come from the app hooks.
 */
import type { FastifyInstance } from 'fastify';
import { ParameterReader } from '../../controls/parameter-reader.js';
import { pathIds } from '../../controls/resource.js';
import { presentCalendar } from '../../present/calendar.js';
import { readCalendar } from '../../queries/calendar.js';
import { sendResourceText } from '../respond.js';
import type { RouteContext } from './context.js';
import { queryOf } from './resource-reads.js';

export const CALENDAR_TYPE = 'text/calendar; charset=utf-8';

const FEEDS = [
  { path: '/v1/artists/:artistId/calendar.ics', param: 'artistId', kind: 'artist' },
  { path: '/v1/venues/:venueId/calendar.ics', param: 'venueId', kind: 'venue' },
  { path: '/v1/series/:seriesId/calendar.ics', param: 'seriesId', kind: 'series' },
] as const;

export function calendarRoutes(app: FastifyInstance, ctx: RouteContext): void {
  for (const feed of FEEDS) {
    app.get(feed.path, async (request, reply) => {
      const id = pathIds(request.params, [feed.param])[feed.param];
      new ParameterReader(queryOf(request), []).finish('This feed accepts no query parameters.');
      const now = ctx.clock().toISOString();
      const rows = await ctx.read(request, (reader) => readCalendar(reader, { kind: feed.kind, id }, now));
      return sendResourceText(request, reply, presentCalendar(rows), CALENDAR_TYPE);
    });
  }
}
