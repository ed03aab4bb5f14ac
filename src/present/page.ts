/**
 * Any collection page → the success envelope: items projected one by one, and a next link
 * built from the normalized query plus a cursor on the last item's sort key (spec: GET
 * /v1/events rules 7-9; the same rules serve every collection).
 */
import { encodeBoundary, type BoundaryIdentity } from '../controls/compact-cursor.js';
import { encodeCursor, type CursorKey } from '../controls/cursor.js';
import { withCursor } from '../controls/normalized-query.js';
import type { CollectionPlan } from '../plan/collection.js';
import { pageEnvelope, type PageEnvelope } from './envelope.js';

/** Sort-key columns are selected as k0…kN by the query layer. */
export function sortKeysOf(row: Record<string, unknown>, arity: number): CursorKey[] {
  return Array.from({ length: arity }, (_, i) => (row[`k${i}`] ?? null) as CursorKey);
}

export function presentPage<R>(
  plan: CollectionPlan,
  rows: readonly R[],
  hasMore: boolean,
  item: (row: R) => unknown,
  cursorKeys: (row: R) => readonly CursorKey[],
  /** Name-ordered lists: the member identity that a compact boundary carries when needed. */
  identity?: (row: R) => BoundaryIdentity,
): PageEnvelope {
  const data = rows.map(item);
  const last = rows[rows.length - 1];
  const cursor = (row: R) =>
    identity ? encodeBoundary(plan.fingerprint, cursorKeys(row), identity(row)) : encodeCursor(plan.fingerprint, cursorKeys(row));
  const next = hasMore && last !== undefined ? withCursor(plan.path, plan.normalizedQuery, cursor(last)) : null;
  return pageEnvelope(data, plan.limit, next);
}
