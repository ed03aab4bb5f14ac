/**
 * The part of every collection plan that does not depend on the resource: the normalized query
 * (next link and fingerprint), the URL budget, and the decoded cursor boundary. Pure.
 */
import { controlsFingerprint, decodeCursor, type CursorKey } from '../controls/cursor.js';
import { encodeQuery, type QueryPairs } from '../controls/normalized-query.js';
import { checkUrlBudget } from './url-budget.js';

export interface CollectionPlan {
  /** The route path as requested (ids included), e.g. `/v1/events/abc…/artists`. */
  readonly path: string;
  readonly limit: number;
  /** The request's single operation time (ISO 8601, UTC). */
  readonly now: string;
  readonly normalizedQuery: string;
  readonly fingerprint: string;
  /** The sort key of the last item of the previous page, or null for the first page. */
  readonly after: readonly CursorKey[] | null;
}

export function planCollection(
  path: string,
  normalized: QueryPairs,
  limit: number,
  cursor: string | null,
  arity: number,
  now: Date,
): CollectionPlan {
  const normalizedQuery = encodeQuery(normalized);
  checkUrlBudget(path, normalizedQuery, normalized.length);
  const fingerprint = controlsFingerprint(path, normalizedQuery);
  const after = cursor === null ? null : decodeCursor(cursor, fingerprint, arity);
  return { path, limit, now: now.toISOString(), normalizedQuery, fingerprint, after };
}

/**
 * A resource's plan: `base`'s members (with `after` in place of its own), then `extra`'s.
 *
 * Copied member by member, not written `{ ...base, controls }`: on Node 20 (V8 11.3), optimized
 * code that adds members to an object spread gives every object a hidden class of its own, ≈ 2 µs
 * per added member and a map of garbage on every request (measured in session 35: 6 µs of an
 * Event's Artists route; docs/performance.md, "Spreads that build a class per object").
 */
export function withBase<E extends object>(base: CollectionPlan, after: readonly CursorKey[] | null, extra: E): CollectionPlan & E {
  const plan: CollectionPlan = { path: base.path, limit: base.limit, now: base.now, normalizedQuery: base.normalizedQuery, fingerprint: base.fingerprint, after };
  return Object.assign(plan, extra);
}
