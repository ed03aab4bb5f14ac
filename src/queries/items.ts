/**
 * Column lists and joins for the related-item projections (Artist and Venue items, Series and
 * Edition references), shared by Event previews and the relationship routes so both read the
 * same allow-listed columns in the same order.
 */
import {
  ARTIST_ITEM_FIELDS,
  ARTIST_RICH_ITEM_FIELDS,
  VENUE_ITEM_FIELDS,
  VENUE_RICH_ITEM_FIELDS,
  type ArtistField,
  type VenueField,
} from '../plan/resource-fields.js';
import { utcText } from './sql.js';

/** A media item's public columns as [output name, expression] (int8 as text: checked by present/). */
export const MEDIA_COLUMN_LIST = (alias: string, prefix = 'pm_'): [string, string][] => [
  [`${prefix}public_id`, `${alias}.public_id`],
  [`${prefix}src`, `${alias}.src`],
  [`${prefix}thumbnail_src`, `${alias}.thumbnail_src`],
  [`${prefix}alt_text`, `${alias}.alt_text`],
  [`${prefix}width`, `${alias}.width::text`],
  [`${prefix}height`, `${alias}.height::text`],
];

/** The profile media's public columns as select-list items (`expr AS name`), one per column. */
const mediaItems = (alias: string, prefix = 'pm_') => MEDIA_COLUMN_LIST(alias, prefix).map(([name, expr]) => `${expr} AS ${name}`);

export const MEDIA_COLUMNS = (alias: string, prefix = 'pm_') => mediaItems(alias, prefix).join(', ');

/**
 * The output name of one select-list item of the lists below: `… AS name`, or `alias.column`.
 * (The stored Event previews write a member's values by position, in its list's order:
 * queries/event-relations.ts.)
 */
export function outputName(item: string): string {
  const name = /(?: AS |^[a-z_]+\.)([a-z_]+)$/.exec(item)?.[1];
  if (name === undefined) throw new Error(`a select-list item without an output name: ${item}`);
  return name;
}

/** A single profile media: only a ready, active item is public. */
export const singleMediaJoin = (owner: string, alias = 'pm') =>
  `LEFT JOIN media ${alias} ON ${alias}.id = ${owner}.profile_media_id AND ${alias}.active AND ${alias}.status = 'ready'`;

/** The single profile media join, only when `profileMedia` is selected. */
export const selectedMediaJoin = (owner: string, fields: readonly string[]) =>
  fields.includes('profileMedia') ? singleMediaJoin(owner) : '';

/**
 * Legacy Artists may hold several: the first active, ready one by (position, media publicId),
 * kept on the Artist by the importer (`public_media_id`, migration 004); checked again here.
 */
export const artistMediaJoin = (artist: string, alias = 'pm') =>
  `LEFT JOIN media ${alias} ON ${alias}.id = ${artist}.public_media_id AND ${alias}.active AND ${alias}.status = 'ready'`;

/** Artist columns of a selection (allow-list per field). */
export function artistColumns(a: string, fields: readonly ArtistField[]): string[] {
  const has = (f: ArtistField) => fields.includes(f);
  return [
    `${a}.public_id`,
    ...(has('slug') ? [`${a}.slug`] : []),
    ...(has('name') ? [`${a}.name`] : []),
    ...(has('description') ? [`${a}.description`] : []),
    ...(has('links') ? [`${a}.links`] : []),
    ...(has('updatedAt') ? [`${utcText(`${a}.updated_at`)} AS updated_at`] : []),
    ...(has('profileMedia') ? mediaItems('pm') : []),
  ];
}

/** Venue columns of a selection (allow-list per field). */
export function venueColumns(v: string, fields: readonly VenueField[]): string[] {
  const has = (f: VenueField) => fields.includes(f);
  return [
    `${v}.public_id`,
    ...(has('slug') ? [`${v}.slug`] : []),
    ...(has('name') ? [`${v}.name`] : []),
    ...(has('statusCode') ? [`${v}.status_code`] : []),
    ...(has('location')
      ? [
          `${v}.has_address`,
          `${v}.formatted_address`,
          `${v}.locality`,
          `${v}.country_name`,
          `${v}.country_code`,
          `(${v}.latitude IS NOT NULL AND ${v}.longitude IS NOT NULL) AS has_coordinates`,
        ]
      : []),
    ...(has('description') ? [`${v}.description`] : []),
    ...(has('capacity') ? [`${v}.capacity::text AS capacity`] : []),
    ...(has('contact') ? [`${v}.contact_email`, `${v}.contact_phone`] : []),
    ...(has('publishedCoordinates')
      ? [
          `${v}.publish_coordinates`,
          `CASE WHEN ${v}.publish_coordinates THEN ${v}.latitude END AS latitude`,
          `CASE WHEN ${v}.publish_coordinates THEN ${v}.longitude END AS longitude`,
        ]
      : []),
    ...(has('links') ? [`${v}.links`] : []),
    ...(has('updatedAt') ? [`${utcText(`${v}.updated_at`)} AS updated_at`] : []),
    ...(has('profileMedia') ? mediaItems('pm') : []),
  ];
}

/** The columns of an Artist item (rich with `include=artists`), one select-list item each. */
export const artistItemColumns = (a: string, rich: boolean) => artistColumns(a, rich ? ARTIST_RICH_ITEM_FIELDS : ARTIST_ITEM_FIELDS);

/** The columns of a Venue item (rich with `include=venues`), one select-list item each. */
export const venueItemColumns = (v: string, rich: boolean) => venueColumns(v, rich ? VENUE_RICH_ITEM_FIELDS : VENUE_ITEM_FIELDS);

export const ARTIST_ITEM_COLUMNS = (a: string, rich: boolean) => artistItemColumns(a, rich).join(', ');

export const VENUE_ITEM_COLUMNS = (v: string, rich: boolean) => venueItemColumns(v, rich).join(', ');

export interface MediaColumns {
  pm_public_id: string | null;
  pm_src: string | null;
  pm_thumbnail_src: string | null;
  pm_alt_text: string | null;
  pm_width: string | null;
  pm_height: string | null;
}

export interface ArtistItemRow extends MediaColumns {
  owner_id?: string;
  public_id: string;
  slug: string;
  name: string;
  description?: string | null;
  links?: unknown;
  updated_at?: string;
}

export interface VenueItemRow extends MediaColumns {
  owner_id?: string;
  public_id: string;
  slug: string;
  name: string;
  status_code: string;
  has_address: boolean;
  formatted_address: string | null;
  locality: string | null;
  country_name: string | null;
  country_code: string | null;
  has_coordinates: boolean;
  description?: string | null;
  capacity?: string | null;
  contact_email?: string | null;
  contact_phone?: string | null;
  publish_coordinates?: boolean;
  latitude?: number | null;
  longitude?: number | null;
  links?: unknown;
  updated_at?: string;
}
