/**
 * Plans of the resource lists other than the Events collection: the shared collection plan
 * (normalized query, URL budget, fingerprint) plus a boundary that may be compact (see
 * controls/compact-cursor.ts). Pure; malformed or foreign cursors fail here, before any read.
 */
import { decodeBoundary, type Boundary } from '../controls/compact-cursor.js';
import type { QueryPairs } from '../controls/normalized-query.js';
import { planCollection, withBase, type CollectionPlan } from './collection.js';

/**
 * How many sort keys, member publicIds and member names a list's source selects. Derived from
 * the source itself (queries/list.ts `listShape`), never written by hand.
 */
export interface ListShape {
  /** Sort keys of the order (an ordinary cursor's length). */
  readonly arity: number;
  /** publicIds identifying one member (a compact cursor's ids): 1, or 2 for Edition programs. */
  readonly ids: number;
  /** Names a compact boundary fingerprints, one per publicId. */
  readonly names: number;
}

export interface ListPlan<C> extends CollectionPlan {
  readonly controls: C;
  /** The source's key counts (cursor decoding, next cursor and compact boundary). */
  readonly shape: ListShape;
  /** The decoded cursor: ordinary sort keys (also in `after`) or a compact member identity. */
  readonly boundary: Boundary | null;
}

export interface ListPlanInput {
  readonly normalized: QueryPairs;
  readonly limit: number;
  readonly cursor: string | null;
}

/** `shape`: the list source's own key counts (`listShape(source)`). */
export function planList<C extends ListPlanInput>(path: string, controls: C, shape: ListShape, now: Date): ListPlan<C> {
  const { arity } = shape;
  const base = planCollection(path, controls.normalized, controls.limit, null, arity, now);
  const boundary = controls.cursor === null ? null : decodeBoundary(controls.cursor, base.fingerprint, arity, shape.ids);
  // written out, not `{ ...base, controls, … }`: see plan/collection.ts `withBase`
  return withBase(base, boundary?.kind === 'keys' ? boundary.keys : null, { controls, shape, boundary });
}
