/**
 * Controls shared by the resource reads other than the Events collection (decisions §2, §3):
 * collection controls (`fields`, `limit`, `cursor`, `sort`, `updatedSince`, literal
 * `nameContains`), the member-list controls of relationship/reverse/lineup routes, detail
 * `fields`, and path ids. Resource parsers compose these; they stay pure (no I/O).
 */
import { notFound } from '../http/errors.js';
import { normalizeSelection } from '../plan/event-fields.js';
import { MEMBER_SORTS, type FieldRegistry, type MemberSort } from '../plan/resource-fields.js';
import { isPublicId, trimmedTerm } from './formats.js';
import type { QueryPairs } from './normalized-query.js';
import { DEFAULT_LIMIT, putPair, readCursor, readLimit, readUpdatedSince } from './paging.js';
import { ParameterReader, type RawQuery } from './query-string.js';

export const TERM_MESSAGE = 'must be 1-200 characters after trimming surrounding whitespace';

/** A path id that is not a well-formed publicId is a 404, without any read (decisions §2). */
export function pathIds<K extends string>(params: unknown, names: readonly K[]): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const name of names) {
    const value = (params as Record<string, unknown> | undefined)?.[name];
    if (typeof value !== 'string' || !isPublicId(value)) throw notFound();
    out[name] = value;
  }
  return out;
}

/** The selection in registry order (publicId always, when the item has one). */
export function readFields<F extends string>(r: ParameterReader, reg: FieldRegistry<F>): { fields: F[]; given: boolean } {
  const list = r.csv('fields', reg.all);
  const chosen = list ?? reg.defaults;
  const fields = reg.always === null ? reg.all.filter((f) => chosen.includes(f)) : normalizeSelection(reg.all, chosen, reg.always);
  return { fields, given: list !== undefined };
}

function putFields<F extends string>(pairs: [string, string][], reg: FieldRegistry<F>, fields: readonly F[]): void {
  const defaults = reg.always === null ? reg.defaults : normalizeSelection(reg.all, reg.defaults, reg.always);
  if (fields.join(',') !== defaults.join(',')) pairs.push(['fields', fields.join(',')]);
}

/** A literal name term (Venues, Artists, Series): trimmed 1-200 characters, not blank. */
export function readTerm(r: ParameterReader, name: string): string | null {
  const v = r.scalar(name);
  if (v === undefined) return null;
  return trimmedTerm(v) ?? r.fail(name, TERM_MESSAGE) ?? null;
}

export interface ListControls<F extends string, S extends string> {
  readonly limit: number;
  readonly cursor: string | null;
  readonly sort: S;
  /** Selected top-level fields in registry order. */
  readonly fields: readonly F[];
  readonly updatedSince: string | null;
  readonly nameContains: string | null;
  /** Effective controls without the cursor, defaults omitted (next link and fingerprint). */
  readonly normalized: QueryPairs;
}

export interface ListSpec<F extends string, S extends string> {
  readonly registry: FieldRegistry<F>;
  readonly sorts: readonly S[];
  readonly defaultSort: S;
  /** Accept `updatedSince` (needs an `updatedAt` sort and field). */
  readonly updatedSince: boolean;
  /** Accept the literal `nameContains`. */
  readonly nameContains: boolean;
  /** Further parameters the resource reads itself (filters). */
  readonly extra?: readonly string[];
}

export function listParameters(spec: ListSpec<string, string>): string[] {
  return [
    'limit',
    'cursor',
    'fields',
    'sort',
    ...(spec.updatedSince ? ['updatedSince'] : []),
    ...(spec.nameContains ? ['nameContains'] : []),
    ...(spec.extra ?? []),
  ];
}

/**
 * Reads a collection's common controls. `extra` reads the resource's own filters (their pairs
 * go to the normalized query) before the single 400 covering every problem.
 */
export function parseListControls<F extends string, S extends string, X>(
  raw: RawQuery,
  spec: ListSpec<F, S>,
  extra: (r: ParameterReader, pairs: [string, string][]) => X = () => undefined as X,
  allowed: readonly string[] = listParameters(spec),
): ListControls<F, S> & { readonly filters: X } {
  const r = new ParameterReader(raw, allowed);
  const limit = readLimit(r);
  const cursor = readCursor(r);
  const sortText = r.oneOf('sort', spec.sorts);
  const sort = sortText ?? spec.defaultSort;
  const { fields } = readFields(r, spec.registry);
  const updatedSince = spec.updatedSince ? readUpdatedSince(r, sortText, fields) : null;
  const nameContains = spec.nameContains ? readTerm(r, 'nameContains') : null;
  if (allowed.includes('include') && r.has('include')) r.fail('include', 'not supported on this route (items are already the rich projection)');
  const pairs: [string, string][] = [];
  const filters = extra(r, pairs);
  r.finish();
  putPair(pairs, 'limit', String(limit), String(DEFAULT_LIMIT));
  putPair(pairs, 'sort', sort, spec.defaultSort);
  putFields(pairs, spec.registry, fields);
  putPair(pairs, 'updatedSince', updatedSince);
  putPair(pairs, 'nameContains', nameContains);
  return { limit, cursor, sort, fields, updatedSince, nameContains, normalized: pairs, filters };
}

/**
 * Relationship, reverse and lineup routes: `fields`, `limit`, `cursor`, `sort` (only `name`);
 * `include` is refused with its own message (decisions §2).
 */
export function parseMemberControls<F extends string>(raw: RawQuery, reg: FieldRegistry<F>): ListControls<F, MemberSort> {
  const spec: ListSpec<F, MemberSort> = { registry: reg, sorts: MEMBER_SORTS, defaultSort: 'name', updatedSince: false, nameContains: false };
  return parseListControls(raw, spec, () => undefined, [...listParameters(spec), 'include']);
}

/** Detail routes accept only `fields`; absent, every field is selected (decisions §5). */
export function parseDetailFields<F extends string>(raw: RawQuery, reg: FieldRegistry<F>): F[] {
  const r = new ParameterReader(raw, ['fields']);
  const { fields } = readFields(r, reg);
  r.finish();
  return fields;
}
