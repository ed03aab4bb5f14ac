/**
 * Controls shared by the resource reads other than the Events collection (decisions §2, §3):
 * collection controls (`fields`, `limit`, `cursor`, `sort`, `updatedSince`, literal
 * `nameContains`), the member-list controls of relationship/reverse/lineup routes, detail
 * `fields`, and path ids. Resource parsers compose these; they stay pure (no I/O).
 */
import type { TString } from '@sinclair/typebox';
import { ResourceNotFound } from './errors.js';
import { normalizeSelection } from '../plan/selection.js';
import type { FieldRegistry, MemberSort } from '../plan/resource-fields.js';
import { trimmedTerm } from './formats.js';
import type { QueryPairs } from './normalized-query.js';
import { putPair, readCursor, readLimit, readUpdatedSince } from './paging.js';
import { ParameterReader, schemaAccepts } from './parameter-reader.js';
import {
  CURSOR,
  DEFAULT_LIMIT,
  LIMIT,
  LITERAL_NAME_CONTAINS,
  MAX_TERM_LENGTH,
  MEMBER_SORT,
  PUBLIC_ID_SCHEMA,
  UPDATED_SINCE,
  csvParameter,
  type CsvParameterSpec,
  type EnumSchema,
  type ParameterSpec,
} from './parameter-schemas.js';
import type { RawQuery } from './query-string.js';

/** A path id its schema (a publicId) refuses is a 404, without any read (decisions §2). */
export function pathIds<K extends string>(params: unknown, names: readonly K[]): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const name of names) {
    const value = (params as Record<string, unknown> | undefined)?.[name];
    if (typeof value !== 'string' || !schemaAccepts(PUBLIC_ID_SCHEMA, value)) throw new ResourceNotFound();
    out[name] = value;
  }
  return out;
}

/** The selection in registry order (publicId always, when the item has one). */
export function readFields<F extends string>(r: ParameterReader, spec: CsvParameterSpec<F>, reg: FieldRegistry<F>): { fields: F[]; given: boolean } {
  const list = r.csv(spec);
  const chosen = list ?? reg.defaults;
  const fields = normalizeSelection(reg.all, chosen, reg.always);
  return { fields, given: list !== undefined };
}

function putFields<F extends string>(pairs: [string, string][], reg: FieldRegistry<F>, fields: readonly F[]): void {
  const defaults = normalizeSelection(reg.all, reg.defaults, reg.always);
  if (fields.join(',') !== defaults.join(',')) pairs.push(['fields', fields.join(',')]);
}

/**
 * A filter term its schema accepts (not blank). Its 1-200 characters are counted after
 * trimming, by hand: the schema cannot measure the trimmed text.
 */
export function readTerm(r: ParameterReader, spec: ParameterSpec<TString>): string | null {
  const v = r.value(spec);
  if (v === undefined) return null;
  return trimmedTerm(v, MAX_TERM_LENGTH) ?? r.fail(spec.name, spec.invalid) ?? null;
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
  readonly sort: ParameterSpec<EnumSchema<S>>;
  readonly defaultSort: S;
  readonly fields: CsvParameterSpec<F>;
  /**
   * The route's query parameters in documentation order: exactly what it accepts, and what
   * openapi.json shows. `updatedSince` and the literal `nameContains` are read when listed.
   */
  readonly parameters: readonly ParameterSpec[];
  /** Member routes recognize `include` only to refuse it with their own message (decisions §2). */
  readonly refusesInclude: boolean;
}

export interface ListOptions<F extends string, S extends string> {
  readonly registry: FieldRegistry<F>;
  readonly sort: ParameterSpec<EnumSchema<S>>;
  readonly defaultSort: S;
  /** The description of `fields` (its default selection). */
  readonly fieldsNote: string;
  /** Filters, documented after `cursor`; the resource reads all but `nameContains` itself. */
  readonly filters?: readonly ParameterSpec[];
  /** Accept `updatedSince` (needs an `updatedAt` sort and field). */
  readonly updatedSince?: boolean;
  readonly refusesInclude?: boolean;
}

export function listSpec<F extends string, S extends string>(o: ListOptions<F, S>): ListSpec<F, S> {
  const fields = csvParameter('fields', o.registry.all, o.fieldsNote);
  const parameters = [LIMIT, CURSOR, ...(o.filters ?? []), o.sort, ...(o.updatedSince ? [UPDATED_SINCE] : []), fields];
  return { registry: o.registry, sort: o.sort, defaultSort: o.defaultSort, fields, parameters, refusesInclude: o.refusesInclude ?? false };
}

/**
 * Relationship, reverse and lineup routes: `fields`, `limit`, `cursor`, `sort` (only `name`);
 * `include` is refused with its own message (decisions §2).
 */
export const memberSpec = <F extends string>(registry: FieldRegistry<F>, fieldsNote: string): ListSpec<F, MemberSort> =>
  listSpec({ registry, sort: MEMBER_SORT, defaultSort: 'name', fieldsNote, refusesInclude: true });

/**
 * Reads a collection's common controls. `extra` reads the resource's own filters (their pairs
 * go to the normalized query) before the single 400 covering every problem.
 */
export function parseListControls<F extends string, S extends string, X>(
  raw: RawQuery,
  spec: ListSpec<F, S>,
  extra: (r: ParameterReader, pairs: [string, string][]) => X = () => undefined as X,
): ListControls<F, S> & { readonly filters: X } {
  const r = new ParameterReader(raw, spec.parameters, spec.refusesInclude ? ['include'] : []);
  const limit = readLimit(r);
  const cursor = readCursor(r);
  const sortText = r.value(spec.sort);
  const sort = sortText ?? spec.defaultSort;
  const { fields } = readFields(r, spec.fields, spec.registry);
  const updatedSince = spec.parameters.includes(UPDATED_SINCE) ? readUpdatedSince(r, sortText, fields) : null;
  const nameContains = spec.parameters.includes(LITERAL_NAME_CONTAINS) ? readTerm(r, LITERAL_NAME_CONTAINS) : null;
  if (spec.refusesInclude && r.has('include')) r.fail('include', 'not supported on this route (items are already the rich projection)');
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

export function parseMemberControls<F extends string>(raw: RawQuery, spec: ListSpec<F, MemberSort>): ListControls<F, MemberSort> {
  return parseListControls(raw, spec);
}

/** Detail routes accept only `fields`; absent, every field is selected (decisions §5). */
export interface DetailSpec<F extends string> {
  readonly registry: FieldRegistry<F>;
  readonly fields: CsvParameterSpec<F>;
  readonly parameters: readonly ParameterSpec[];
}

export function detailSpec<F extends string>(registry: FieldRegistry<F>): DetailSpec<F> {
  const fields = csvParameter('fields', registry.all, 'Replaces the detail selection (default: every field)');
  return { registry, fields, parameters: [fields] };
}

export function parseDetailFields<F extends string>(raw: RawQuery, spec: DetailSpec<F>): F[] {
  const r = new ParameterReader(raw, spec.parameters);
  const { fields } = readFields(r, spec.fields, spec.registry);
  r.finish();
  return fields;
}
