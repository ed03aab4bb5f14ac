/**
 * Events collection controls → a plain, readonly read plan (see plan/collection.ts for the
 * parts every collection shares). Pure; the URL budget and the cursor are checked here, before
 * any database work.
 */
import type { EventControls } from '../controls/events.js';
import type { EventSort } from './event-fields.js';
import { planCollection, type CollectionPlan } from './collection.js';

export interface EventsPlan extends CollectionPlan {
  readonly controls: EventControls;
}

/** Number of cursor keys per sort: (date, rank, instant, publicId) or (value, publicId). */
export function eventSortArity(sort: EventSort): number {
  return sort === 'startLocalDate' || sort === '-startLocalDate' ? 4 : 2;
}

export function planEvents(path: string, controls: EventControls, now: Date): EventsPlan {
  const base = planCollection(path, controls.normalized, controls.limit, controls.cursor, eventSortArity(controls.sort), now);
  return { ...base, controls };
}
