/**
 * GET /v1/events: query string → validated, normalized controls (spec: GET /v1/events, its
 * parameter table and rules 1, 3, 5, 10). Pure: no I/O. Every problem is collected so one 400
 * names each offending parameter.
 */
import {
  ADMINISTRATIVE_STATES,
  EVENT_DEFAULT_FIELDS,
  EVENT_FIELDS,
  EVENT_INCLUDES,
  EVENT_SORTS,
  TEMPORAL_PHASES,
  normalizeSelection,
  type AdministrativeState,
  type EventField,
  type EventInclude,
  type EventSort,
  type TemporalPhase,
} from '../plan/event-fields.js';
import { isDate, isPublicId, trimmedTerm } from './formats.js';
import { DEFAULT_LIMIT, putPair, readCursor, readInstant, readLimit, readUpdatedSince } from './paging.js';
import { ParameterReader, type RawQuery } from './query-string.js';
import type { QueryPairs } from './normalized-query.js';

export const EVENT_PARAMETERS = [
  'limit',
  'cursor',
  'nameContains',
  'cityContains',
  'countryContains',
  'temporalPhaseCode',
  'administrativeStateCode',
  'startInstantGte',
  'startInstantLt',
  'startLocalDateGte',
  'startLocalDateLt',
  'updatedSince',
  'sort',
  'fields',
  'include',
  'artistId',
  'venueId',
  'seriesId',
  'editionId',
] as const;


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
  /** Effective controls without the cursor, defaults omitted (next link and fingerprint). */
  readonly normalized: QueryPairs;
}

const DATE_MESSAGE = 'must be a calendar date YYYY-MM-DD (years 0001-9999)';
const TERM_MESSAGE = 'must be 1-200 characters after trimming surrounding whitespace';
const PUBLIC_ID_MESSAGE = 'must be a publicId: 12 characters from 0-9A-Za-z';

export function parseEventControls(raw: RawQuery): EventControls {
  const r = new ParameterReader(raw, EVENT_PARAMETERS);

  const limit = readLimit(r);
  const cursor = readCursor(r);

  const term = (name: string) => {
    const v = r.scalar(name);
    if (v === undefined) return null;
    return trimmedTerm(v) ?? r.fail(name, TERM_MESSAGE) ?? null;
  };
  const nameContains = term('nameContains');
  const cityContains = term('cityContains');
  const countryContains = term('countryContains');

  const temporalPhaseCode = r.oneOf('temporalPhaseCode', TEMPORAL_PHASES) ?? null;
  const administrativeStateCode = r.oneOf('administrativeStateCode', ADMINISTRATIVE_STATES) ?? null;

  const startInstantGte = readInstant(r, 'startInstantGte');
  const startInstantLt = readInstant(r, 'startInstantLt');

  const startLocalDateGte = r.matching('startLocalDateGte', isDate, DATE_MESSAGE) ?? null;
  const startLocalDateLt = r.matching('startLocalDateLt', isDate, DATE_MESSAGE) ?? null;
  if (startLocalDateGte && startLocalDateLt && !(startLocalDateGte < startLocalDateLt)) {
    r.fail('startLocalDateLt', 'the lower bound startLocalDateGte must precede startLocalDateLt');
  }

  const sortText = r.oneOf('sort', EVENT_SORTS);
  const sort: EventSort = sortText ?? 'startLocalDate';

  const fieldsList = r.csv('fields', EVENT_FIELDS);
  const fields = normalizeSelection(EVENT_FIELDS, fieldsList ?? EVENT_DEFAULT_FIELDS, 'publicId');
  const include = r.csv('include', EVENT_INCLUDES) ?? [];
  if (fieldsList !== undefined) {
    for (const rel of include) {
      if (!fields.includes(rel)) r.fail('include', `"${rel}" can only be included when the ${rel} field is selected`);
    }
  }

  const updatedSince = readUpdatedSince(r, sortText, fields);

  const id = (name: string) => r.matching(name, isPublicId, PUBLIC_ID_MESSAGE) ?? null;
  const artistId = id('artistId');
  const venueId = id('venueId');
  const seriesId = id('seriesId');
  const editionId = id('editionId');
  const contexts = (['artistId', 'venueId', 'seriesId'] as const).filter((n) => r.has(n));
  if (contexts.length > 1) r.fail(contexts.join(','), 'at most one of artistId, venueId and seriesId may be used');
  if (r.has('editionId') && !r.has('seriesId')) r.fail('editionId', 'requires seriesId');

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
    normalized,
  };
}
