/**
 * The catalogue document (decisions §6): one JSON object whose arrays `media`, `artists`,
 * `venues`, `series`, `editions` and `events` hold entities addressed by `publicId`.
 *
 * `…Input` types describe what a document may contain (optional keys may be omitted); the
 * `…Record` types are what the validator returns: every key present, defaults applied
 * (`active` true, arrays [], nullable values null, `publishCoordinates` false).
 *
 * The importer checks structure only. Projection rules of the read side (≤ 25 URL entries,
 * http(s) URLs, non-empty names, profile readiness, positive sizes…) are deliberately NOT
 * enforced here: the store may hold data the API later refuses with a sanitized 500.
 */

export const MEDIA_STATUSES = ['pending', 'ready', 'failed'] as const;
// The codes the contract defines: one list each, kept with the read side's field registries.
import {
  ADMINISTRATIVE_STATES as ADMINISTRATIVE_STATE_CODES,
  DIGITAL_LOCATION_KINDS as DIGITAL_LOCATION_KIND_CODES,
  EVENT_TYPES as EVENT_TYPE_CODES,
} from '../plan/event-fields.js';
import { SERIES_STRUCTURES as STRUCTURE_CODES, VENUE_STATUSES as VENUE_STATUS_CODES } from '../plan/resource-fields.js';
export { ADMINISTRATIVE_STATE_CODES, DIGITAL_LOCATION_KIND_CODES, EVENT_TYPE_CODES, STRUCTURE_CODES, VENUE_STATUS_CODES };

export type MediaStatus = (typeof MEDIA_STATUSES)[number];
export type VenueStatusCode = (typeof VENUE_STATUS_CODES)[number];
export type StructureCode = (typeof STRUCTURE_CODES)[number];
export type AdministrativeStateCode = (typeof ADMINISTRATIVE_STATE_CODES)[number];
export type EventTypeCode = (typeof EVENT_TYPE_CODES)[number];
export type DigitalLocationKindCode = (typeof DIGITAL_LOCATION_KIND_CODES)[number];

/** The document's arrays, in the order the importer merges them. */
export const COLLECTIONS = ['media', 'artists', 'venues', 'series', 'editions', 'events'] as const;
export type Collection = (typeof COLLECTIONS)[number];

/** Singular entity names used in problem messages (`event 0123456789ab: name: …`). */
export const ENTITY_NAMES: Record<Collection, string> = {
  media: 'media',
  artists: 'artist',
  venues: 'venue',
  series: 'series',
  editions: 'edition',
  events: 'event',
};

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

// ---------------------------------------------------------------------------------------------
// Document (input) shapes

export interface UrlEntryInput {
  url: string;
  label?: string | null;
}
export interface DigitalLocationInput extends UrlEntryInput {
  kindCode: DigitalLocationKindCode;
}

export interface DateBoundary {
  precision: 'date';
  localDate: string;
}
export interface DateTimeBoundary {
  precision: 'date-time';
  localDate: string;
  /** `HH:MM` */
  localTime: string;
  /** date-time with seconds, optional fraction, `Z` or `±hh:mm`; stored exactly as given */
  instant: string;
}
export type Boundary = DateBoundary | DateTimeBoundary;

export interface ScheduleInput {
  referenceTimeZoneId: string;
  start: Boundary;
  end?: Boundary | null;
}

interface CommonInput {
  publicId: string;
  active?: boolean;
  /** UTC `YYYY-MM-DDTHH:MM:SS(.1-6 digits)?Z`; stored exactly when given */
  updatedAt?: string | null;
  /** revision, actors, timestamps… stored, never output */
  authoring?: JsonObject | null;
}

export interface MediaInput extends CommonInput {
  status: MediaStatus;
  src?: string | null;
  thumbnailSrc?: string | null;
  altText?: string | null;
  width?: number | null;
  height?: number | null;
  originalFilename?: string | null;
  uploadName?: string | null;
  storageKey?: string | null;
  blurDataUrl?: string | null;
}

export interface ArtistInput extends CommonInput {
  slug: string;
  name: string;
  description?: string | null;
  /** legacy Artists may hold several; the first ready one by position is public */
  profileMediaIds?: string[];
  links?: UrlEntryInput[];
}

export interface AddressInput {
  formattedAddress?: string | null;
  locality?: string | null;
  countryName?: string | null;
  countryCode?: string | null;
}

export interface VenueInput extends CommonInput {
  slug: string;
  name: string;
  description?: string | null;
  statusCode: VenueStatusCode;
  capacity?: number | null;
  contact?: { email?: string | null; phoneNumber?: string | null } | null;
  address?: AddressInput | null;
  coordinates?: { latitude: number; longitude: number } | null;
  publishCoordinates?: boolean;
  addressProvenance?: JsonValue;
  timeZoneSuggestion?: string | null;
  profileMediaId?: string | null;
  links?: UrlEntryInput[];
}

