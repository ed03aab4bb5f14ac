/**
 * The list specs and field registries of Artists, Series and Editions (decisions §3), of the
 * member routes (decisions §2, §5: rich item projection, `updatedAt` only when selected) and of
 * the detail routes (every field). Pure data for the parsers in controls/resource.ts.
 */
import {
  ARTIST_DEFAULT_FIELDS,
  ARTIST_FIELDS,
  ARTIST_RICH_ITEM_FIELDS,
  EDITION_DEFAULT_FIELDS,
  EDITION_FIELDS,
  EDITION_PROGRAM_FIELDS,
  EDITION_SORTS,
  NAMED_SORTS,
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
import type { ListSpec } from './resource.js';

export const ARTIST_LIST: ListSpec<ArtistField, NamedSort> = {
  registry: registry(ARTIST_FIELDS, ARTIST_DEFAULT_FIELDS),
  sorts: NAMED_SORTS,
  defaultSort: 'name',
  updatedSince: true,
  nameContains: true,
};

export const SERIES_LIST: ListSpec<SeriesField, NamedSort> = {
  registry: registry(SERIES_FIELDS, SERIES_DEFAULT_FIELDS),
  sorts: NAMED_SORTS,
  defaultSort: 'name',
  updatedSince: true,
  nameContains: true,
};

/**
 * Route 14. Decisions §3 lists the Edition sorts startLocalDate, -startLocalDate and name, and
 * also says every collection accepts `updatedSince` with `sort=updatedAt`: so `updatedAt`
 * (ascending, then publicId) is a fourth sort here.
 */
export const EDITION_LIST: ListSpec<EditionField, EditionSort> = {
  registry: registry(EDITION_FIELDS, EDITION_DEFAULT_FIELDS),
  sorts: EDITION_SORTS,
  defaultSort: 'startLocalDate',
  updatedSince: true,
  nameContains: false,
};

/** Member routes: rich items by default; every field of the resource selectable. */
export const ARTIST_MEMBERS = registry(ARTIST_FIELDS, ARTIST_RICH_ITEM_FIELDS);
export const VENUE_MEMBERS = registry(VENUE_FIELDS, VENUE_RICH_ITEM_FIELDS);
export const SERIES_MEMBERSHIPS = registry(SERIES_MEMBERSHIP_FIELDS, SERIES_MEMBERSHIP_FIELDS);
/** Edition programs have no top-level identity: `fields` picks `series` and/or `edition`. */
export const EDITION_PROGRAMS = registry(EDITION_PROGRAM_FIELDS, EDITION_PROGRAM_FIELDS, null);

export const ARTIST_DETAIL = detailRegistry(ARTIST_FIELDS);
export const VENUE_DETAIL = detailRegistry(VENUE_FIELDS);
export const SERIES_DETAIL = detailRegistry(SERIES_FIELDS);
export const EDITION_DETAIL = detailRegistry(EDITION_FIELDS);
