/**
 * One statement shape for every resource list other than the Events collection: eligible rows
 * (FROM + WHERE of the list), a keyset boundary, the list order and `limit + 1` rows. Each row
 * also carries its sort keys (k0…), identity (i0…) and names (n0…) for the next cursor.
 *
 * A compact boundary (controls/compact-cursor.ts) is resolved by a second statement over the
 * SAME eligibility (every original filter and membership), so a renamed, deactivated, unlinked,
 * removed or no longer matching member is a restart (400), never a silently different page.
 */
import { checkResolved, type BoundaryIdentity } from '../controls/compact-cursor.js';
import type { CursorKey } from '../controls/cursor.js';
import type { Reader } from '../db/reader.js';
import type { ListPlan, ListShape } from '../plan/list.js';
import { splitPage } from './page.js';
import { parentSelect, requireParent, type Parent } from './parents.js';
import { Params, keyText, keysetAfter, orderBy, orderByOutputs, orderKeyOutputs, rowLimit, type SortKey } from './sql.js';
import type { Statement } from './statement.js';

export interface ListSource {
  /** Statement label, e.g. `venues.list`. */
  readonly name: string;
  /** Allow-listed projection of the selected fields. */
  readonly columns: readonly string[];
  /** FROM clause with its joins. */
  readonly from: string;
  /** Eligibility: membership and filters, already parameterized. */
  readonly where: readonly string[];
  /** The order; the last key is a publicId (ties). */
  readonly keys: readonly SortKey[];
  /** The member's publicIds and its names (compact boundary). */
  readonly identity: readonly string[];
  readonly names: readonly string[];
  /** The plan does not depend on the values (see Statement.stablePlan). */
  readonly stablePlan?: boolean;
  /**
   * The page's rows read after they are found (`from` is then the table alone). For a candidate
   * set that is sorted rather than walked (Venues near a place): the page is ordered and cut on
   * the table's own columns, `alias.id` carried out, and only its rows are read again with
   * `joins` (media), instead of every candidate being joined before the sort.
   */
  readonly lateRows?: LateRows;
}

export interface LateRows {
  readonly table: string;
  readonly alias: string;
  readonly joins: string;
  /**
   * Eligibility that tests the order keys' values (Venues near a place by distance: the distance
   * within the radius), given the SQL that holds each key. The page computes each candidate's keys
   * once, then tests and orders them: written beside `where`, a key is computed once for the
   * condition and again for the order (PostgreSQL has no common-subexpression elimination, and
   * the haversine is a dozen function calls).
   */
  readonly onKeys?: (keys: readonly string[]) => readonly string[];
}

/** A list source built on the statement's own parameters. */
export type SourceBuilder = (p: Params) => ListSource;

export interface ListRow {
  [column: string]: unknown;
}

/**
 * The source's key counts, read from its own definition: building a source only assembles text
 * and parameters (pure), so a throwaway parameter list serves.
 */
export function listShape(build: SourceBuilder): ListShape {
  const src = build(new Params());
  return { arity: src.keys.length, ids: src.identity.length, names: src.names.length };
}

const tagged = (exprs: readonly string[], prefix: string) => exprs.map((e, i) => `${e} AS ${prefix}${i}`);
const keyColumns = (keys: readonly SortKey[]) => tagged(keys.map((k) => keyText(k.expr, k.cast)), 'k');

/**
 * `parent`: the addressed parent, checked by the page statement itself (`EXISTS`, one probe
 * planned once per statement): a page with rows proves the parent exists and is active, so only
 * an empty page needs the parent's own statement to tell a 404 from an empty list.
 * `resolved`: `after` holds a compact boundary's member's keys as `boundaryStatement` read them,
 * not a cursor's (sql.ts `keysetAfter`).
 */
export function listPageStatement(
  build: SourceBuilder,
  after: readonly CursorKey[] | null,
  limit: number,
  parent: Parent | null = null,
  resolved = false,
): Statement {
  const p = new Params();
  const src = build(p);
  const late = src.lateRows;
  // the keys as a subquery `c` holds them (o0…), once computed (LateRows.onKeys)
  const held = src.keys.map((k, i) => ({ ...k, expr: `c.o${i}` }));
  const onKeys = late?.onKeys === undefined ? null : [...late.onKeys(held.map((k) => k.expr))];
  const where = [...src.where];
  if (parent !== null) where.push(`EXISTS (${parentSelect(parent, p)})`);
  if (after !== null) (onKeys ?? where).push(keysetAfter(onKeys === null ? src.keys : held, after, p, resolved));
  const conditions = where.length > 0 ? where.join('\n      AND ') : 'true';
  // with lateRows the page is found first (its keys as o0…, typed), then its rows read by id
  const keys = late === undefined ? src.keys : src.keys.map((k, i) => ({ ...k, expr: `page.o${i}` }));
  const columns = [...src.columns, ...keyColumns(keys), ...tagged(src.identity, 'i'), ...tagged(src.names, 'n')];
  // the page's ids and keys (lateRows): ordered as they are computed, or with onKeys each
  // candidate's keys computed once (`OFFSET 0`: not pulled up into the conditions and the order
  // that read them, each its own computation again), then tested and ordered
  const pageIds = (table: LateRows, tested: readonly string[] | null) =>
    tested === null
      ? `SELECT ${table.alias}.id, ${orderKeyOutputs(src.keys)}
      FROM ${src.from}
      WHERE ${conditions}
      ORDER BY ${orderBy(src.keys)}`
      : `SELECT c.*
      FROM (SELECT ${table.alias}.id, ${orderKeyOutputs(src.keys)} FROM ${src.from}
        WHERE ${conditions}
        OFFSET 0) c
      WHERE ${tested.join('\n        AND ')}
      ORDER BY ${orderByOutputs('c', src.keys)}`;
  const from =
    late === undefined
      ? `${src.from}
    WHERE ${conditions}`
      : `(${pageIds(late, onKeys)}
      ${rowLimit(limit + 1)}) page
    JOIN ${late.table} ${late.alias} ON ${late.alias}.id = page.id ${late.joins}`;
  const text = `SELECT ${columns.join(', ')}
    FROM ${from}
    ORDER BY ${orderBy(keys)}
    ${rowLimit(limit + 1)}`;
  return { name: src.name, text, values: p.values, stablePlan: src.stablePlan === true };
}

