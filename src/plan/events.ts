/**
 * Events collection controls → a plain, readonly read plan: the operation time, the decoded
 * cursor boundary and the normalized query that the next link and the cursor fingerprint use.
 * Pure; the URL budget and the cursor are checked here, before any database work.
 */
import type { EventControls } from '../controls/events.js';
import { controlsFingerprint, decodeCursor, type CursorKey } from '../controls/cursor.js';
import { encodeQuery } from '../controls/normalized-query.js';
import { checkUrlBudget } from './url-budget.js';
import type { EventSort } from './event-fields.js';

export interface EventsPlan {
  readonly path: string;
  readonly controls: EventControls;
  /** The request's single operation time (ISO 8601, UTC). */
  readonly now: string;
  readonly normalizedQuery: string;
  readonly fingerprint: string;
  /** The sort key of the last item of the previous page, or null for the first page. */
  readonly after: readonly CursorKey[] | null;
}

/** Number of cursor keys per sort: (date, rank, instant, publicId) or (value, publicId). */
export function eventSortArity(sort: EventSort): number {
  return sort === 'startLocalDate' || sort === '-startLocalDate' ? 4 : 2;
}

export function planEvents(path: string, controls: EventControls, now: Date): EventsPlan {
  const normalizedQuery = encodeQuery(controls.normalized);
  checkUrlBudget(path, normalizedQuery, controls.normalized.length);
  const fingerprint = controlsFingerprint(path, normalizedQuery);
  const after = controls.cursor === null ? null : decodeCursor(controls.cursor, fingerprint, eventSortArity(controls.sort));
  return { path, controls, now: now.toISOString(), normalizedQuery, fingerprint, after };
}
