/**
 * Field registries of the resources other than Events (decisions §3, §5): every top-level field
 * in writing order, the default selection of collections, the rich item projection of the
 * relationship and lineup routes, and the sorts. Detail routes select every field.
 */

export const ARTIST_FIELDS = ['publicId', 'slug', 'name', 'profileMedia', 'description', 'links', 'updatedAt'] as const;
export type ArtistField = (typeof ARTIST_FIELDS)[number];
export const ARTIST_DEFAULT_FIELDS: readonly ArtistField[] = ['publicId', 'slug', 'name', 'profileMedia'];
/** The Artist item of Event previews, and with `include=artists` (spec: Artist item). */
export const ARTIST_ITEM_FIELDS: readonly ArtistField[] = ARTIST_DEFAULT_FIELDS;
export const ARTIST_RICH_ITEM_FIELDS: readonly ArtistField[] = [...ARTIST_ITEM_FIELDS, 'description'];

export const VENUE_STATUSES = ['operational', 'on-hiatus', 'permanently-closed'] as const;
export type VenueStatus = (typeof VENUE_STATUSES)[number];

/** A Series' structure (spec: Series). */
export const SERIES_STRUCTURES = ['direct', 'editioned'] as const;

export const VENUE_FIELDS = [
  'publicId',
  'slug',
  'name',
  'statusCode',
  'location',
  'profileMedia',
  'description',
  'capacity',
  'contact',
  'publishedCoordinates',
  'links',
  'updatedAt',
] as const;
export type VenueField = (typeof VENUE_FIELDS)[number];
export const VENUE_DEFAULT_FIELDS: readonly VenueField[] = ['publicId', 'slug', 'name', 'statusCode', 'location', 'profileMedia'];
export const VENUE_ITEM_FIELDS: readonly VenueField[] = VENUE_DEFAULT_FIELDS;
export const VENUE_RICH_ITEM_FIELDS: readonly VenueField[] = [
  ...VENUE_ITEM_FIELDS,
  'description',
  'capacity',
  'contact',
  'publishedCoordinates',
  'links',
];

export const SERIES_FIELDS = ['publicId', 'slug', 'name', 'structureCode', 'profileMedia', 'description', 'links', 'updatedAt'] as const;
export type SeriesField = (typeof SERIES_FIELDS)[number];
export const SERIES_DEFAULT_FIELDS: readonly SeriesField[] = ['publicId', 'slug', 'name', 'structureCode', 'profileMedia'];

export const EDITION_FIELDS = [
  'publicId',
  'slug',
  'name',
  'series',
  'startLocalDate',
  'endLocalDate',
  'profileMedia',
  'description',
  'links',
  'updatedAt',
] as const;
export type EditionField = (typeof EDITION_FIELDS)[number];
export const EDITION_DEFAULT_FIELDS: readonly EditionField[] = [
  'publicId',
  'slug',
  'name',
  'series',
  'startLocalDate',
  'endLocalDate',
  'profileMedia',
];

/** Route 5 items (an Event's direct Series): the Event's `directEventSeries` entries. */
export const SERIES_MEMBERSHIP_FIELDS = ['publicId', 'slug', 'name', 'structureCode'] as const;
export type SeriesMembershipField = (typeof SERIES_MEMBERSHIP_FIELDS)[number];
/** Route 6 items (an Event's Edition programs): the Event's `editionPrograms` entries. */
export const EDITION_PROGRAM_FIELDS = ['series', 'edition'] as const;
export type EditionProgramField = (typeof EDITION_PROGRAM_FIELDS)[number];

/** Artist, Venue and Series collections. */
export const NAMED_SORTS = ['name', '-name', 'updatedAt'] as const;
export type NamedSort = (typeof NAMED_SORTS)[number];
/** Venues add `distance` (extension, decisions §8: only with `near`). */
export const VENUE_SORTS = [...NAMED_SORTS, 'distance'] as const;
export type VenueSort = (typeof VENUE_SORTS)[number];
export const EDITION_SORTS = ['startLocalDate', '-startLocalDate', 'name', 'updatedAt'] as const;
export type EditionSort = (typeof EDITION_SORTS)[number];
/** Relationship, reverse and lineup routes. */
export const MEMBER_SORTS = ['name'] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];

/** A resource's selection rules, as the controls parsers use them. */
export interface FieldRegistry<F extends string> {
  readonly all: readonly F[];
  /** Selection when `fields` is absent. */
  readonly defaults: readonly F[];
  /** Always selected (spec: "publicId always present"), or null when the item has no identity field. */
  readonly always: F | null;
}

export const registry = <F extends string>(all: readonly F[], defaults: readonly F[], always: F | null = 'publicId' as F): FieldRegistry<F> => ({
  all,
  defaults,
  always,
});

/** Detail routes: defaults plus every selectable field (decisions §5). */
export const detailRegistry = <F extends string>(all: readonly F[]): FieldRegistry<F> => registry(all, all);
