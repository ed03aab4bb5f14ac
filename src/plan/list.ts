/**
 * Plans of the resource lists other than the Events collection: the shared collection plan
 * (normalized query, URL budget, fingerprint) plus a boundary that may be compact (see
 * controls/compact-cursor.ts). Pure; malformed or foreign cursors fail here, before any read.
 */
import { decodeBoundary, type Boundary } from '../controls/compact-cursor.js';
import type { QueryPairs } from '../controls/normalized-query.js';
import { planCollection, type CollectionPlan } from './collection.js';

export interface ListPlan<C> extends CollectionPlan {
  readonly controls: C;
  /** Number of sort keys of this plan's order. */
  readonly arity: number;
  /** The decoded cursor: ordinary sort keys (also in `after`) or a compact member identity. */
  readonly boundary: Boundary | null;
}

export interface ListPlanInput {
  readonly normalized: QueryPairs;
  readonly limit: number;
  readonly cursor: string | null;
}

/** `idCount`: publicIds identifying one member (1, or 2 for Edition programs). */
export function planList<C extends ListPlanInput>(path: string, controls: C, arity: number, idCount: number, now: Date): ListPlan<C> {
  const base = planCollection(path, controls.normalized, controls.limit, null, arity, now);
  const boundary = controls.cursor === null ? null : decodeBoundary(controls.cursor, base.fingerprint, arity, idCount);
  return { ...base, after: boundary?.kind === 'keys' ? boundary.keys : null, controls, arity, boundary };
}
