/**
 * Change markers of the demo catalogue: every entity carries an explicit `updatedAt`, spread
 * over the 180 days before the anchor date with a few (about 3%) in its last day, so the change
 * feed (`sort=updatedAt&updatedSince=…`) and a second `lineup sync` return a subset, as they
 * would on a live catalogue. Deterministic per (seed, anchor date, publicId), drawn from a
 * generator of its own so the entities' other values do not depend on it.
 */
import { Random } from './random.js';
import { dateToMs, isoSeconds } from './time.js';

export const MARKER_DAYS = 180;
export const LAST_DAY_SHARE = 0.03;
const DAY_SECONDS = 86_400;

/** A UTC instant with six fractional digits, strictly before the anchor date's midnight (UTC). */
export function demoMarker(seed: string, anchorDate: string, publicId: string): string {
  const r = new Random(`${seed}/marker/${publicId}`);
  const window = r.chance(LAST_DAY_SHARE) ? DAY_SECONDS : MARKER_DAYS * DAY_SECONDS;
  const secondsBefore = r.int(1, window);
  const micros = r.int(0, 999_999);
  return `${isoSeconds(dateToMs(anchorDate) - secondsBefore * 1000)}.${String(micros).padStart(6, '0')}Z`;
}
