/**
 * Artist, Venue, Series and Edition response schemas (spec: Venue resources; decisions §3).
 * One schema per resource serves collections, details and member routes: every field but
 * `publicId` is optional because `fields` selects the top-level keys.
 */
import { Type, type TLiteral, type TObject, type TOptional, type TProperties, type TUnion } from '@sinclair/typebox';
import { Nullable, ProfileMedia, PublicId, LocalDate, UpdatedAt, UrlCollection } from './common.js';
import { Location, venueRichProps } from './event.js';

/** One of these strings (its type keeps the literals: a presenter writing another does not compile). */
const lit = <const V extends readonly string[]>(values: V) =>
  Type.Union(values.map((v) => Type.Literal(v))) as TUnion<{ -readonly [K in keyof V]: TLiteral<V[K]> }>;
const Name = Type.String({ minLength: 1 });
const Ref = Type.Object({ publicId: PublicId, slug: Name, name: Name }, { additionalProperties: false });

/** The schema `selectable` builds, with its property types kept (presenters' output types). */
type Selectable<P extends TProperties> = TObject<{ [K in keyof P]: K extends 'publicId' ? P[K] : TOptional<P[K]> }>;

/** publicId required, everything else optional (selected by `fields`). */
const selectable = <P extends TProperties>(props: P, description: string): Selectable<P> => {
  const out: TProperties = {};
  for (const [key, schema] of Object.entries(props)) out[key] = key === 'publicId' ? schema : Type.Optional(schema);
  return Type.Object(out, { additionalProperties: false, description }) as Selectable<P>;
};

export const Artist = selectable(
  {
    publicId: PublicId,
    slug: Name,
    name: Name,
    profileMedia: ProfileMedia,
    description: Nullable(Type.String()),
    links: UrlCollection,
    updatedAt: UpdatedAt,
  },
  'An Artist; unselected fields are omitted, publicId is always present',
);

export const Venue = selectable(
  {
    publicId: PublicId,
    slug: Name,
    name: Name,
    statusCode: lit(['operational', 'on-hiatus', 'permanently-closed']),
    location: Location,
    profileMedia: ProfileMedia,
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
    structureCode: lit(['direct', 'editioned']),
    profileMedia: ProfileMedia,
    description: Nullable(Type.String()),
    links: UrlCollection,
    updatedAt: UpdatedAt,
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
    description: Nullable(Type.String()),
    links: UrlCollection,
    updatedAt: UpdatedAt,
  },
  'An Edition of its own Series; unselected fields are omitted, publicId is always present',
);

/** Route 5 items: the Event's `directEventSeries` entries. */
export const SeriesMembership = selectable(
  { publicId: PublicId, slug: Name, name: Name, structureCode: lit(['direct', 'editioned']) },
  'A Series the Event belongs to directly',
);

/** Route 6 items: the Event's `editionPrograms` entries; `fields` selects series and/or edition. */
export const EditionProgram = Type.Object(
  { series: Type.Optional(Ref), edition: Type.Optional(Ref) },
  { additionalProperties: false, description: 'An Edition program the Event is in, with its own Series' },
);
