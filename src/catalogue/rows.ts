/**
 * Staging rows: how a validated record becomes one row of its temporary staging table, with
 * the derived columns (name_lower, name_folded, locality_key, …) computed here in JavaScript
 * (src/text/normalize.ts) and the entity's own projection hash.
 *
 * Projection hash (decisions §6, spec "Incremental reading rules" 4): the stored
 * `projection_hash` is `own:media`. `own` (computed here) covers the entity's own public
 * projection; `media` covers the public fields of the profile media it shows, and only while that
 * media is ready: each media's part is computed here too (`mediaPublicPart`), stored on the media
 * (migration 018), and joined at merge time (merge-statements.ts). A change of either advances
 * `updated_at`; galleries, never-public fields and related entities' own edits never do.
 * `active` is part of `own`: re-activating an entity must reach incremental readers.
 */
import { digest } from '../text/digest.js';
import { foldName, localityKey, lowerName } from '../text/normalize.js';
import type { Boundary, Collection, DigitalLocation, RecordOf, UrlEntry } from './document.js';
import { isPublicId } from './formats.js';

export type SqlType = 'text' | 'integer' | 'boolean' | 'bigint' | 'float8' | 'date' | 'timestamptz' | 'jsonb' | 'text[]';
export type Cell = string | null;

export interface StageSpec<C extends Collection> {
  readonly table: string;
  /** Columns after the common (ord, public_id, valid, active, updated_at, own_hash, former_own_hash, authoring). */
  readonly columns: ReadonlyArray<readonly [name: string, type: SqlType]>;
  readonly cells: (r: RecordOf[C]) => Cell[];
  readonly own: (r: RecordOf[C]) => unknown[];
  /**
   * The own parts as an earlier formula wrote them, when they differ from `own`'s (else null):
   * staged for an import into a store that holds entities, so that the merge can tell a hash
   * stored by that formula from a change (merge-statements.ts `formerHashSql`).
   */
  readonly formerOwn?: (r: RecordOf[C]) => unknown[] | null;
}

export const COMMON_COLUMNS: ReadonlyArray<readonly [string, SqlType]> = [
  ['ord', 'integer'],
  ['public_id', 'text'],
  ['valid', 'boolean'],
  ['active', 'boolean'],
  ['updated_at', 'timestamptz'],
  ['own_hash', 'text'],
  ['former_own_hash', 'text'],
  ['authoring', 'jsonb'],
];

const str = (v: string | null): Cell => v;
const bool = (v: boolean): Cell => (v ? 'true' : 'false');
const int = (v: number | null): Cell => (v === null ? null : BigInt(v).toString());
const num = (v: number | null | undefined): Cell => (v === null || v === undefined ? null : String(v));
const json = (v: unknown): Cell => (v === null || v === undefined ? null : JSON.stringify(v));
/** publicIds are [0-9A-Za-z]{12}: a plain array literal needs no quoting ('' = malformed → NULL). */
const ids = (v: readonly string[]): Cell => `{${v.map((id) => id || 'NULL').join(',')}}`;

const urls = (v: readonly UrlEntry[]) => v.map((e) => ({ url: e.url, label: e.label }));
const digital = (v: readonly DigitalLocation[]) => v.map((e) => ({ url: e.url, label: e.label, kindCode: e.kindCode }));
const urlsOwn = (v: readonly UrlEntry[]) => v.map((e) => [e.url, e.label]);
const digitalOwn = (v: readonly DigitalLocation[]) => v.map((e) => [e.url, e.label, e.kindCode]);
const boundaryOwn = (b: Boundary | null) =>
  b === null ? null : b.precision === 'date' ? [b.precision, b.localDate] : [b.precision, b.localDate, b.localTime, b.instant];
const sorted = (v: readonly string[]) => [...v].sort();
const isSorted = (v: readonly string[]) => v.every((x, i) => i === 0 || v[i - 1]! <= x);

const media: StageSpec<'media'> = {
  table: 'stage_media',
  columns: [
    ['status', 'text'], ['src', 'text'], ['thumbnail_src', 'text'], ['alt_text', 'text'], ['width', 'bigint'],
    ['height', 'bigint'], ['original_filename', 'text'], ['upload_name', 'text'], ['storage_key', 'text'],
    ['blur_data_url', 'text'], ['public_part', 'text'],
  ],
  cells: (r) => [
    r.status, r.src, r.thumbnailSrc, r.altText, int(r.width), int(r.height), r.originalFilename, r.uploadName,
    r.storageKey, r.blurDataUrl, mediaPublicPart(r),
  ],
  own: (r) => [r.active, r.status, r.src, r.thumbnailSrc, r.altText, r.width, r.height],
};

const artists: StageSpec<'artists'> = {
  table: 'stage_artists',
  columns: [['slug', 'text'], ['name', 'text'], ['name_lower', 'text'], ['description', 'text'], ['links', 'jsonb'], ['profile_media_pids', 'text[]']],
  cells: (r) => [r.slug, r.name, lowerName(r.name), r.description, json(urls(r.links)), ids(r.profileMediaIds)],
  own: (r) => [r.active, r.slug, r.name, r.description, urlsOwn(r.links)],
};

