/**
 * Allow-list projections of the items every resource shares: profile media, Artist and Venue
 * items (spec: Resources › Profile media, Artist item, Venue item). Only the keys written here
 * can ever reach a response. Output types come from the contract's schemas (src/contract/), so a
 * projection that drifts from the contract does not compile.
 */
import type { Static } from '@sinclair/typebox';
import type { Selected } from '../contract/common.js';
import type { ProfileMedia as ProfileMediaSchema } from '../contract/common.js';
import type { Location, venueRichProps } from '../contract/event.js';
import type { Artist, Venue } from '../contract/resources.js';
import type { ArtistItemRow, MediaColumns, VenueItemRow } from '../queries/items.js';
import {
  ARTIST_ITEM_FIELDS,
  ARTIST_RICH_ITEM_FIELDS,
  VENUE_ITEM_FIELDS,
  VENUE_RICH_ITEM_FIELDS,
  VENUE_STATUSES,
  type ArtistField,
  type VenueField,
} from '../plan/resource-fields.js';
import { fail, httpUrl, nonEmptyOrNull, nonNegativeIntOrNull, nullableText, oneOf, positiveIntOrNull, text, urlCollection } from './checks.js';

export type ProfileMedia = Static<typeof ProfileMediaSchema>;
export type ArtistOut = Selected<typeof Artist>;
export type VenueOut = Selected<typeof Venue>;

export function profileMedia(row: MediaColumns): ProfileMedia {
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

/** An Artist with the selected fields (collections, detail, relationship and lineup routes). */
export function presentArtist(row: ArtistItemRow, fields: readonly ArtistField[]): ArtistOut {
  const out: ArtistOut = {};
  for (const field of fields) {
    switch (field) {
      case 'publicId':
        out.publicId = text(row.public_id, 'artist.publicId');
        break;
      case 'slug':
        out.slug = text(row.slug, 'artist.slug');
        break;
      case 'name':
        out.name = text(row.name, 'artist.name');
        break;
      case 'profileMedia':
        out.profileMedia = profileMedia(row);
        break;
      case 'description':
        out.description = nullableText(row.description, 'artist.description');
        break;
      case 'links':
        out.links = urlCollection(row.links, 'artist.links');
        break;
      case 'updatedAt':
        out.updatedAt = text(row.updated_at, 'artist.updatedAt');
        break;
    }
  }
  return out;
}

/** The Artist item of Event previews (rich with `include=artists`). */
export function artistItem(row: ArtistItemRow, rich: boolean): ArtistOut {
  return presentArtist(row, rich ? ARTIST_RICH_ITEM_FIELDS : ARTIST_ITEM_FIELDS);
}

function countryCode(value: string | null): string | null {
  if (value === null) return null;
  if (!/^[A-Z]{2}$/.test(value)) fail('venue.location.countryCode must be two uppercase letters');
  return value;
}

/** The three location shapes (decisions §6): tba, formatted, coordinate-only. */
export function venueLocation(row: VenueItemRow): Static<typeof Location> {
  if (!row.has_address && !row.has_coordinates) return { stateCode: 'tba' };
  // (literals, not `{ …, ...place }`: a spread costs a Venue item ≈ 0.2 µs, plan/collection.ts `withBase`)
  const locality = nonEmptyOrNull(row.locality, 'venue.location.locality');
  const countryName = nonEmptyOrNull(row.country_name, 'venue.location.countryName');
  const code = countryCode(row.country_code);
  if (row.formatted_address !== null) {
    const formattedAddress = text(row.formatted_address, 'venue.location.formattedAddress');
    return { stateCode: 'formatted', formattedAddress, locality, countryName, countryCode: code };
  }
  return { stateCode: 'coordinate-only', locality, countryName, countryCode: code };
}

function coordinate(value: number | null | undefined, limit: number, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > limit) fail(what);
  return value;
}

function contact(row: VenueItemRow): Static<typeof venueRichProps.contact> {
  const phone = row.contact_phone ?? null;
  if (phone !== null && (phone.length < 1 || phone.length > 50)) fail('venue.contact.phoneNumber must be 1-50 characters');
  return { email: nullableText(row.contact_email, 'venue.contact.email'), phoneNumber: phone };
}

export function publishedCoordinates(row: VenueItemRow): Static<typeof venueRichProps.publishedCoordinates> {
  return row.publish_coordinates && row.latitude != null && row.longitude != null
    ? {
        latitude: coordinate(row.latitude, 90, 'venue.publishedCoordinates.latitude'),
        longitude: coordinate(row.longitude, 180, 'venue.publishedCoordinates.longitude'),
      }
    : null;
}

/** A Venue with the selected fields (collection, detail, relationship routes). */
export function presentVenue(row: VenueItemRow, fields: readonly VenueField[]): VenueOut {
  const out: VenueOut = {};
  for (const field of fields) {
    switch (field) {
      case 'publicId':
        out.publicId = text(row.public_id, 'venue.publicId');
        break;
      case 'slug':
        out.slug = text(row.slug, 'venue.slug');
        break;
      case 'name':
        out.name = text(row.name, 'venue.name');
        break;
      case 'statusCode':
        out.statusCode = oneOf(row.status_code, VENUE_STATUSES, 'venue.statusCode');
        break;
      case 'location':
        out.location = venueLocation(row);
        break;
      case 'profileMedia':
        out.profileMedia = profileMedia(row);
        break;
      case 'description':
        out.description = nullableText(row.description, 'venue.description');
        break;
      case 'capacity':
        out.capacity = nonNegativeIntOrNull(row.capacity, 'venue.capacity');
        break;
      case 'contact':
        out.contact = contact(row);
        break;
      case 'publishedCoordinates':
        out.publishedCoordinates = publishedCoordinates(row);
        break;
      case 'links':
        out.links = urlCollection(row.links, 'venue.links');
        break;
      case 'updatedAt':
        out.updatedAt = text(row.updated_at, 'venue.updatedAt');
        break;
    }
  }
  return out;
}

/** The Venue item of Event previews (rich with `include=venues`). */
export function venueItem(row: VenueItemRow, rich: boolean): VenueOut {
  return presentVenue(row, rich ? VENUE_RICH_ITEM_FIELDS : VENUE_ITEM_FIELDS);
}
