/**
 * Column lists and joins for the related-item projections (Artist and Venue items, Series and
 * Edition references), shared by Event previews and the relationship routes so both read the
 * same allow-listed columns in the same order.
 */

export const MEDIA_COLUMNS = (alias: string, prefix = 'pm_') =>
  [
    `${alias}.public_id AS ${prefix}public_id`,
    `${alias}.src AS ${prefix}src`,
    `${alias}.thumbnail_src AS ${prefix}thumbnail_src`,
    `${alias}.alt_text AS ${prefix}alt_text`,
    `${alias}.width::text AS ${prefix}width`,
    `${alias}.height::text AS ${prefix}height`,
  ].join(', ');

/** A single profile media: only a ready, active item is public. */
export const singleMediaJoin = (owner: string, alias = 'pm') =>
  `LEFT JOIN media ${alias} ON ${alias}.id = ${owner}.profile_media_id AND ${alias}.active AND ${alias}.status = 'ready'`;

/** Legacy Artists may hold several: the first ready one by (position, media publicId). */
export const artistMediaJoin = (artist: string, alias = 'pm') =>
  `LEFT JOIN LATERAL (
     SELECT m.public_id, m.src, m.thumbnail_src, m.alt_text, m.width, m.height
       FROM artist_profile_media apm JOIN media m ON m.id = apm.media_id
      WHERE apm.artist_id = ${artist}.id AND m.active AND m.status = 'ready'
      ORDER BY apm.position, m.public_id
      LIMIT 1) ${alias} ON true`;

export const ARTIST_ITEM_COLUMNS = (a: string, rich: boolean) =>
  [`${a}.public_id`, `${a}.slug`, `${a}.name`, ...(rich ? [`${a}.description`] : []), MEDIA_COLUMNS('pm')].join(', ');

export const VENUE_ITEM_COLUMNS = (v: string, rich: boolean) =>
  [
    `${v}.public_id`,
    `${v}.slug`,
    `${v}.name`,
    `${v}.status_code`,
    `${v}.has_address`,
    `${v}.formatted_address`,
    `${v}.locality`,
    `${v}.country_name`,
    `${v}.country_code`,
    `(${v}.latitude IS NOT NULL AND ${v}.longitude IS NOT NULL) AS has_coordinates`,
    ...(rich
      ? [
          `${v}.description`,
          `${v}.capacity::text AS capacity`,
          `${v}.contact_email`,
          `${v}.contact_phone`,
          `${v}.publish_coordinates`,
          `CASE WHEN ${v}.publish_coordinates THEN ${v}.latitude END AS latitude`,
          `CASE WHEN ${v}.publish_coordinates THEN ${v}.longitude END AS longitude`,
          `${v}.links`,
        ]
      : []),
    MEDIA_COLUMNS('pm'),
  ].join(', ');

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
}
