/**
 * Shared TypeBox primitives: the Common formats and envelopes of the specification. The
 * response schemas built from them document the contract (OpenAPI) and validate every response
 * the HTTP test suite sees, so the code and the contract cannot drift apart.
 */
import { Type, type Static, type TLiteral, type TSchema, type TUnion } from '@sinclair/typebox';
import { DIGITAL_LOCATION_KINDS } from '../plan/event-fields.js';

/** One of these strings (its type keeps the literals: a presenter writing another does not compile). */
export const lit = <const V extends readonly string[]>(values: V) =>
  Type.Union(values.map((v) => Type.Literal(v))) as TUnion<{ -readonly [K in keyof V]: TLiteral<V[K]> }>;
export const Name = Type.String({ minLength: 1 });

export const PublicId = Type.String({ pattern: '^[0-9A-Za-z]{12}$', minLength: 12, maxLength: 12, description: 'Stable public identity' });
export const LocalDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD calendar date' });
export const UpdatedAt = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z$',
  description: 'Public change marker: UTC with exactly 6 fractional digits; compare as strings',
});
export const HttpUrl = Type.String({ pattern: '^https?://', description: 'http(s) URL' });
/**
 * What a presenter returns for a schema whose top-level keys `fields` selects: any subset of its
 * keys, each of the schema's type (the compiler checks each projection against the contract).
 */
export type Selected<T extends TSchema> = Partial<Static<T>>;

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const MAX_SAFE = 9007199254740991;

export const ProfileMedia = Nullable(
  Type.Object(
    {
      publicId: Type.String({ minLength: 1 }),
      src: HttpUrl,
      thumbnailSrc: Nullable(HttpUrl),
      altText: Nullable(Type.String()),
      width: Nullable(Type.Integer({ minimum: 1, maximum: MAX_SAFE })),
      height: Nullable(Type.Integer({ minimum: 1, maximum: MAX_SAFE })),
    },
    { additionalProperties: false, description: 'Only a ready profile item is exposed' },
  ),
);

export const UrlEntry = Type.Object({ url: HttpUrl, label: Nullable(Type.String()) }, { additionalProperties: false });
export const UrlCollection = Type.Array(UrlEntry, { maxItems: 25, description: 'Complete collection (at most 25)' });
export const DigitalLocation = Type.Object(
  {
    url: HttpUrl,
    label: Nullable(Type.String()),
    kindCode: lit(DIGITAL_LOCATION_KINDS),
  },
  { additionalProperties: false },
);

export const Pagination = Type.Object(
  {
    pagination: Type.Object(
      { limit: Type.Integer({ minimum: 1, maximum: 50 }), hasMore: Type.Boolean() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const NextLink = Type.Object(
  { next: Nullable(Type.String({ description: 'Relative URL of the next page; null on the last page' })) },
  { additionalProperties: false },
);

export const pageOf = (item: TSchema) =>
  Type.Object(
    { ok: Type.Literal(true), data: Type.Array(item, { maxItems: 50 }), meta: Pagination, links: NextLink },
    { additionalProperties: false },
  );

export const objectOf = (item: TSchema) => Type.Object({ ok: Type.Literal(true), data: item }, { additionalProperties: false });

/** The refusal types of the error envelope (spec: Errors). */
export const ERROR_TYPES = ['invalid_query', 'not_found', 'method_not_allowed', 'rate_limited', 'unavailable', 'internal_error'] as const;

export const ErrorEnvelope = Type.Object(
  {
    ok: Type.Literal(false),
    error: Type.Object(
      {
        type: lit(ERROR_TYPES),
        message: Type.String(),
        details: Type.Optional(
          Type.Array(Type.Object({ parameter: Type.String(), message: Type.String() }, { additionalProperties: false })),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
