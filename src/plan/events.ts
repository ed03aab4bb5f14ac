/**
 * Events collection controls → a plain, readonly read plan (see plan/collection.ts for the
 * parts every collection shares). Pure; the URL budget and the cursor (including the kinds of
 * its keys) are checked here, before any database work.
 */
import type { EventControls } from '../controls/events.js';
import { malformedCursor } from '../controls/cursor.js';
import { keysMatch, type KeyKind } from '../controls/cursor-keys.js';
import type { EventSort } from './event-fields.js';
import { planCollection, withBase, type CollectionPlan } from './collection.js';

export interface EventsPlan extends CollectionPlan {
  readonly controls: EventControls;
}

/** Cursor keys per sort: (date, rank, instant, publicId) or (instant, publicId). */
export const EVENT_SORT_KEYS: Readonly<Record<EventSort, readonly KeyKind[]>> = {
  startLocalDate: ['date', 'rank', 'timestampOrMinusInfinity', 'publicId'],
  '-startLocalDate': ['date', 'rank', 'timestampOrMinusInfinity', 'publicId'],
  startInstant: ['timestamp', 'publicId'],
  '-startInstant': ['timestamp', 'publicId'],
  updatedAt: ['timestamp', 'publicId'],
};

export function eventSortArity(sort: EventSort): number {
  return EVENT_SORT_KEYS[sort].length;
}

export function planEvents(path: string, controls: EventControls, now: Date): EventsPlan {
  const kinds = EVENT_SORT_KEYS[controls.sort];
  const base = planCollection(path, controls.normalized, controls.limit, controls.cursor, kinds.length, now);
  if (base.after !== null && !keysMatch(kinds, base.after)) throw malformedCursor();
  return withBase(base, base.after, { controls });
}
