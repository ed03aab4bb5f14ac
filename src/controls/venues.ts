/**
 * GET /v1/venues controls (spec: GET /v1/venues): the shared collection controls plus the
 * Venue filters `locality` (trimmed, case-insensitive equality), `countryCode` (exact) and
 * `statusCode`, each checked by its schema (parameter-schemas.ts), and the extension (decisions
 * §8) `near`/`radiusKm` with `sort=distance`, which needs `near`. Pure.
 */
import { VENUE_DEFAULT_FIELDS, VENUE_FIELDS, registry, type VenueField, type VenueSort, type VenueStatus } from '../plan/resource-fields.js';
import { readNear, type Near } from './near.js';
import { putPair } from './paging.js';
import { COUNTRY_CODE, LITERAL_NAME_CONTAINS, LOCALITY, NEAR, RADIUS_KM, VENUE_SORT, VENUE_STATUS } from './parameter-schemas.js';
import type { RawQuery } from './query-string.js';
import { listSpec, parseListControls, readTerm, type ListControls, type ListSpec } from './resource.js';

export const VENUE_LIST: ListSpec<VenueField, VenueSort> = listSpec({
  registry: registry(VENUE_FIELDS, VENUE_DEFAULT_FIELDS),
  sort: VENUE_SORT,
  defaultSort: 'name',
  fieldsNote: 'Replaces the default selection (publicId, slug, name, statusCode, location, profileMedia)',
  filters: [LITERAL_NAME_CONTAINS, LOCALITY, COUNTRY_CODE, VENUE_STATUS, NEAR, RADIUS_KM],
  updatedSince: true,
});

export interface VenueFilters {
  /** Trimmed; compared case-insensitively with the trimmed stored locality. */
  readonly locality: string | null;
  readonly countryCode: string | null;
  readonly statusCode: VenueStatus | null;
  /** Extension: within a radius of a point (published coordinates only); items carry distanceKm. */
  readonly near: Near | null;
}

export type VenueControls = ListControls<VenueField, VenueSort> & { readonly filters: VenueFilters };

export function parseVenueControls(raw: RawQuery): VenueControls {
  return parseListControls(raw, VENUE_LIST, (r, pairs): VenueFilters => {
    const locality = readTerm(r, LOCALITY);
    const countryCode = r.value(COUNTRY_CODE) ?? null;
    const statusCode = r.value(VENUE_STATUS) ?? null;
    putPair(pairs, 'locality', locality);
    putPair(pairs, 'countryCode', countryCode);
    putPair(pairs, 'statusCode', statusCode);
    const near = readNear(r, pairs);
    if (r.peek('sort')?.[0] === 'distance' && !r.has(NEAR.name)) r.fail('sort', 'distance requires near');
    return { locality, countryCode, statusCode, near };
  });
}
