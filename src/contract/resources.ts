/**
 * Artist, Venue, Series and Edition response schemas (spec: Venue resources; decisions §3).
 * One schema per resource serves collections, details and member routes: every field but
 * `publicId` is optional because `fields` selects the top-level keys.
 */
import { Type, type TObject, type TOptional, type TProperties } from '@sinclair/typebox';
import { Name, Nullable, ProfileMedia, PublicId, LocalDate, UpdatedAt, UrlCollection, lit } from './common.js';
import { SERIES_STRUCTURES } from '../plan/resource-fields.js';
import { artistProps, venueProps, venueRichProps } from './event.js';

const Ref = Type.Object({ publicId: PublicId, slug: Name, name: Name }, { additionalProperties: false });

/** The schema `selectable` builds, with its property types kept (presenters' output types). */
type Selectable<P extends TProperties> = TObject<{ [K in keyof P]: K extends 'publicId' ? P[K] : TOptional<P[K]> }>;

/** publicId required, everything else optional (selected by `fields`). */
const selectable = <P extends TProperties>(props: P, description: string): Selectable<P> => {
  const out: TProperties = {};
  for (const [key, schema] of Object.entries(props)) out[key] = key === 'publicId' ? schema : Type.Optional(schema);
  return Type.Object(out, { additionalProperties: false, description }) as Selectable<P>;
};

/** The closing fields of every resource with a detail route. */
const about = { description: Nullable(Type.String()), links: UrlCollection, updatedAt: UpdatedAt };

export const Artist = selectable(
  {
    ...artistProps,
    ...about,
  },
  'An Artist; unselected fields are omitted, publicId is always present',
);

export const Venue = selectable(
  {
    ...venueProps,
    ...venueRichProps,
    updatedAt: UpdatedAt,
    distanceKm: Type.Number({
      minimum: 0,
      description: 'Extension (beyond v1): with near, the great-circle distance in km to the published coordinates, 3 decimals',
    }),
  },
  'A Venue; unselected fields are omitted, publicId is always present',
);

export const Series = selectable(
  {
    publicId: PublicId,
    slug: Name,
    name: Name,
    structureCode: lit(SERIES_STRUCTURES),
    profileMedia: ProfileMedia,
    ...about,
  },
  'A Series; unselected fields are omitted, publicId is always present',
);

export const Edition = selectable(
  {
    publicId: PublicId,
    slug: Name,
    name: Name,
    series: Ref,
    startLocalDate: LocalDate,
    endLocalDate: Nullable(LocalDate),
    profileMedia: ProfileMedia,
    ...about,
  },
  'An Edition of its own Series; unselected fields are omitted, publicId is always present',
);

/** Route 5 items: the Event's `directEventSeries` entries. */
export const SeriesMembership = selectable(
  { publicId: PublicId, slug: Name, name: Name, structureCode: lit(SERIES_STRUCTURES) },
  'A Series the Event belongs to directly',
);

/** Route 6 items: the Event's `editionPrograms` entries; `fields` selects series and/or edition. */
export const EditionProgram = Type.Object(
  { series: Type.Optional(Ref), edition: Type.Optional(Ref) },
  { additionalProperties: false, description: 'An Edition program the Event is in, with its own Series' },
);
