/**
 * Extension (decisions §8, issue 18): GET /v1/artists/{artistId}/calendar.ics,
 * /v1/venues/{venueId}/calendar.ics and /v1/series/{seriesId}/calendar.ics. No query parameters;
 * parent check (404 when missing or inactive) → feed rows → iCalendar text → weak ETag/304 with
 * the resource cache policy. HEAD, CORS, rate limits and the request id come from the app hooks.
 */
import type { FastifyInstance } from 'fastify';
import { ParameterReader } from '../../controls/parameter-reader.js';
import { pathIds } from '../../controls/resource.js';
import { presentCalendar } from '../../present/calendar.js';
import { calendarStatement, type CalendarParent, type CalendarRow } from '../../queries/calendar.js';
import { requireParent, type Parent } from '../../queries/parents.js';
import { sendResourceText } from '../respond.js';
import type { RouteContext } from './context.js';
import { queryOf } from './resource-reads.js';

export const CALENDAR_TYPE = 'text/calendar; charset=utf-8';

const FEEDS = [
  { path: '/v1/artists/:artistId/calendar.ics', param: 'artistId', kind: 'artist' },
  { path: '/v1/venues/:venueId/calendar.ics', param: 'venueId', kind: 'venue' },
  { path: '/v1/series/:seriesId/calendar.ics', param: 'seriesId', kind: 'series' },
] as const;

const parentOf = (kind: CalendarParent['kind'], id: string): Parent =>
  kind === 'artist' ? { kind, artistId: id } : kind === 'venue' ? { kind, venueId: id } : { kind, seriesId: id };

export function calendarRoutes(app: FastifyInstance, ctx: RouteContext): void {
  for (const feed of FEEDS) {
    app.get(feed.path, async (request, reply) => {
      const id = pathIds(request.params, [feed.param])[feed.param];
      new ParameterReader(queryOf(request), []).finish('This feed accepts no query parameters.');
      const now = ctx.clock().toISOString();
      const rows = await ctx.read(request, async (reader) => {
        await requireParent(reader, parentOf(feed.kind, id));
        return reader.rows<CalendarRow>(calendarStatement({ kind: feed.kind, id }, now));
      });
      return sendResourceText(request, reply, presentCalendar(rows), CALENDAR_TYPE);
    });
  }
}
