/** A read page of Events → the success envelope (see present/page.ts). */
import { eventSortArity, type EventsPlan } from '../plan/events.js';
import type { EventsPageRows } from '../queries/events-read.js';
import { presentEvent } from './event.js';
import type { PageEnvelope } from './envelope.js';
import { presentPage, sortKeysOf } from './page.js';

export function presentEventsPage(plan: EventsPlan, page: EventsPageRows): PageEnvelope {
  const { fields, include, sort } = plan.controls;
  const relations = {
    ...page.relations,
    richArtists: include.includes('artists'),
    richVenues: include.includes('venues'),
  };
  const arity = eventSortArity(sort);
  return presentPage(
    plan,
    page.rows,
    page.hasMore,
    (row) => presentEvent(row, fields, relations),
    (row) => sortKeysOf(row as unknown as Record<string, unknown>, arity),
  );
}
