/**
 * The reference model of GET /v1/events: plain TypeScript over a catalogue document, written
 * from the specification and decisions §4-§5 without reusing any src/ logic (except the spec's
 * own folding definition, restated here). It answers, for a set of controls and an operation
 * time, the exact ordered list of Event publicIds, and the expected projection of each Event.
 */
import type {
  ArtistInput,
  Boundary,
  CatalogueDocument,
  EditionInput,
  EventInput,
  MediaInput,
  SeriesInput,
  VenueInput,
} from '../../src/catalogue/document.js';

export type Sort = 'startLocalDate' | '-startLocalDate' | 'startInstant' | '-startInstant' | 'updatedAt';
export type Phase = 'upcoming' | 'current' | 'historical' | 'indeterminate';
export type Basis = 'exact' | 'calendar' | 'incomplete' | 'inferred';

export interface ModelControls {
  nameContains?: string;
  cityContains?: string;
  countryContains?: string;
  temporalPhaseCode?: Phase;
  administrativeStateCode?: 'scheduled' | 'cancelled';
  startInstantGte?: string;
  startInstantLt?: string;
  startLocalDateGte?: string;
  startLocalDateLt?: string;
  updatedSince?: string;
  sort?: Sort;
  artistId?: string;
  venueId?: string;
  seriesId?: string;
  editionId?: string;
}

// ---------------------------------------------------------------------------------------------
// Primitive helpers

/** Bytewise (UTF-8) comparison, as PostgreSQL's "C" collation does. */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A schedule/query instant → UTC `YYYY-MM-DDTHH:MM:SS.ffffffZ` (microseconds), comparable as a
 * string. Fractions beyond 6 digits are not used by the fixtures.
 */
export function utcMicros(instant: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/.exec(instant);
  if (!m) throw new Error(`model: not an instant: ${instant}`);
  const offsetMinutes = m[8] === 'Z' ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) - offsetMinutes * 60_000;
  const date = new Date(ms);
  if (Number(m[1]) < 100) date.setUTCFullYear(Number(m[1]));
  const fraction = (m[7] ?? '').padEnd(6, '0').slice(0, 6);
  return `${date.toISOString().slice(0, 19)}.${fraction}Z`;
}

