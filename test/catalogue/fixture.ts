/**
 * A small catalogue document that uses every key of decisions §6 at least once, with the
 * minimal form of each entity beside the complete one.
 */
import type { CatalogueDocument, EventInput } from '../../src/catalogue/document.js';
import { pid } from './support.js';

export const M = { ready: pid('med', 1), pending: pid('med', 2), failed: pid('med', 3), inactive: pid('med', 4) };
export const A = { bjork: pid('art', 1), minimal: pid('art', 2) };
export const V = { formatted: pid('ven', 1), coordinates: pid('ven', 2), tba: pid('ven', 3) };
export const S = { direct: pid('ser', 1), editioned: pid('ser', 2) };
export const ED = { full: pid('edi', 1), minimal: pid('edi', 2) };
export const E = { full: pid('evt', 1), minimal: pid('evt', 2), cancelled: pid('evt', 3) };

export const fullEvent: EventInput = {
  publicId: E.full,
  slug: 'sigur-ros-harpa',
  name: 'Sigur Rós — Ágætis byrjun',
  description: 'Live at Harpa',
  eventTypeCode: 'concert',
  administrativeStateCode: 'scheduled',
  schedule: {
    referenceTimeZoneId: 'Asia/Kolkata',
    start: { precision: 'date-time', localDate: '2025-07-01', localTime: '20:00', instant: '2025-07-01T20:00:00.123456789+05:30' },
    end: { precision: 'date-time', localDate: '2025-07-01', localTime: '23:30', instant: '2025-07-01T18:00:00Z' },
  },
  profileMediaId: M.ready,
  galleryMediaIds: [M.pending, M.ready, M.pending],
  artistIds: [A.minimal, A.bjork],
  venueIds: [V.tba, V.formatted],
  seriesIds: [S.direct],
  editionIds: [ED.full, ED.minimal],
  links: [{ url: 'https://sigur-ros.example', label: 'Site' }, { url: 'https://x.example' }],
  ticketLinks: [{ url: 'https://tickets.example/1', label: null }],
  digitalLocations: [{ url: 'https://stream.example/1', label: 'Live', kindCode: 'livestream' }],
  authoring: { revision: 7, actors: ['ana'], createdAt: '2024-01-01T00:00:00Z' },
};

export function fullDocument(): CatalogueDocument {
  return {
    // arrays in an unusual order: references are resolved after reading
    events: [
      structuredClone(fullEvent),
      {
        publicId: E.minimal,
        slug: 'm',
        name: 'Minimal',
        administrativeStateCode: 'scheduled',
        schedule: { referenceTimeZoneId: 'Mars/Olympus_Mons', start: { precision: 'date', localDate: '2024-02-29' } },
      },
      {
        publicId: E.cancelled,
        active: false,
        updatedAt: '2020-01-02T03:04:05.123456Z',
        slug: 'c',
        name: 'Cancelled',
        eventTypeCode: null,
        administrativeStateCode: 'cancelled',
        schedule: {
          referenceTimeZoneId: 'Europe/Paris',
          start: { precision: 'date', localDate: '2000-02-29' },
          end: { precision: 'date', localDate: '2000-03-02' },
        },
        profileMediaId: null,
      },
    ],
    media: [
      {
        publicId: M.ready, status: 'ready', src: 'https://img.example/1.jpg', thumbnailSrc: 'https://img.example/1t.jpg',
        altText: 'Portrait', width: 1600, height: 900, originalFilename: 'IMG_1.JPG', uploadName: 'up-1',
        storageKey: 'media/1', blurDataUrl: 'data:image/jpeg;base64,AAAA', authoring: { revision: 1 },
      },
      { publicId: M.pending, status: 'pending' },
      { publicId: M.failed, status: 'failed', src: null },
      { publicId: M.inactive, status: 'ready', active: false, src: 'https://img.example/4.jpg', updatedAt: '2021-05-06T07:08:09Z' },
    ],
    artists: [
      {
        publicId: A.bjork, slug: 'bjork', name: 'Björk', description: 'Icelandic', profileMediaIds: [M.pending, M.ready],
        links: [{ url: 'https://bjork.example', label: 'Official' }], authoring: { revision: 2 },
      },
      { publicId: A.minimal, slug: 'x', name: 'X' },
    ],
    venues: [
      {
        publicId: V.formatted, slug: 'harpa', name: 'Harpa', description: 'Concert hall', statusCode: 'operational',
        capacity: 1800, contact: { email: 'info@harpa.example', phoneNumber: '+354 528 5000' },
        address: { formattedAddress: 'Austurbakki 2, 101 Reykjavík', locality: '  Reykjavík ', countryName: 'Ísland', countryCode: 'IS' },
        coordinates: { latitude: 64.150369, longitude: -21.932661 }, publishCoordinates: true,
        addressProvenance: { source: 'geocoder', confidence: 0.9 }, timeZoneSuggestion: 'Atlantic/Reykjavik',
        profileMediaId: M.ready, links: [{ url: 'https://harpa.example', label: null }], authoring: { revision: 3 },
      },
      {
        publicId: V.coordinates, slug: 'field', name: 'A Field', statusCode: 'on-hiatus', capacity: null, contact: null,
        address: { formattedAddress: null, locality: 'Glastonbury', countryName: null, countryCode: 'GB' },
        coordinates: { latitude: 51.1, longitude: -2.5 },
      },
      { publicId: V.tba, slug: 'tba', name: 'TBA', statusCode: 'permanently-closed' },
    ],
    series: [
      { publicId: S.direct, slug: 'tour', name: 'World Tour', structureCode: 'direct' },
      {
        publicId: S.editioned, slug: 'fest', name: 'Fest', description: 'Yearly', structureCode: 'editioned',
        profileMediaId: M.failed, links: [{ url: 'https://fest.example', label: 'Fest' }], authoring: { revision: 4 },
      },
    ],
    editions: [
      {
        publicId: ED.full, seriesId: S.editioned, slug: 'fest-2025', name: 'Fest 2025', startLocalDate: '2025-06-27',
        endLocalDate: '2025-06-29', description: 'Third', profileMediaId: M.ready, links: [{ url: 'https://fest.example/2025', label: null }],
        venueIds: [V.tba, V.formatted], authoring: { revision: 5 },
      },
      { publicId: ED.minimal, seriesId: S.editioned, slug: 'fest-2026', name: 'Fest 2026', startLocalDate: '2026-06-26' },
    ],
  };
}
