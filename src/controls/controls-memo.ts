/**
 * A route's controls, kept per query string: a route's controls are a pure function of its query
 * string (this folder does no I/O and reads no clock), so a query read again is parsed, checked
 * and normalized once and its frozen controls are shared by every request that sends it.
 *
 * Parsing is most of what Lineup's Node side does for a request before its statement: 5–11 µs
 * for the Events controls on this machine kind (`/v1/events` with no query string 5.3 µs, the
 * rare name of the benchmark 8.0 µs, a `fields` and `include` selection 10.9 µs), and the plan's
 * caches keyed by the controls object (queries/bounded-scan.ts `termsWithoutTrigram`) are then
 * hits too. The database work is not touched: every request still runs its statements.
 *
 * A query that is refused (a 400) is never kept: it throws before anything is stored, and is
 * parsed again each time, so each refusal still names every problem it has. Kept by recent use
 * (a traversal's cursors, each query new, push out one another, not the queries read again),
 * at most `capacity` queries of at most MAX_KEPT_QUERY characters per route.
 */
import { deepFreeze } from '../text/deep-freeze.js';
import { parseQueryString, type RawQuery } from './query-string.js';

/** Longer query strings are parsed every time (a cursor is ≈ 100–150 characters). */
export const MAX_KEPT_QUERY = 1_024;

export class ControlsMemo<T> {
  private readonly kept = new Map<string, T>();

  constructor(
    private readonly capacity: number,
    private readonly parse: (raw: RawQuery) => T,
  ) {}

  /** The controls of `search` (a query string without `?`, as received). */
  get(search: string): T {
    const kept = this.kept.get(search);
    if (kept !== undefined) {
      // the most recently used last, the least first out
      this.kept.delete(search);
      this.kept.set(search, kept);
      return kept;
    }
    const controls = deepFreeze(this.parse(parseQueryString(search)));
    if (search.length <= MAX_KEPT_QUERY) {
      if (this.kept.size >= this.capacity) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(search, controls);
    }
    return controls;
  }

  get size(): number {
    return this.kept.size;
  }
}