export function zoneKnown(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The calendar date of `now` in `zone`. */
export function todayIn(zone: string, now: Date): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/**
 * Case-insensitive comparison key, by its definition rather than by the service's table
 * (src/text/normalize.ts `caseKey`): each code point's upper case (when it is one code point),
 * lower-cased on its own, so with no Final_Sigma context (ς, σ and Σ are one letter). Dotless ı
 * keeps its own key: Unicode's default case folding does not unite it with I (only Turkic does).
 */
export function caseless(value: string): string {
  let out = '';
  for (const c of value) {
    const upper = c.toUpperCase();
    out += ([...upper].length === 1 && c !== 'ı' ? upper : c).toLowerCase();
  }
  return out;
}

/** Event name folding (decisions §5): NFKD, combining marks removed, lower-cased (`caseless`). */
export function fold(value: string): string {
  return caseless(value.normalize('NFKD').replace(/\p{M}/gu, ''));
}

/** SQL LIKE containment where only `%` and `_` are wildcards (backslash matches itself). */
export function likeContains(haystack: string, term: string): boolean {
  let source = '';
  for (const ch of term) {
    if (ch === '%') source += '.*';
    else if (ch === '_') source += '.';
    else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(source, 'su').test(haystack);
}

// ---------------------------------------------------------------------------------------------
// Temporal phase (decisions §4)

export function modelPhase(schedule: EventInput['schedule'], now: Date): { phase: Phase; basis: Basis } {
  const { referenceTimeZoneId: zone, start } = schedule;
  const end = schedule.end ?? null;
  if (!zoneKnown(zone)) return { phase: 'indeterminate', basis: 'incomplete' };
  const nowUtc = utcMicros(now.toISOString());
  if (start.precision === 'date-time' && end?.precision === 'date-time') {
    const s = utcMicros(start.instant);
    const e = utcMicros(end.instant);
    return { phase: nowUtc < s ? 'upcoming' : nowUtc < e ? 'current' : 'historical', basis: 'exact' };
  }
  if (start.precision === 'date-time' && end === null) {
    if (nowUtc < utcMicros(start.instant)) return { phase: 'upcoming', basis: 'exact' };
    return { phase: todayIn(zone, now) === start.localDate ? 'current' : 'historical', basis: 'inferred' };
  }
  const today = todayIn(zone, now);
  const last = end?.localDate ?? start.localDate;
  return { phase: today < start.localDate ? 'upcoming' : today <= last ? 'current' : 'historical', basis: 'calendar' };
}

// ---------------------------------------------------------------------------------------------
// Catalogue access

export class Catalogue {
  readonly media = new Map<string, MediaInput>();
  readonly artists = new Map<string, ArtistInput>();
  readonly venues = new Map<string, VenueInput>();
  readonly series = new Map<string, SeriesInput>();
  readonly editions = new Map<string, EditionInput>();
  readonly events: EventInput[];

  constructor(readonly doc: CatalogueDocument) {
    for (const m of doc.media ?? []) this.media.set(m.publicId, m);
    for (const a of doc.artists ?? []) this.artists.set(a.publicId, a);
    for (const v of doc.venues ?? []) this.venues.set(v.publicId, v);
    for (const s of doc.series ?? []) this.series.set(s.publicId, s);
    for (const e of doc.editions ?? []) this.editions.set(e.publicId, e);
    this.events = doc.events ?? [];
  }

  activeEvents(): EventInput[] {
    return this.events.filter(isActive);
  }

  eventArtists(e: EventInput): ArtistInput[] {
    return (e.artistIds ?? []).map((id) => this.artists.get(id)!).filter(isActive).sort(byNameThenId);
  }

  eventVenues(e: EventInput): VenueInput[] {
    return (e.venueIds ?? []).map((id) => this.venues.get(id)!).filter(isActive).sort(byNameThenId);
  }

  directSeries(e: EventInput): SeriesInput[] {
    return (e.seriesIds ?? [])
      .map((id) => this.series.get(id)!)
      .filter((s) => isActive(s) && s.structureCode === 'direct')
      .sort(byNameThenId);
  }

  editionPrograms(e: EventInput): { series: SeriesInput; edition: EditionInput }[] {
    return (e.editionIds ?? [])
      .map((id) => this.editions.get(id)!)
      .filter(isActive)
      .map((edition) => ({ edition, series: this.series.get(edition.seriesId)! }))
      .filter(({ series }) => isActive(series) && series.structureCode === 'editioned')
      .sort(
        (a, b) =>
          compareBytes(a.series.name, b.series.name) ||
          compareBytes(a.series.publicId, b.series.publicId) ||
          compareBytes(a.edition.name, b.edition.name) ||
          compareBytes(a.edition.publicId, b.edition.publicId),
      );
  }

  /** Decisions §5: the primary active Venue for city or country matching, or null. */
  primaryVenue(e: EventInput, by: 'city' | 'country'): VenueInput | null {
    const candidates = (e.venueIds ?? [])
      .map((id) => this.venues.get(id)!)
      .filter((v) => isActive(v) && nonEmpty(v.address?.locality) && nonEmpty(v.address?.countryName));
    const key = (v: VenueInput) => [v.address!.locality!, v.address!.countryName!, v.publicId] as const;
    candidates.sort((a, b) => {
      const [la, ca, ia] = key(a);
      const [lb, cb, ib] = key(b);
      return by === 'city'
        ? compareBytes(la, lb) || compareBytes(ca, cb) || compareBytes(ia, ib)
        : compareBytes(ca, cb) || compareBytes(la, lb) || compareBytes(ia, ib);
    });
    return candidates[0] ?? null;
  }

  /** The Event membership of a context (rule 2; decisions §5), or null for "no context". */
  contextMembers(c: ModelControls): Set<string> | null {
    const members = new Set<string>();
    if (c.artistId !== undefined) {
      const a = this.artists.get(c.artistId);
      if (a && isActive(a)) for (const e of this.events) if (e.artistIds?.includes(a.publicId)) members.add(e.publicId);
      return members;
    }
    if (c.venueId !== undefined) {
      const v = this.venues.get(c.venueId);
      if (v && isActive(v)) for (const e of this.events) if (e.venueIds?.includes(v.publicId)) members.add(e.publicId);
      return members;
    }
    if (c.seriesId !== undefined) {
      const s = this.series.get(c.seriesId);
      if (!s || !isActive(s)) return members;
      if (c.editionId !== undefined) {
        const ed = this.editions.get(c.editionId);
        if (s.structureCode !== 'editioned' || !ed || !isActive(ed) || ed.seriesId !== s.publicId) return members;
        for (const e of this.events) if (e.editionIds?.includes(ed.publicId)) members.add(e.publicId);
        return members;
      }
      if (s.structureCode === 'direct') {
        for (const e of this.events) if (e.seriesIds?.includes(s.publicId)) members.add(e.publicId);
      } else {
        const live = [...this.editions.values()].filter((ed) => isActive(ed) && ed.seriesId === s.publicId).map((ed) => ed.publicId);
        for (const e of this.events) if (e.editionIds?.some((id) => live.includes(id))) members.add(e.publicId);
      }
      return members;
    }
    return null;
  }
}

const isActive = (x: { active?: boolean }) => x.active !== false;
const nonEmpty = (s: string | null | undefined): s is string => typeof s === 'string' && s !== '';
const byNameThenId = (a: { name: string; publicId: string }, b: { name: string; publicId: string }) =>
  compareBytes(a.name, b.name) || compareBytes(a.publicId, b.publicId);

export function updatedAtOf(e: EventInput): string {
  if (!e.updatedAt) throw new Error(`model: fixture Event ${e.publicId} needs an explicit updatedAt`);
  return utcMicros(e.updatedAt);
}

const startInstantOf = (e: EventInput): string | null =>
  e.schedule.start.precision === 'date-time' ? utcMicros(e.schedule.start.instant) : null;

// ---------------------------------------------------------------------------------------------
// Filtering and ordering

export function modelFilter(cat: Catalogue, c: ModelControls, now: Date): EventInput[] {
  const members = cat.contextMembers(c);
  return cat.activeEvents().filter((e) => {
    if (members && !members.has(e.publicId)) return false;
    if (c.nameContains !== undefined) {
      const term = c.nameContains.trim();
      if (!likeContains(caseless(e.name), caseless(term)) && !likeContains(fold(e.name), fold(term))) return false;
    }
    if (c.cityContains !== undefined) {
      const v = cat.primaryVenue(e, 'city');
      if (!v || !likeContains(caseless(v.address!.locality!.trim()), caseless(c.cityContains.trim()))) return false;
    }
    if (c.countryContains !== undefined) {
      const v = cat.primaryVenue(e, 'country');
      if (!v || !likeContains(caseless(v.address!.countryName!), caseless(c.countryContains.trim()))) return false;
    }
    if (c.temporalPhaseCode !== undefined && modelPhase(e.schedule, now).phase !== c.temporalPhaseCode) return false;
    if (c.administrativeStateCode !== undefined && e.administrativeStateCode !== c.administrativeStateCode) return false;
    const start = startInstantOf(e);
    if (c.startInstantGte !== undefined && (start === null || start < utcMicros(c.startInstantGte))) return false;
    if (c.startInstantLt !== undefined && (start === null || !(start < utcMicros(c.startInstantLt)))) return false;
    if (c.startLocalDateGte !== undefined && e.schedule.start.localDate < c.startLocalDateGte) return false;
    if (c.startLocalDateLt !== undefined && !(e.schedule.start.localDate < c.startLocalDateLt)) return false;
    if (c.updatedSince !== undefined && updatedAtOf(e) < utcMicros(c.updatedSince)) return false;
    const sort = c.sort ?? 'startLocalDate';
    if ((sort === 'startInstant' || sort === '-startInstant') && start === null) return false;
    return true;
  });
}

/** Rule 4 of GET /v1/events: the five orders, publicId ascending (bytewise) breaking every tie. */
export function modelCompare(sort: Sort): (a: EventInput, b: EventInput) => number {
  const id = (a: EventInput, b: EventInput) => compareBytes(a.publicId, b.publicId);
  switch (sort) {
    case 'startLocalDate':
    case '-startLocalDate': {
      const dir = sort === 'startLocalDate' ? 1 : -1;
      return (a, b) => {
        const byDate = cmp(a.schedule.start.localDate, b.schedule.start.localDate) * dir;
        if (byDate) return byDate;
        const ia = startInstantOf(a);
        const ib = startInstantOf(b);
        // within a date, timed Events precede date-only Events in both directions
        if (ia === null || ib === null) return (ia === null ? 1 : 0) - (ib === null ? 1 : 0) || id(a, b);
        return cmp(ia, ib) * dir || id(a, b);
      };
    }
    case 'startInstant':
    case '-startInstant': {
      const dir = sort === 'startInstant' ? 1 : -1;
      return (a, b) => cmp(startInstantOf(a)!, startInstantOf(b)!) * dir || id(a, b);
    }
    case 'updatedAt':
      return (a, b) => cmp(updatedAtOf(a), updatedAtOf(b)) || id(a, b);
  }
}

/** The complete ordered answer: the publicIds a full traversal must yield. */
export function modelEvents(cat: Catalogue, c: ModelControls, now: Date): string[] {
  return modelFilter(cat, c, now)
    .sort(modelCompare(c.sort ?? 'startLocalDate'))
    .map((e) => e.publicId);
}

// ---------------------------------------------------------------------------------------------
// Projection (spec: Resources › Event and its parts)

export const DEFAULT_FIELDS = ['publicId', 'slug', 'name', 'schedule', 'administrativeStateCode', 'profileMedia', 'artists', 'venues'] as const;
export const ALL_FIELDS = [
  ...DEFAULT_FIELDS,
  'updatedAt',
  'description',
  'eventTypeCode',
  'digitalLocations',
  'links',
  'ticketLinks',
  'directEventSeries',
  'editionPrograms',
] as const;
export type Field = (typeof ALL_FIELDS)[number];

function media(m: MediaInput | undefined): Record<string, unknown> | null {
  if (!m || !isActive(m) || m.status !== 'ready') return null;
  return {
    publicId: m.publicId,
    src: m.src,
    thumbnailSrc: m.thumbnailSrc ?? null,
    altText: m.altText ?? null,
    width: m.width ?? null,
    height: m.height ?? null,
  };
}

function boundary(b: Boundary): Record<string, unknown> {
  return b.precision === 'date'
    ? { precision: 'date', localDate: b.localDate }
    : { precision: 'date-time', localDate: b.localDate, localTime: b.localTime, instant: b.instant };
}

const urls = (list: { url: string; label?: string | null }[] | undefined) => (list ?? []).map((u) => ({ url: u.url, label: u.label ?? null }));

export function modelArtistItem(cat: Catalogue, a: ArtistInput, rich: boolean): Record<string, unknown> {
  const profile = (a.profileMediaIds ?? []).map((id) => media(cat.media.get(id))).find((m) => m !== null) ?? null;
  const item: Record<string, unknown> = { publicId: a.publicId, slug: a.slug, name: a.name, profileMedia: profile };
  if (rich) item.description = a.description ?? null;
  return item;
}

export function modelLocation(v: VenueInput): Record<string, unknown> {
  const a = v.address ?? null;
  if (a === null && !v.coordinates) return { stateCode: 'tba' };
  const place = { locality: a?.locality ?? null, countryName: a?.countryName ?? null, countryCode: a?.countryCode ?? null };
  if (a?.formattedAddress) return { stateCode: 'formatted', formattedAddress: a.formattedAddress, ...place };
  return { stateCode: 'coordinate-only', ...place };
}

export function modelVenueItem(cat: Catalogue, v: VenueInput, rich: boolean): Record<string, unknown> {
  const item: Record<string, unknown> = {
    publicId: v.publicId,
    slug: v.slug,
    name: v.name,
    statusCode: v.statusCode,
    location: modelLocation(v),
    profileMedia: media(v.profileMediaId ? cat.media.get(v.profileMediaId) : undefined),
  };
  if (rich) {
    item.description = v.description ?? null;
    item.capacity = v.capacity ?? null;
    item.contact = { email: v.contact?.email ?? null, phoneNumber: v.contact?.phoneNumber ?? null };
    item.publishedCoordinates =
      v.publishCoordinates && v.coordinates ? { latitude: v.coordinates.latitude, longitude: v.coordinates.longitude } : null;
    item.links = urls(v.links);
  }
  return item;
}

export function modelEvent(
  cat: Catalogue,
  e: EventInput,
  fields: readonly Field[],
  include: readonly ('artists' | 'venues')[],
  now: Date,
): Record<string, unknown> {
  const out: Record<string, unknown> = { publicId: e.publicId };
  const has = (f: Field) => fields.includes(f);
  if (has('slug')) out.slug = e.slug;
  if (has('name')) out.name = e.name;
  if (has('schedule')) {
    const { phase, basis } = modelPhase(e.schedule, now);
    const s: Record<string, unknown> = { referenceTimeZoneId: e.schedule.referenceTimeZoneId, start: boundary(e.schedule.start) };
    if (e.schedule.end) s.end = boundary(e.schedule.end);
    s.temporalPhaseCode = phase;
    s.temporalPhaseBasisCode = basis;
    out.schedule = s;
  }
  if (has('administrativeStateCode')) out.administrativeStateCode = e.administrativeStateCode;
  if (has('profileMedia')) out.profileMedia = media(e.profileMediaId ? cat.media.get(e.profileMediaId) : undefined);
  if (has('artists')) {
    const all = cat.eventArtists(e);
    out.artists = {
      items: all.slice(0, 5).map((a) => modelArtistItem(cat, a, include.includes('artists'))),
      isComplete: all.length <= 5,
      href: `/v1/events/${e.publicId}/artists`,
    };
  }
  if (has('venues')) {
    const all = cat.eventVenues(e);
    out.venues = {
      items: all.slice(0, 5).map((v) => modelVenueItem(cat, v, include.includes('venues'))),
      isComplete: all.length <= 5,
      href: `/v1/events/${e.publicId}/venues`,
    };
  }
  if (has('updatedAt')) out.updatedAt = updatedAtOf(e);
  if (has('description')) out.description = e.description ?? null;
  if (has('eventTypeCode')) out.eventTypeCode = e.eventTypeCode ?? null;
  if (has('digitalLocations')) out.digitalLocations = (e.digitalLocations ?? []).map((d) => ({ url: d.url, label: d.label ?? null, kindCode: d.kindCode }));
  if (has('links')) out.links = urls(e.links);
  if (has('ticketLinks')) out.ticketLinks = urls(e.ticketLinks);
  if (has('directEventSeries')) {
    out.directEventSeries = cat.directSeries(e).map((s) => ({ publicId: s.publicId, slug: s.slug, name: s.name, structureCode: s.structureCode }));
  }
  if (has('editionPrograms')) {
    out.editionPrograms = cat.editionPrograms(e).map(({ series, edition }) => ({
      series: { publicId: series.publicId, slug: series.slug, name: series.name },
      edition: { publicId: edition.publicId, slug: edition.slug, name: edition.name },
    }));
  }
  return out;
}
