/**
 * A read page of Events → the success envelope, with the next link built from the normalized
 * query and a cursor on the last item's sort key (spec: GET /v1/events rules 7-9).
 */
import { encodeCursor, type CursorKey } from '../controls/cursor.js';
import { withCursor } from '../controls/normalized-query.js';
import { eventSortArity, type EventsPlan } from '../plan/events.js';
import type { EventsPageRows } from '../queries/events-read.js';
import type { EventRow } from '../queries/events.js';
import { presentEvent } from './event.js';
import { pageEnvelope, type PageEnvelope } from './envelope.js';

export function sortKeysOf(row: EventRow, arity: number): CursorKey[] {
  return Array.from({ length: arity }, (_, i) => row[`k${i}`] ?? null);
}

export function presentEventsPage(plan: EventsPlan, page: EventsPageRows): PageEnvelope {
  const { fields, include, limit, sort } = plan.controls;
  const relations = {
    ...page.relations,
    richArtists: include.includes('artists'),
    richVenues: include.includes('venues'),
  };
  const data = page.rows.map((row) => presentEvent(row, fields, relations));
  const last = page.rows[page.rows.length - 1];
  const next =
    page.hasMore && last
      ? withCursor(plan.path, plan.normalizedQuery, encodeCursor(plan.fingerprint, sortKeysOf(last, eventSortArity(sort))))
      : null;
  return pageEnvelope(data, limit, next);
}
