/**
 * GET /v1/venues controls (spec: GET /v1/venues): the shared collection controls plus the
 * Venue filters `locality` (trimmed, case-insensitive equality), `countryCode` (exact) and
 * `statusCode`. Pure.
 */
import {
  NAMED_SORTS,
  VENUE_DEFAULT_FIELDS,
  VENUE_FIELDS,
  VENUE_STATUSES,
  registry,
  type NamedSort,
  type VenueField,
  type VenueStatus,
} from '../plan/resource-fields.js';
import { putPair } from './paging.js';
import type { RawQuery } from './query-string.js';
import { parseListControls, readTerm, type ListControls, type ListSpec } from './resource.js';

export const VENUE_LIST: ListSpec<VenueField, NamedSort> = {
  registry: registry(VENUE_FIELDS, VENUE_DEFAULT_FIELDS),
  sorts: NAMED_SORTS,
  defaultSort: 'name',
  updatedSince: true,
  nameContains: true,
  extra: ['locality', 'countryCode', 'statusCode'],
};

export interface VenueFilters {
  /** Trimmed; compared case-insensitively with the trimmed stored locality. */
  readonly locality: string | null;
  readonly countryCode: string | null;
  readonly statusCode: VenueStatus | null;
}

export type VenueControls = ListControls<VenueField, NamedSort> & { readonly filters: VenueFilters };

export function parseVenueControls(raw: RawQuery): VenueControls {
  return parseListControls(raw, VENUE_LIST, (r, pairs): VenueFilters => {
    const locality = readTerm(r, 'locality');
    const countryCode = r.matching('countryCode', (v) => /^[A-Z]{2}$/.test(v), 'must be two uppercase letters') ?? null;
    const statusCode = r.oneOf('statusCode', VENUE_STATUSES) ?? null;
    putPair(pairs, 'locality', locality);
    putPair(pairs, 'countryCode', countryCode);
    putPair(pairs, 'statusCode', statusCode);
    return { locality, countryCode, statusCode };
  });
}
