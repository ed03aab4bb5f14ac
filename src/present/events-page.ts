/** A read page of Events → the success envelope (see present/page.ts), and its rendered body. */
import { eventSortArity, type EventsPlan } from '../plan/events.js';
import type { EventsPageRows } from '../queries/events-read.js';
import { eventRelations, presentEvent } from './event.js';
import { renderBody, type PageEnvelope, type RenderedBody } from './envelope.js';
import { PageMemo, pageKey, rowInputs } from './page-memo.js';
import { presentPage, sortKeysOf } from './page.js';

export function presentEventsPage(plan: EventsPlan, page: EventsPageRows): PageEnvelope {
  const { fields, include, sort } = plan.controls;
  const relations = eventRelations(page.relations, include);
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
 * texts, which decide their rows, the sort keys), then each Event's Artist and Venue previews as
 * the frozen arrays their texts parse to (queries/preview-texts.ts: the same text, the same
 * array), whether stored, rich or read live. `null` when the page also shows what is not listed:
 * Series and Edition programs (their statements' rows are new objects on every read), or a
 * preview that is not one of the shared frozen arrays.
 */
function pageInputs(plan: EventsPlan, page: EventsPageRows): unknown[] | null {
  const { fields } = plan.controls;
  if (fields.includes('directEventSeries') || fields.includes('editionPrograms')) return null;
  const inputs = rowInputs(page.hasMore, page.rows);
  if (inputs === null) return null;
  const { artists, venues } = page.relations;
  for (const row of page.rows) {
    const a = artists.get(row.id);
    const v = venues.get(row.id);
    if ((a !== undefined && !Object.isFrozen(a)) || (v !== undefined && !Object.isFrozen(v))) return null;
    inputs.push(a, v);
  }
  return inputs;
}

/** The page's body and ETag: rendered, or as last rendered when nothing it is computed from changed. */
export function renderEventsPage(plan: EventsPlan, page: EventsPageRows): RenderedBody {
  return pages.render(pageKey(plan), pageInputs(plan, page), () => renderBody(presentEventsPage(plan, page)));
}