/** The compact boundary's member, if it is still eligible: its sort keys and names. */
export function boundaryStatement(build: SourceBuilder, ids: readonly string[]): Statement {
  const p = new Params();
  const src = build(p);
  const keyed = src.lateRows?.onKeys?.(src.keys.map((k) => k.expr)) ?? [];
  const where = [...src.where, ...keyed, ...src.identity.map((expr, i) => `${expr} = ${p.add(ids[i])}`)];
  const columns = [...keyColumns(src.keys), ...tagged(src.names, 'n')];
  const text = `SELECT ${columns.join(', ')}
    FROM ${src.from}
    WHERE ${where.join('\n      AND ')}
    LIMIT 1`;
  return { name: `${src.name}.boundary`, text, values: p.values };
}

const pick = (row: ListRow, prefix: string, count: number) => Array.from({ length: count }, (_, i) => row[`${prefix}${i}`]);

/** The identity and names of a listed row (for `encodeBoundary`). */
export function identityOf(row: ListRow, shape: ListShape): BoundaryIdentity {
  return { ids: pick(row, 'i', shape.ids) as string[], names: pick(row, 'n', shape.names) as string[] };
}

/**
 * Reads one page of a list. The addressed parent (if any) must exist and be active, else
 * `ResourceNotFound` (404), whatever the cursor says: checked first when a compact boundary is
 * resolved (one more statement, as a missing parent comes before a stale boundary), otherwise by
 * the page statement, with the parent's own statement only when the page is empty.
 */
export async function readListPage<R extends ListRow>(
  reader: Reader,
  plan: ListPlan<unknown>,
  build: SourceBuilder,
  parent: Parent | null = null,
): Promise<{ rows: R[]; hasMore: boolean }> {
  let after = plan.after;
  const boundary = plan.boundary;
  const compact = boundary?.kind === 'compact';
  if (compact) {
    if (parent !== null) await requireParent(reader, parent);
    const [found] = await reader.rows<ListRow>(boundaryStatement(build, boundary.ids));
    const names = found === undefined ? null : (pick(found, 'n', plan.shape.names) as string[]);
    checkResolved(boundary, names);
    after = pick(found as ListRow, 'k', plan.shape.arity) as CursorKey[];
  }
  const checked = compact ? null : parent; // checked above when compact
  const rows = await reader.rows<R>(listPageStatement(build, after, plan.limit, checked, compact));
  if (rows.length === 0 && checked !== null) await requireParent(reader, checked);
  return splitPage(rows, plan.limit);
}

// A publicId tie-breaker only ever holds a publicId (a cursor key of any other text is malformed).
const kindOf = (expr: string) => (expr.endsWith('.public_id') ? { kind: 'publicId' as const } : {});
const asc = (expr: string, cast = 'text'): SortKey => ({ expr, direction: 'asc', cast, ...kindOf(expr) });
const desc = (expr: string, cast = 'text'): SortKey => ({ expr, direction: 'desc', cast, ...kindOf(expr) });

/** `name`, `-name` (bytewise: names are COLLATE "C") and `updatedAt`; publicId breaks ties. */
export function namedKeys(alias: string, sort: 'name' | '-name' | 'updatedAt'): SortKey[] {
  switch (sort) {
    case 'name':
      return [asc(`${alias}.name`), asc(`${alias}.public_id`)];
    case '-name':
      return [desc(`${alias}.name`), asc(`${alias}.public_id`)];
    case 'updatedAt':
      return [asc(`${alias}.updated_at`, 'timestamptz'), asc(`${alias}.public_id`)];
  }
}

/** Edition lists: `startLocalDate` (default), `-startLocalDate`, `name`, `updatedAt`; publicId breaks ties. */
export function editionKeys(alias: string, sort: 'startLocalDate' | '-startLocalDate' | 'name' | 'updatedAt'): SortKey[] {
  switch (sort) {
    case 'startLocalDate':
      return [asc(`${alias}.start_local_date`, 'date'), asc(`${alias}.public_id`)];
    case '-startLocalDate':
      return [desc(`${alias}.start_local_date`, 'date'), asc(`${alias}.public_id`)];
    case 'name':
    case 'updatedAt':
      return namedKeys(alias, sort);
  }
}