const venues: StageSpec<'venues'> = {
  table: 'stage_venues',
  columns: [
    ['slug', 'text'], ['name', 'text'], ['name_lower', 'text'], ['description', 'text'], ['status_code', 'text'],
    ['capacity', 'bigint'], ['contact_email', 'text'], ['contact_phone', 'text'], ['has_address', 'boolean'],
    ['formatted_address', 'text'], ['locality', 'text'], ['locality_key', 'text'], ['country_name', 'text'],
    ['country_name_lower', 'text'], ['country_code', 'text'], ['latitude', 'float8'], ['longitude', 'float8'],
    ['publish_coordinates', 'boolean'], ['address_provenance', 'jsonb'], ['time_zone_suggestion', 'text'],
    ['profile_media_pid', 'text'], ['links', 'jsonb'],
  ],
  cells: (r) => {
    const a = r.address;
    const countryName = a?.countryName ?? null;
    return [
      r.slug, r.name, lowerName(r.name), r.description, r.statusCode, int(r.capacity), str(r.contact?.email ?? null),
      str(r.contact?.phoneNumber ?? null), bool(a !== null), a?.formattedAddress ?? null, a?.locality ?? null,
      localityKey(a?.locality), countryName, countryName === null ? null : lowerName(countryName), a?.countryCode ?? null,
      num(r.coordinates?.latitude), num(r.coordinates?.longitude), bool(r.publishCoordinates), json(r.addressProvenance),
      r.timeZoneSuggestion, r.profileMediaId, json(urls(r.links)),
    ];
  },
  own: (r) => [
    r.active, r.slug, r.name, r.description, r.statusCode, r.capacity, r.contact?.email ?? null,
    r.contact?.phoneNumber ?? null,
    r.address && [r.address.formattedAddress, r.address.locality, r.address.countryName, r.address.countryCode],
    // the location state depends on whether coordinates exist; their values are public only when published
    r.coordinates !== null,
    r.publishCoordinates && r.coordinates ? [r.coordinates.latitude, r.coordinates.longitude] : null,
    urlsOwn(r.links),
  ],
};

const series: StageSpec<'series'> = {
  table: 'stage_series',
  columns: [
    ['slug', 'text'], ['name', 'text'], ['name_lower', 'text'], ['description', 'text'], ['structure_code', 'text'],
    ['profile_media_pid', 'text'], ['links', 'jsonb'],
  ],
  cells: (r) => [r.slug, r.name, lowerName(r.name), r.description, r.structureCode, r.profileMediaId, json(urls(r.links))],
  own: (r) => [r.active, r.slug, r.name, r.description, r.structureCode, urlsOwn(r.links)],
};

const editions: StageSpec<'editions'> = {
  table: 'stage_editions',
  columns: [
    ['series_pid', 'text'], ['slug', 'text'], ['name', 'text'], ['name_lower', 'text'], ['start_local_date', 'date'],
    ['end_local_date', 'date'], ['description', 'text'], ['profile_media_pid', 'text'], ['links', 'jsonb'],
    ['venue_pids', 'text[]'],
  ],
  cells: (r) => [
    r.seriesId, r.slug, r.name, lowerName(r.name), r.startLocalDate, r.endLocalDate, r.description, r.profileMediaId,
    json(urls(r.links)), ids(r.venueIds),
  ],
  own: (r) => [
    r.active, r.seriesId, r.slug, r.name, r.startLocalDate, r.endLocalDate, r.description, urlsOwn(r.links),
    sorted(r.venueIds),
  ],
};

const events: StageSpec<'events'> = {
  table: 'stage_events',
  columns: [
    ['slug', 'text'], ['name', 'text'], ['name_lower', 'text'], ['name_folded', 'text'], ['description', 'text'],
    ['event_type_code', 'text'], ['administrative_state_code', 'text'], ['time_zone', 'text'],
    ['start_precision', 'text'], ['start_local_date', 'date'], ['start_local_time', 'text'], ['start_instant', 'text'],
    ['end_precision', 'text'], ['end_local_date', 'date'], ['end_local_time', 'text'], ['end_instant', 'text'],
    ['profile_media_pid', 'text'], ['gallery_pids', 'text[]'], ['artist_pids', 'text[]'], ['venue_pids', 'text[]'],
    ['series_pids', 'text[]'], ['edition_pids', 'text[]'], ['links', 'jsonb'], ['ticket_links', 'jsonb'],
    ['digital_locations', 'jsonb'],
  ],
  cells: (r) => {
    const { start, end } = r.schedule;
    return [
      r.slug, r.name, lowerName(r.name), foldName(r.name), r.description, r.eventTypeCode, r.administrativeStateCode,
      r.schedule.referenceTimeZoneId, start.precision, start.localDate,
      start.precision === 'date-time' ? start.localTime : null, start.precision === 'date-time' ? start.instant : null,
      end?.precision ?? null, end?.localDate ?? null, end?.precision === 'date-time' ? end.localTime : null,
      end?.precision === 'date-time' ? end.instant : null, r.profileMediaId, ids(r.galleryMediaIds), ids(r.artistIds),
      ids(r.venueIds), ids(r.seriesIds), ids(r.editionIds), json(urls(r.links)), json(urls(r.ticketLinks)),
      json(digital(r.digitalLocations)),
    ];
  },
  // The Artists and Venues as sets: no public output shows their order in the document (the
  // previews and relationship routes order by name, the primary Venue by locality), so reordering
  // them is a no-op save (spec Incremental reading rule 4), as reordering Series and Editions is.
  own: (r) => eventOwn(r, sorted(r.artistIds), sorted(r.venueIds)),
  // hashes stored by the older formula took the lists in document order: compared with that form,
  // a stored hash is not taken for a change
  formerOwn: (r) => (isSorted(r.artistIds) && isSorted(r.venueIds) ? null : eventOwn(r, r.artistIds, r.venueIds)),
};

