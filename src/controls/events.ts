/**
 * GET /v1/events: query string → validated, normalized controls (spec: GET /v1/events, its
 * parameter table and rules 1, 3, 5, 10). Pure: no I/O. Every problem is collected so one 400
 * names each offending parameter.
 */
import {
  EVENT_DEFAULT_FIELDS,
  EVENT_FIELDS,
  type AdministrativeState,
  type EventField,
  type EventInclude,
  type EventSort,
  type TemporalPhase,
} from '../plan/event-fields.js';
import { normalizeSelection } from '../plan/selection.js';
import { isDate } from './formats.js';
import type { QueryPairs } from './normalized-query.js';
import { putPair, readCursor, readInstant, readLimit, readUpdatedSince } from './paging.js';
import { ParameterReader } from './parameter-reader.js';
import { DEFAULT_LIMIT, EVENT_PARAMETERS as P, EVENT_QUERY } from './parameter-schemas.js';
import type { RawQuery } from './query-string.js';
import { readNear, type Near } from './near.js';
import { readTerm } from './resource.js';

export type EventContext =
  | { readonly kind: 'artist'; readonly artistId: string }
  | { readonly kind: 'venue'; readonly venueId: string }
  | { readonly kind: 'series'; readonly seriesId: string; readonly editionId: string | null };

export interface EventControls {
  readonly limit: number;
  readonly cursor: string | null;
  readonly nameContains: string | null;
  readonly cityContains: string | null;
  readonly countryContains: string | null;
  readonly temporalPhaseCode: TemporalPhase | null;
  readonly administrativeStateCode: AdministrativeState | null;
  /** Normalized to six fractional digits. */
  readonly startInstantGte: string | null;
  readonly startInstantLt: string | null;
  readonly startLocalDateGte: string | null;
  readonly startLocalDateLt: string | null;
  readonly updatedSince: string | null;
  readonly sort: EventSort;
  /** Selected top-level fields in registry order; always contains publicId. */
  readonly fields: readonly EventField[];
  readonly include: readonly EventInclude[];
  readonly context: EventContext | null;
  /** Extension (decisions §8): at least one active Venue with published coordinates within the radius. */
  readonly near: Near | null;
  /** Effective controls without the cursor, defaults omitted (next link and fingerprint). */
  readonly normalized: QueryPairs;
}

/**
 * Every value is checked by its schema (EVENT_PARAMETERS). By hand, because a schema cannot say
 * it: term lengths after trimming, whether a date exists, and the rules across parameters
 * (date bounds in order, include needs its field, updatedSince's prerequisites, one context,
 * editionId needs seriesId).
 */
export function parseEventControls(raw: RawQuery): EventControls {
  const r = new ParameterReader(raw, EVENT_QUERY);

  const limit = readLimit(r);
  const cursor = readCursor(r);

  const nameContains = readTerm(r, P.nameContains);
  const cityContains = readTerm(r, P.cityContains);
  const countryContains = readTerm(r, P.countryContains);

  const temporalPhaseCode = r.value(P.temporalPhaseCode) ?? null;
  const administrativeStateCode = r.value(P.administrativeStateCode) ?? null;

  const startInstantGte = readInstant(r, P.startInstantGte);
  const startInstantLt = readInstant(r, P.startInstantLt);

  const date = (spec: typeof P.startLocalDateGte) => {
    const v = r.value(spec);
    if (v === undefined) return null;
    return isDate(v) ? v : (r.fail(spec.name, spec.invalid) ?? null);
  };
  const startLocalDateGte = date(P.startLocalDateGte);
  const startLocalDateLt = date(P.startLocalDateLt);
  if (startLocalDateGte && startLocalDateLt && !(startLocalDateGte < startLocalDateLt)) {
    r.fail('startLocalDateLt', 'the lower bound startLocalDateGte must precede startLocalDateLt');
  }

  const sortText = r.value(P.sort);
  const sort: EventSort = sortText ?? 'startLocalDate';

  const fieldsList = r.csv(P.fields);
  const fields = normalizeSelection(EVENT_FIELDS, fieldsList ?? EVENT_DEFAULT_FIELDS, 'publicId');
  const include = r.csv(P.include) ?? [];
  if (fieldsList !== undefined) {
    for (const rel of include) {
      if (!fields.includes(rel)) r.fail('include', `"${rel}" can only be included when the ${rel} field is selected`);
    }
  }

  const updatedSince = readUpdatedSince(r, sortText, fields);

  const artistId = r.value(P.artistId) ?? null;
  const venueId = r.value(P.venueId) ?? null;
  const seriesId = r.value(P.seriesId) ?? null;
  const editionId = r.value(P.editionId) ?? null;
  const contexts = [P.artistId, P.venueId, P.seriesId].map((spec) => spec.name).filter((name) => r.has(name));
  if (contexts.length > 1) r.fail(contexts.join(','), 'at most one of artistId, venueId and seriesId may be used');
  if (r.has(P.editionId.name) && !r.has(P.seriesId.name)) r.fail('editionId', 'requires seriesId');

  const nearPairs: [string, string][] = [];
  const near = readNear(r, nearPairs);

  r.finish();

  const context: EventContext | null = artistId
    ? { kind: 'artist', artistId }
    : venueId
      ? { kind: 'venue', venueId }
      : seriesId
        ? { kind: 'series', seriesId, editionId }
        : null;

  const normalized: [string, string][] = [];
  const put = (name: string, value: string | null, fallback?: string) => putPair(normalized, name, value, fallback);
  put('limit', String(limit), String(DEFAULT_LIMIT));
  put('nameContains', nameContains);
  put('cityContains', cityContains);
  put('countryContains', countryContains);
  put('temporalPhaseCode', temporalPhaseCode);
  put('administrativeStateCode', administrativeStateCode);
  put('startInstantGte', startInstantGte);
  put('startInstantLt', startInstantLt);
  put('startLocalDateGte', startLocalDateGte);
  put('startLocalDateLt', startLocalDateLt);
  put('updatedSince', updatedSince);
  put('sort', sort, 'startLocalDate');
  const defaults = normalizeSelection(EVENT_FIELDS, EVENT_DEFAULT_FIELDS, 'publicId');
  if (fields.join(',') !== defaults.join(',')) put('fields', fields.join(','));
  if (include.length > 0) put('include', include.join(','));
  put('artistId', artistId);
  put('venueId', venueId);
  put('seriesId', seriesId);
  put('editionId', editionId);
  normalized.push(...nearPairs);

  return {
    limit,
    cursor,
    nameContains,
    cityContains,
    countryContains,
    temporalPhaseCode,
    administrativeStateCode,
    startInstantGte,
    startInstantLt,
    startLocalDateGte,
    startLocalDateLt,
    updatedSince,
    sort,
    fields,
    include,
    context,
    near,
    normalized,
  };
}
