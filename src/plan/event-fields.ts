/**
 * The Event field registry (spec: Resources › Event): which top-level fields exist, which are
 * selected by default, and the order in which they are written.
 */

export const EVENT_FIELDS = [
  'publicId',
  'slug',
  'name',
  'schedule',
  'administrativeStateCode',
  'profileMedia',
  'artists',
  'venues',
  'updatedAt',
  'description',
  'eventTypeCode',
  'digitalLocations',
  'links',
  'ticketLinks',
  'directEventSeries',
  'editionPrograms',
] as const;

export type EventField = (typeof EVENT_FIELDS)[number];

export const EVENT_DEFAULT_FIELDS: readonly EventField[] = [
  'publicId',
  'slug',
  'name',
  'schedule',
  'administrativeStateCode',
  'profileMedia',
  'artists',
  'venues',
];

export const EVENT_INCLUDES = ['artists', 'venues'] as const;
export type EventInclude = (typeof EVENT_INCLUDES)[number];

export const EVENT_SORTS = ['startLocalDate', '-startLocalDate', 'startInstant', '-startInstant', 'updatedAt'] as const;
export type EventSort = (typeof EVENT_SORTS)[number];

export const TEMPORAL_PHASES = ['upcoming', 'current', 'historical', 'indeterminate'] as const;
export type TemporalPhase = (typeof TEMPORAL_PHASES)[number];

export const PHASE_BASES = ['exact', 'calendar', 'incomplete', 'inferred'] as const;

export const ADMINISTRATIVE_STATES = ['scheduled', 'cancelled'] as const;
export type AdministrativeState = (typeof ADMINISTRATIVE_STATES)[number];

export const EVENT_TYPES = ['concert', 'dj-set', 'festival-day', 'livestream', 'other'] as const;

export const DIGITAL_LOCATION_KINDS = ['livestream', 'stream-replay', 'virtual-venue', 'other'] as const;