function eventOwn(r: RecordOf['events'], artistIds: readonly string[], venueIds: readonly string[]): unknown[] {
  return [
    r.active, r.slug, r.name, r.description, r.eventTypeCode, r.administrativeStateCode,
    [r.schedule.referenceTimeZoneId, boundaryOwn(r.schedule.start), boundaryOwn(r.schedule.end)],
    urlsOwn(r.links), urlsOwn(r.ticketLinks), digitalOwn(r.digitalLocations),
    artistIds, venueIds, sorted(r.seriesIds), sorted(r.editionIds),
  ];
}

export const STAGE: { readonly [C in Collection]: StageSpec<C> } = { media, artists, venues, series, editions, events };

/** A scalar as jsonb's text writes it (numbers: the media's integers, as staged by `int`). */
const jsonbScalar = (v: string | number | boolean | null): string =>
  v === null ? 'null' : typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' ? BigInt(v).toString() : String(v);

/**
 * A media's part of the projection hash of every entity showing it (merge-statements.ts): while it is ready,
 * the MD5 of its six public fields and `active` as the text PostgreSQL writes for
 * `jsonb_build_array(public_id, src, thumbnail_src, alt_text, width, height, active)`; '-' when it
 * is not ready. Computed here, it runs once per media, in the reading's workers, instead of once
 * per owner showing the media on the import's one backend.
 * Written by hand because the hashes already stored must not change: jsonb's array text separates
 * its elements by ', ' (JSON.stringify by ','), and escapes a string as JSON.stringify does once
 * NUL and lone surrogates are rejected (validate.ts) — test/catalogue/media-part.test.ts compares
 * both on each engine.
 */
export function mediaPublicPart(r: Pick<RecordOf['media'], 'status' | 'publicId' | 'src' | 'thumbnailSrc' | 'altText' | 'width' | 'height' | 'active'>): string {
  if (r.status !== 'ready') return '-';
  const items = [r.publicId, r.src, r.thumbnailSrc, r.altText, r.width, r.height, r.active].map(jsonbScalar);
  return digest('md5', `[${items.join(', ')}]`, 'hex');
}

/** One-shot MD5 where Node has it (src/text/digest.ts: about half the cost of a Hash object per entity). */
export function ownHash(parts: unknown[]): string {
  return digest('md5', JSON.stringify(parts), 'hex');
}

/**
 * The staging row of a valid record: common cells, then the collection's cells. `formerHashes`:
 * the store holds entities, whose hashes an earlier formula may have written (`formerOwn`); a
 * first import has none to compare, and skips that hash.
 */
export function stageRow<C extends Collection>(collection: C, ord: number, record: RecordOf[C], formerHashes = true): Cell[] {
  const spec = STAGE[collection] as StageSpec<C>;
  const former = formerHashes ? spec.formerOwn?.(record) : null;
  return [
    String(ord), record.publicId, 'true', bool(record.active), record.updatedAt, ownHash(spec.own(record)),
    former ? ownHash(former) : null, json(record.authoring), ...spec.cells(record),
  ];
}

/**
 * The staging row of an invalid entity whose publicId is readable (`valid` false): it still
 * counts for duplicates and as a reference target, and its well-formed references (from the
 * partial record) are still checked. Every other column is null; the row is never merged.
 */
export function placeholderRow<C extends Collection>(collection: C, ord: number, publicId: string, partial: RecordOf[C]): Cell[] {
  const spec = STAGE[collection] as StageSpec<C>;
  const cells = spec.cells(partial);
  const refs = spec.columns.map(([name], i) => {
    const cell = cells[i] ?? null;
    if (name.endsWith('_pids')) return cell;
    if (name.endsWith('_pid')) return isPublicId(cell) ? cell : null;
    return null;
  });
  return [String(ord), publicId, 'false', ...new Array<Cell>(COMMON_COLUMNS.length - 3).fill(null), ...refs];
}
