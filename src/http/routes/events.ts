/**
 * GET /v1/events — reads top to bottom, one named call per stage:
 * query string → controls → plan (cursor, URL budget) → SQL rows → projection → envelope → ETag.
 */
import type { FastifyInstance } from 'fastify';
import { parseEventControls } from '../../controls/events.js';
import { planEvents } from '../../plan/events.js';
import { fetchEventsPage } from '../../queries/events-read.js';
import { renderEventsPage } from '../../present/events-page.js';
import { sendRendered } from '../respond.js';
import type { RouteContext } from './context.js';
import { controlsReader } from './request-controls.js';

export function eventsRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const eventControls = controlsReader(parseEventControls);
  app.get('/v1/events', async (request, reply) => {
    const controls = eventControls(request);
    const plan = planEvents('/v1/events', controls, ctx.clock());
    const page = await ctx.read(request, (reader) => fetchEventsPage(reader, plan));
    return sendRendered(request, reply, renderEventsPage(plan, page));
  });
}
