/** Event, Artist item and Venue item response schemas (spec: Resources). */
import { Type, type TSchema } from '@sinclair/typebox';
import { ADMINISTRATIVE_STATES, EVENT_TYPES, PHASE_BASES, TEMPORAL_PHASES } from '../plan/event-fields.js';
import { SERIES_STRUCTURES, VENUE_STATUSES } from '../plan/resource-fields.js';
import { DigitalLocation, HttpUrl, Name, Nullable, ProfileMedia, PublicId, LocalDate, UpdatedAt, UrlCollection, lit } from './common.js';

const Boundary = Type.Union([
  Type.Object({ precision: Type.Literal('date'), localDate: LocalDate }, { additionalProperties: false }),
  Type.Object(
    {
      precision: Type.Literal('date-time'),
      localDate: LocalDate,
      localTime: Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' }),
      instant: Type.String({ description: 'date-time with seconds, optional fraction, Z or ±hh:mm' }),
    },
    { additionalProperties: false },
  ),
]);

export const Schedule = Type.Object(
  {
    referenceTimeZoneId: Type.String({ minLength: 1, maxLength: 255 }),
    start: Boundary,
    end: Type.Optional(Boundary),
    temporalPhaseCode: lit(TEMPORAL_PHASES),
    temporalPhaseBasisCode: lit(PHASE_BASES),
  },
  { additionalProperties: false },
);

export const artistProps = { publicId: PublicId, slug: Name, name: Name, profileMedia: ProfileMedia };
export const ArtistItem = Type.Object(artistProps, { additionalProperties: false });
export const ArtistItemRich = Type.Object({ ...artistProps, description: Nullable(Type.String()) }, { additionalProperties: false });

const place = {
  locality: Nullable(Name),
  countryName: Nullable(Name),
  countryCode: Nullable(Type.String({ pattern: '^[A-Z]{2}$' })),
};
export const Location = Type.Union([
  Type.Object({ stateCode: Type.Literal('tba') }, { additionalProperties: false }),
  Type.Object({ stateCode: Type.Literal('formatted'), formattedAddress: Name, ...place }, { additionalProperties: false }),
  Type.Object({ stateCode: Type.Literal('coordinate-only'), ...place }, { additionalProperties: false }),
]);

export const venueProps = {
  publicId: PublicId,
  slug: Name,
  name: Name,
  statusCode: lit(VENUE_STATUSES),
  location: Location,
  profileMedia: ProfileMedia,
};
export const venueRichProps = {
  description: Nullable(Type.String()),
  capacity: Nullable(Type.Integer({ minimum: 0 })),
  contact: Type.Object(
    { email: Nullable(Type.String()), phoneNumber: Nullable(Type.String({ minLength: 1, maxLength: 50 })) },
    { additionalProperties: false },
  ),
  publishedCoordinates: Nullable(
    Type.Object(
      { latitude: Type.Number({ minimum: -90, maximum: 90 }), longitude: Type.Number({ minimum: -180, maximum: 180 }) },
      { additionalProperties: false },
    ),
  ),
  links: UrlCollection,
};
export const VenueItem = Type.Object(venueProps, { additionalProperties: false });
export const VenueItemRich = Type.Object({ ...venueProps, ...venueRichProps }, { additionalProperties: false });

const previewOf = (item: TSchema, route: string) =>
  Type.Object(
    {
      items: Type.Array(item, { maxItems: 5 }),
      isComplete: Type.Boolean({ description: 'false means more eligible members existed at that read' }),
      href: Type.String({ pattern: '^/v1/events/', description: `the ${route} relationship route` }),
    },
    { additionalProperties: false },
  );

const SeriesRef = Type.Object({ publicId: PublicId, slug: Name, name: Name }, { additionalProperties: false });

export const Event = Type.Object(
  {
    publicId: PublicId,
    slug: Type.Optional(Name),
    name: Type.Optional(Name),
    schedule: Type.Optional(Schedule),
    administrativeStateCode: Type.Optional(lit(ADMINISTRATIVE_STATES)),
    profileMedia: Type.Optional(ProfileMedia),
    artists: Type.Optional(previewOf(Type.Union([ArtistItem, ArtistItemRich]), 'artists')),
    venues: Type.Optional(previewOf(Type.Union([VenueItem, VenueItemRich]), 'venues')),
    updatedAt: Type.Optional(UpdatedAt),
    description: Type.Optional(Nullable(Type.String())),
    eventTypeCode: Type.Optional(Nullable(lit(EVENT_TYPES))),
    digitalLocations: Type.Optional(Type.Array(DigitalLocation, { maxItems: 25 })),
    links: Type.Optional(UrlCollection),
    ticketLinks: Type.Optional(UrlCollection),
    directEventSeries: Type.Optional(
      Type.Array(
        Type.Object(
          { publicId: PublicId, slug: Name, name: Name, structureCode: lit(SERIES_STRUCTURES) },
          { additionalProperties: false },
        ),
        { maxItems: 25 },
      ),
    ),
    editionPrograms: Type.Optional(
      Type.Array(Type.Object({ series: SeriesRef, edition: SeriesRef }, { additionalProperties: false }), { maxItems: 25 }),
    ),
  },
  { additionalProperties: false, description: 'Unselected fields are omitted; publicId is always present' },
);

export { HttpUrl };
