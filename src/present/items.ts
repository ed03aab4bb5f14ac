/**
 * Allow-list projections of the items every resource shares: profile media, Artist and Venue
 * items (spec: Resources › Profile media, Artist item, Venue item). Only the keys written here
 * can ever reach a response.
 */
import type { ArtistItemRow, MediaColumns, VenueItemRow } from '../queries/items.js';
import { fail, httpUrl, nonEmptyOrNull, nonNegativeIntOrNull, nullableText, oneOf, positiveIntOrNull, text, urlCollection } from './checks.js';

export interface ProfileMedia {
  publicId: string;
  src: string;
  thumbnailSrc: string | null;
  altText: string | null;
  width: number | null;
  height: number | null;
}

export function profileMedia(row: MediaColumns): ProfileMedia | null {
  if (row.pm_public_id === null || row.pm_public_id === undefined) return null;
  return {
    publicId: text(row.pm_public_id, 'profileMedia.publicId'),
    src: httpUrl(row.pm_src, 'profileMedia.src'),
    thumbnailSrc: row.pm_thumbnail_src === null ? null : httpUrl(row.pm_thumbnail_src, 'profileMedia.thumbnailSrc'),
    altText: nullableText(row.pm_alt_text, 'profileMedia.altText'),
    width: positiveIntOrNull(row.pm_width, 'profileMedia.width'),
    height: positiveIntOrNull(row.pm_height, 'profileMedia.height'),
  };
}

export function artistItem(row: ArtistItemRow, rich: boolean): Record<string, unknown> {
  const item: Record<string, unknown> = {
    publicId: text(row.public_id, 'artist.publicId'),
    slug: text(row.slug, 'artist.slug'),
    name: text(row.name, 'artist.name'),
    profileMedia: profileMedia(row),
  };
  if (rich) item.description = nullableText(row.description, 'artist.description');
  return item;
}

export const VENUE_STATUSES = ['operational', 'on-hiatus', 'permanently-closed'] as const;

function countryCode(value: string | null): string | null {
  if (value === null) return null;
  if (!/^[A-Z]{2}$/.test(value)) fail('venue.location.countryCode must be two uppercase letters');
  return value;
}

/** The three location shapes (decisions §6): tba, formatted, coordinate-only. */
export function venueLocation(row: VenueItemRow): Record<string, unknown> {
  if (!row.has_address && !row.has_coordinates) return { stateCode: 'tba' };
  const place = {
    locality: nonEmptyOrNull(row.locality, 'venue.location.locality'),
    countryName: nonEmptyOrNull(row.country_name, 'venue.location.countryName'),
    countryCode: countryCode(row.country_code),
  };
  if (row.formatted_address !== null) {
    return { stateCode: 'formatted', formattedAddress: text(row.formatted_address, 'venue.location.formattedAddress'), ...place };
  }
  return { stateCode: 'coordinate-only', ...place };
}

function coordinate(value: number | null | undefined, limit: number, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > limit) fail(what);
  return value;
}

export function venueItem(row: VenueItemRow, rich: boolean): Record<string, unknown> {
  const item: Record<string, unknown> = {
    publicId: text(row.public_id, 'venue.publicId'),
    slug: text(row.slug, 'venue.slug'),
    name: text(row.name, 'venue.name'),
    statusCode: oneOf(row.status_code, VENUE_STATUSES, 'venue.statusCode'),
    location: venueLocation(row),
    profileMedia: profileMedia(row),
  };
  if (rich) {
    const phone = row.contact_phone ?? null;
    if (phone !== null && (phone.length < 1 || phone.length > 50)) fail('venue.contact.phoneNumber must be 1-50 characters');
    item.description = nullableText(row.description, 'venue.description');
    item.capacity = nonNegativeIntOrNull(row.capacity, 'venue.capacity');
    item.contact = { email: nullableText(row.contact_email, 'venue.contact.email'), phoneNumber: phone };
    item.publishedCoordinates =
      row.publish_coordinates && row.latitude !== null && row.longitude !== null
        ? {
            latitude: coordinate(row.latitude, 90, 'venue.publishedCoordinates.latitude'),
            longitude: coordinate(row.longitude, 180, 'venue.publishedCoordinates.longitude'),
          }
        : null;
    item.links = urlCollection(row.links, 'venue.links');
  }
  return item;
}
