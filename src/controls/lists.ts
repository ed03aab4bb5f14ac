/**
 * The route specs of Artists, Series and Editions (decisions §3), of the member routes
 * (decisions §2, §5: rich item projection, `updatedAt` only when selected) and of the detail
 * routes (every field): field registries, sorts and each route's parameter specs, which the
 * parsers in controls/resource.ts accept and http/openapi.ts documents. Pure data.
 */
import {
  ARTIST_DEFAULT_FIELDS,
  ARTIST_FIELDS,
  ARTIST_RICH_ITEM_FIELDS,
  EDITION_DEFAULT_FIELDS,
  EDITION_FIELDS,
  EDITION_PROGRAM_FIELDS,
  SERIES_DEFAULT_FIELDS,
  SERIES_FIELDS,
  SERIES_MEMBERSHIP_FIELDS,
  VENUE_FIELDS,
  VENUE_RICH_ITEM_FIELDS,
  detailRegistry,
  registry,
  type ArtistField,
  type EditionField,
  type EditionSort,
  type NamedSort,
  type SeriesField,
} from '../plan/resource-fields.js';
import { EDITION_SORT, LITERAL_NAME_CONTAINS, NAMED_SORT } from './parameter-schemas.js';
import { detailSpec, listSpec, memberSpec, type ListSpec } from './resource.js';

export const ARTIST_LIST: ListSpec<ArtistField, NamedSort> = listSpec({
  registry: registry(ARTIST_FIELDS, ARTIST_DEFAULT_FIELDS),
  sort: NAMED_SORT,
  defaultSort: 'name',
  fieldsNote: 'Replaces the default selection (publicId, slug, name, profileMedia)',
  filters: [LITERAL_NAME_CONTAINS],
  updatedSince: true,
});

export const SERIES_LIST: ListSpec<SeriesField, NamedSort> = listSpec({
  registry: registry(SERIES_FIELDS, SERIES_DEFAULT_FIELDS),
  sort: NAMED_SORT,
  defaultSort: 'name',
  fieldsNote: 'Replaces the default selection (publicId, slug, name, structureCode, profileMedia)',
  filters: [LITERAL_NAME_CONTAINS],
  updatedSince: true,
});

/**
 * Route 14. Decisions §3 lists the Edition sorts startLocalDate, -startLocalDate and name, and
 * also says every collection accepts `updatedSince` with `sort=updatedAt`: so `updatedAt`
 * (ascending, then publicId) is a fourth sort here.
 */
export const EDITION_LIST: ListSpec<EditionField, EditionSort> = listSpec({
  registry: registry(EDITION_FIELDS, EDITION_DEFAULT_FIELDS),
  sort: EDITION_SORT,
  defaultSort: 'startLocalDate',
  fieldsNote: 'Replaces the default selection (publicId, slug, name, series, startLocalDate, endLocalDate, profileMedia)',
  updatedSince: true,
});

/** Member routes: rich items by default; every field of the resource selectable. */
export const ARTIST_MEMBERS = memberSpec(
  registry(ARTIST_FIELDS, ARTIST_RICH_ITEM_FIELDS),
  'Replaces the rich item selection (publicId, slug, name, profileMedia, description)',
);
export const VENUE_MEMBERS = memberSpec(registry(VENUE_FIELDS, VENUE_RICH_ITEM_FIELDS), 'Replaces the rich item selection (every Venue field except updatedAt)');
export const SERIES_MEMBERSHIPS = memberSpec(registry(SERIES_MEMBERSHIP_FIELDS, SERIES_MEMBERSHIP_FIELDS), 'Top-level keys of each item (default all)');
/** Edition programs have no top-level identity: `fields` picks `series` and/or `edition`. */
export const EDITION_PROGRAMS = memberSpec(
  registry(EDITION_PROGRAM_FIELDS, EDITION_PROGRAM_FIELDS, null),
  'Top-level keys of each item: series and/or edition (default both)',
);

export const ARTIST_DETAIL = detailSpec(detailRegistry(ARTIST_FIELDS));
export const VENUE_DETAIL = detailSpec(detailRegistry(VENUE_FIELDS));
export const SERIES_DETAIL = detailSpec(detailRegistry(SERIES_FIELDS));
export const EDITION_DETAIL = detailSpec(detailRegistry(EDITION_FIELDS));
