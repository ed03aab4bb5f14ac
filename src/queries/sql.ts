/**
 * Small helpers for writing parameterized SQL by hand: a parameter collector (values never enter
 * the SQL text), keyset predicates for mixed-direction orderings, and LIKE patterns.
 */
import { malformedCursor } from '../controls/cursor.js';
import { isKeyOfKind, type KeyKind } from '../controls/cursor-keys.js';
import { lowerName } from '../text/normalize.js';

const CAST_KINDS: Readonly<Record<string, KeyKind>> = {
  text: 'name',
  date: 'date',
  timestamptz: 'timestampOrMinusInfinity',
  int2: 'rank',
  float8: 'distance',
};

/** The key's own kind, else the kind its cast takes; anything else never reaches the database. */
function fitsKey(key: SortKey, value: unknown): boolean {
  const kind = key.kind ?? CAST_KINDS[key.cast];
  if (kind === undefined) return false;
  return (typeof value === 'string' || typeof value === 'number') && isKeyOfKind(kind, value);
}

export class Params {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder, optionally with a cast (`$3::date`). */
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}

/**
 * Placeholders of `p` written as sub-SELECTs (`(SELECT $3::text)`): PostgreSQL runs each once (an
 * InitPlan) and prices it as an unknown value in every plan, so a statement's custom plans cost
 * what its generic plan costs and the prepared statement keeps the generic one (queries/search-shape.ts;
 * upcoming's bound is written the same way, queries/phase.ts `boundSql`). A value without a cast is text.
 */
export function opaqueValues(p: Params): Params {
  return { values: p.values, add: (value: unknown, cast?: string) => `(SELECT ${p.add(value, cast ?? 'text')})` };
}

/**
 * `LIMIT n` with n written into the SQL text: the one value that is not a parameter. The planner
 * prices a generic plan (prepared statements, Statement.stablePlan) only with a constant row
 * count; with `LIMIT $n` it assumes 10% of the table, so PostgreSQL would re-plan the page
 * statement on every execution (docs/architecture.md#prepared-statements). n never comes from request text: it is an integer the
 * controls validated, checked again here.
 */
export function rowLimit(n: number): string {
  if (!Number.isSafeInteger(n) || n < 1 || n > 101) throw new Error(`row limit ${n} out of range`);
  return `LIMIT ${n}`;
}

export interface SortKey {
  /** SQL expression of the key (on the row being filtered). */
  readonly expr: string;
  readonly direction: 'asc' | 'desc';
  /** The SQL type a cursor value is cast to. */
  readonly cast: string;
  /** What a cursor value of this key must be (default: the cast's kind, e.g. text → name). */
  readonly kind?: KeyKind;
}

/**
 * Rows strictly after `values` in the order `keys` (keyset pagination, no OFFSET). Written in the
 * expanded form so mixed directions work, with a leading range bound on the first key so an index
 * on the ordering starts at the boundary instead of scanning from the top.
 */
export function keysetAfter(keys: readonly SortKey[], values: readonly unknown[], params: Params, resolved = false): string {
  // A (re-sealed) cursor whose values are not of the keys' types is malformed: 400, never a cast
  // error. `resolved`: the values are a compact boundary's member's keys, read from the database
  // as text of the keys' types (queries/list.ts), not a cursor's: its names may be longer than a
  // cursor's text key may be (MAX_TEXT_KEY) — the very reason the boundary is compact.
  if (values.length !== keys.length) throw malformedCursor();
  if (!resolved && !keys.every((k, i) => fitsKey(k, values[i]))) throw malformedCursor();
  return keysetAfterSql(keys, keys.map((k, i) => params.add(values[i], k.cast)));
}

/** The same, after a boundary given as SQL expressions of the keys' types (a NULL boundary: no row). */
export function keysetAfterSql(keys: readonly SortKey[], placeholders: readonly string[]): string {
  const sameDirection = keys.every((k) => k.direction === keys[0]?.direction);
  if (sameDirection) {
    const op = keys[0]?.direction === 'asc' ? '>' : '<';
    return `(${keys.map((k) => k.expr).join(', ')}) ${op} (${placeholders.join(', ')})`;
  }
  const alternatives = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((k, j) => `${k.expr} = ${placeholders[j]}`);
    const op = key.direction === 'asc' ? '>' : '<';
    return [...equal, `${key.expr} ${op} ${placeholders[i]}`].join(' AND ');
  });
  const first = keys[0] as SortKey;
  const bound = `${first.expr} ${first.direction === 'asc' ? '>=' : '<='} ${placeholders[0]}`;
  return `(${bound} AND ((${alternatives.join(') OR (')})))`;
}

