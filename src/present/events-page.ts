/** A read page of Events → the success envelope (see present/page.ts), and its rendered body. */
import { eventSortArity, type EventsPlan } from '../plan/events.js';
import type { EventsPageRows } from '../queries/events-read.js';
import { presentEvent } from './event.js';
import { renderBody, type PageEnvelope, type RenderedBody } from './envelope.js';
import { PageMemo, pageKey, rowInputs } from './page-memo.js';
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

/** The last rendering of up to this many Events pages (≈ 30 KB each for the defaults). */
const pages = new PageMemo(64);

/**
 * Everything an Events page's body is computed from besides its plan: `hasMore` and every value
 * of every row (its own columns as the shared frozen object, the phase, the stored previews'
 * texts, which decide their rows, the sort keys). `null` when the page also shows what its own
 * statement does not read: Series and Edition programs (their statements' rows are not listed),
 * and previews read by the preview statements (rich ones, or an Event's whose stored row is
 * missing): those rows are new arrays on every read, so such a page could never be reused.
 */
function pageInputs(plan: EventsPlan, page: EventsPageRows): unknown[] | null {
  const { fields, include } = plan.controls;
  if (include.length > 0 || fields.includes('directEventSeries') || fields.includes('editionPrograms')) return null;
  const { artists, venues } = page.relations;
  const readLive = (list: readonly unknown[] | undefined) => list !== undefined && !Object.isFrozen(list);
  if (page.rows.some((row) => readLive(artists.get(row.id)) || readLive(venues.get(row.id)))) return null;
  return rowInputs(page.hasMore, page.rows);
}

/** The page's body and ETag: rendered, or as last rendered when nothing it is computed from changed. */
export function renderEventsPage(plan: EventsPlan, page: EventsPageRows): RenderedBody {
  return pages.render(pageKey(plan), pageInputs(plan, page), () => renderBody(presentEventsPage(plan, page)));
}
