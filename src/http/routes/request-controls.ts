/**
 * A route's controls of a request: its query string, as received, through the route's parse,
 * kept per query string (controls/controls-memo.ts). Every route's parse is pure, so a query read
 * again is not parsed again.
 */
import type { FastifyRequest } from 'fastify';
import { ControlsMemo } from '../../controls/controls-memo.js';
import { searchOf, type RawQuery } from '../../controls/query-string.js';

/** Query strings whose controls a route keeps. */
export const CONTROLS_KEPT = 256;

/** The reader of one route's controls (one memo per route: its parse is its own). */
export function controlsReader<T>(parse: (raw: RawQuery) => T): (request: FastifyRequest) => T {
  const memo = new ControlsMemo(CONTROLS_KEPT, parse);
  return (request) => memo.get(searchOf(request.raw.url ?? ''));
}