export function orderBy(keys: readonly SortKey[]): string {
  return keys.map((k) => `${k.expr} ${k.direction.toUpperCase()}`).join(', ');
}

/** The order keys as output columns o0, o1…, typed (what an outer query orders by: orderByOutputs). */
export function orderKeyOutputs(keys: readonly SortKey[]): string {
  return keys.map((k, i) => `${k.expr} AS o${i}`).join(', ');
}

/** ORDER BY the order keys an inner query output as o0, o1… (orderKeyOutputs) under `alias`. */
export function orderByOutputs(alias: string, keys: readonly SortKey[]): string {
  return keys.map((k, i) => `${alias}.o${i} ${k.direction.toUpperCase()}`).join(', ');
}

/**
 * A containment pattern where `%` and `_` in the term stay wildcards and every other character,
 * `\` too, matches itself, for LIKE's default escape (`\`, so each `\` is written twice): what
 * `LIKE '%term%' ESCAPE ''` matches. Not written with ESCAPE '': PostgreSQL turns that into
 * `like_escape(pattern, '')`, which a prepared statement's parameter leaves to be computed again
 * for every row a walk filters.
 */
export function wildcardContains(term: string): string {
  return `%${term.replace(/\\/g, '\\\\')}%`;
}

/** A literal containment pattern: `%`, `_` and `\` match themselves (LIKE's default escape, `\`). */
export function literalContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Text of a sort key for a cursor, written without the session's TimeZone or DateStyle (a
 * transaction pooler drops the startup options that set them; decisions §7). A timestamptz key
 * reads exactly as PostgreSQL writes it with TimeZone=UTC, DateStyle=ISO (`2026-05-01
 * 18:30:00.25+00`, trailing fractional zeros dropped, `-infinity` as such), so cursors are
 * identical across processes, servers and versions.
 */
export function keyText(expr: string, cast: string): string {
  if (cast === 'timestamptz') {
    const utc = `to_char((${expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')`;
    return `CASE WHEN isfinite(${expr}) THEN rtrim(rtrim(${utc}, '0'), '.') || '+00' ELSE (${expr})::text END`;
  }
  if (cast === 'date') return dateText(expr);
  return `(${expr})::text`;
}

/** ISO text of a date column (`YYYY-MM-DD`) whatever the session's DateStyle. */
export const dateText = (expr: string) => `to_char(${expr}, 'YYYY-MM-DD')`;

/** Microsecond UTC text of a timestamptz column: the public `updatedAt` form. */
export const utcText = (expr: string) => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Literal, case-insensitive name containment on `<alias>.name_lower` (`%`, `_`, `\\`, `!` match themselves). */
export const literalNameMatch = (alias: string, term: string, params: Params) =>
  `${alias}.name_lower LIKE ${params.add(literalContains(lowerName(term)))}`;

/**
 * Adds `updatedSince` (when given) on a list's `alias.updated_at` to `where`. `feedOrder`: the
 * list is in the updatedAt order and has no filter but those already in `where`. When `where` then
 * holds only the activity condition, this is the updatedAt feed alone: a range of the sort index's
 * leading column, the same best plan (a range walk) for every value, so the bound is written as a
 * sub-SELECT, which PostgreSQL prices as unknown in the generic and the custom plan alike, and the
 * prepared statement keeps its generic plan (priced from the value, the custom plan looks cheaper
 * and is made on every execution; docs/architecture.md#prepared-statements). Returns whether it is (a stable plan).
 */
export function addUpdatedSince(where: string[], alias: string, since: string | null, feedOrder: boolean, params: Params): boolean {
  if (since === null) return false;
  const alone = feedOrder && where.length === 1;
  const bound = params.add(since, 'timestamptz');
  where.push(`${alias}.updated_at >= ${alone ? `(SELECT ${bound})` : bound}`);
  return alone;
}
