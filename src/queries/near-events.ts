/**
 * Events near a place in the default order (`startLocalDate`), at constant cost
 * (docs/architecture.md#near-a-place): the page is not found by fetching every Event of the Venues in the radius,
 * but by walking `event_places` (migration 007), which holds each active Event's published Venue
 * positions with the Event's sort keys, per grid cell:
 *
 *   one branch per cell covering the radius (from the upcoming bound on, when there is one), each
 *   an ordered range of event_places_by_start_date from the cursor on (a subquery with its own
 *   ORDER BY) → Merge Append in the page order → the exact distance checked on the row's own
 *   coordinates → the Event by primary key, with every other filter → LIMIT.
 *
 * An Event with several Venues in the radius has a row for each: a row counts only when no Venue
 * of the same Event with a smaller id is in the radius (a probe of the table's primary key), so
 * each Event appears once. Each branch has its own ORDER BY: a UNION ALL member with a WHERE clause
 * is planned as a subquery of its own (PostgreSQL pulls up only members without quals), and only
 * an ordered member lets the planner merge the members' index orders instead of sorting all their
 * rows. Only published coordinates are in the table (src/catalogue/event-places.ts).
 */
import type { Near } from '../controls/near.js';
import { boundingBox, cellsCovering, distanceFrom, matchBound, nearPoint } from './near.js';
import { keysetAfter, type Params, type SortKey } from './sql.js';

export interface NearWalk {
  /** The FROM clause: the merged walk `np` joined to the Events `e`. */
  readonly from: string;
  /** The page order, on the walk's columns. */
  readonly keys: readonly SortKey[];
  /** Conditions on `np` for the WHERE clause of the page. */
  readonly conditions: readonly string[];
  /**
   * The walk's rows alone, each Event once, in the page order, as a FROM item `np` (a bounded
   * search takes its first rows: queries/bounded-scan.ts).
   */
  readonly rows: string;
}

const WALK_COLUMNS = 'np.event_id, np.venue_id, np.start_local_date, np.start_rank, np.start_key, np.public_id, np.latitude, np.longitude';

/**
 * The walk, or null when the radius would need too many cells (a wide radius near a pole: the
 * caller filters with eventNearCondition instead, over the few Venues there).
 *
 * `keys`: the Events' startLocalDate keys (on `e.`); `after`: the cursor's values; `bounds`: none,
 * or the two alternative conditions on `np` the page is the union of (queries/events.ts: upcoming,
 * a lower bound on the start instant, startLocalDate bounds): the usual one, read per cell, and
 * the rare one (normally no row: the partial index event_places_start_inconsistent), read for all
 * cells by one branch that sorts its few rows; no rare one when the bounds are exact.
 */
export function nearEventsWalk(
  near: Near,
  p: Params,
  keys: readonly SortKey[],
  after: readonly unknown[] | null,
  /** Called only when the walk is taken: its values are parameters of the statement. */
  walkBounds: () => readonly [usual: string, rare: string | null] | null,
): NearWalk | null {
  const walkKeys = keys.map((k) => ({ ...k, expr: k.expr.replace(/^e\./, 'np.') }));
  const bound = matchBound(near.radiusKm);
  const covering = cellsCovering(boundingBox(near.latitude, near.longitude, bound));
  if (covering === null) return null;
  const { cells, first, end } = covering;
  const bounds = walkBounds();
  const { lat, lon } = nearPoint(near, p);
  const radius = p.add(bound, 'float8');
  const within = (alias: string) => `${distanceFrom(alias, lat, lon)} < ${radius}`;
  const keyset = after === null ? [] : [keysetAfter(walkKeys, after, p)];
  const branchOrder = walkKeys.map((k) => `${k.expr} ${k.direction.toUpperCase()}`).join(', ');
  const branch = (conditions: string[]) => `(SELECT ${WALK_COLUMNS} FROM event_places np
       WHERE ${[...conditions, ...keyset].join(' AND ')}
       ORDER BY ${branchOrder})`;
  const branches = cells.map((cell) => branch([`np.cell = ${p.add(cell, 'int8')}`, ...(bounds === null ? [] : [bounds[0]])]));
  if (bounds !== null && bounds[1] !== null) branches.push(branch([`np.cell = ANY(${p.add(cells, 'int8[]')})`, bounds[1]]));
  const firstCell = p.add(first, 'int8');
  const endCell = p.add(end, 'int8');
  const onceWith = (fence: string) => `NOT EXISTS (SELECT 1 FROM event_places d
     WHERE d.event_id = np.event_id AND d.venue_id < np.venue_id
       AND d.cell >= ${firstCell} AND d.cell < ${endCell} AND ${within('d')}${fence})`;
  const once = onceWith('');
  // Ordered in a subquery of its own (not flattened into the page): its cheapest ordered plan is
  // the Merge Append of the cells' index orders, read lazily up to the page's LIMIT. Flattened, the
  // planner priced the page's filters on the few rows of the cells and sorted every row of them.
  const orderOf = (alias: string) => walkKeys.map((k) => `${k.expr.replace(/^np\./, `${alias}.`)} ${k.direction.toUpperCase()}`).join(', ');
  // The distance once, on the merged rows: the branches' Merge Append in a subquery of its own
  // (its ORDER BY keeps the merge; OFFSET 0 keeps the filter out of it). Pulled up, PostgreSQL
  // pushes the distance down into every branch, and each execution of the prepared statement
  // compiles it once per cell.
  const merged = `(SELECT w.* FROM (SELECT u.* FROM (${branches.join('\n     UNION ALL ')}) u
       ORDER BY ${orderOf('u')} OFFSET 0) w
       WHERE ${within('w')} ORDER BY ${orderOf('w')}) np`;
  return {
    from: `${merged} JOIN events e ON e.id = np.event_id`,
    keys: walkKeys,
    conditions: [once],
    // OFFSET 0 keeps the probe a filter of each row (PostgreSQL turns no EXISTS with an OFFSET into
    // a join): a limited walk planned to fetch all its rows would choose a hash anti join, which
    // reads every position of the radius before the first row
    rows: `(SELECT np.* FROM ${merged} WHERE ${onceWith(' OFFSET 0')} ORDER BY ${branchOrder}) np`,
  };
}