export interface SeriesInput extends CommonInput {
  slug: string;
  name: string;
  description?: string | null;
  structureCode: StructureCode;
  profileMediaId?: string | null;
  links?: UrlEntryInput[];
}

export interface EditionInput extends CommonInput {
  seriesId: string;
  slug: string;
  name: string;
  startLocalDate: string;
  endLocalDate?: string | null;
  description?: string | null;
  profileMediaId?: string | null;
  links?: UrlEntryInput[];
  /** official Venues (they do not imply Event membership) */
  venueIds?: string[];
}

export interface EventInput extends CommonInput {
  slug: string;
  name: string;
  description?: string | null;
  eventTypeCode?: EventTypeCode | null;
  administrativeStateCode: AdministrativeStateCode;
  schedule: ScheduleInput;
  profileMediaId?: string | null;
  galleryMediaIds?: string[];
  artistIds?: string[];
  venueIds?: string[];
  /** direct Series membership */
  seriesIds?: string[];
  /** Edition programs */
  editionIds?: string[];
  links?: UrlEntryInput[];
  ticketLinks?: UrlEntryInput[];
  digitalLocations?: DigitalLocationInput[];
}

export interface CatalogueDocument {
  media?: MediaInput[];
  artists?: ArtistInput[];
  venues?: VenueInput[];
  series?: SeriesInput[];
  editions?: EditionInput[];
  events?: EventInput[];
}

// ---------------------------------------------------------------------------------------------
// Validated (normalized) records

/** Every key present; `undefined` removed. */
type Normalized<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

export type UrlEntry = Normalized<UrlEntryInput>;
export type DigitalLocation = Normalized<DigitalLocationInput>;
export type Schedule = Normalized<ScheduleInput>;
export type Address = Normalized<AddressInput>;

export type MediaRecord = Normalized<MediaInput>;
export type ArtistRecord = Normalized<Omit<ArtistInput, 'links'>> & { links: UrlEntry[] };
export type VenueRecord = Normalized<Omit<VenueInput, 'links' | 'contact' | 'address' | 'addressProvenance'>> & {
  links: UrlEntry[];
  contact: { email: string | null; phoneNumber: string | null } | null;
  address: Address | null;
  addressProvenance: JsonValue;
};
export type SeriesRecord = Normalized<Omit<SeriesInput, 'links'>> & { links: UrlEntry[] };
export type EditionRecord = Normalized<Omit<EditionInput, 'links'>> & { links: UrlEntry[] };
export type EventRecord = Normalized<
  Omit<EventInput, 'links' | 'ticketLinks' | 'digitalLocations' | 'schedule'>
> & {
  schedule: Schedule;
  links: UrlEntry[];
  ticketLinks: UrlEntry[];
  digitalLocations: DigitalLocation[];
};

export interface RecordOf {
  media: MediaRecord;
  artists: ArtistRecord;
  venues: VenueRecord;
  series: SeriesRecord;
  editions: EditionRecord;
  events: EventRecord;
}

// ---------------------------------------------------------------------------------------------
// Errors

/** Most problems listed by a CatalogueError; the rest are only counted. */
export const MAX_PROBLEMS = 100;

/**
 * A document rejected for structural reasons (bad type or format, unknown key, duplicate
 * `publicId`, dangling reference, invalid JSON). Nothing was written.
 * `problems` holds at most MAX_PROBLEMS lines `entity publicId: field: message`; `total` counts all.
 */
export class CatalogueError extends Error {
  readonly problems: string[];
  readonly total: number;

  constructor(problems: string[], total = problems.length) {
    const listed = problems.slice(0, MAX_PROBLEMS);
    const more = total - listed.length;
    super(
      `the catalogue document was rejected (${total} problem${total === 1 ? '' : 's'}); nothing was written:\n` +
        listed.map((p) => `  ${p}`).join('\n') +
        (more > 0 ? `\n  … and ${more} more problem${more === 1 ? '' : 's'}` : ''),
    );
    this.name = 'CatalogueError';
    this.problems = listed;
    this.total = total;
  }
}

/** Collects problems, keeping the first MAX_PROBLEMS and counting the rest. */
export class ProblemList {
  readonly items: string[] = [];
  total = 0;

  add(problem: string): void {
    this.total++;
    if (this.items.length < MAX_PROBLEMS) this.items.push(problem);
  }

  /** Counts `n` more problems that were not fetched (they could not be listed anyway). */
  countMore(n: number): void {
    if (n > 0) this.total += n;
  }

  get full(): boolean {
    return this.items.length >= MAX_PROBLEMS;
  }

  toError(): CatalogueError {
    return new CatalogueError(this.items, this.total);
  }
}
