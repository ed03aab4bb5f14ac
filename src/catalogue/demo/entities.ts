/**
 * The demo catalogue's entities, each generated from its own seeded generator so any entity
 * can be produced on demand: nothing but the (small) Series table is kept in memory.
 *
 * Proportions for N Events: ~N/4 Artists, ~N/20 Venues, ~N/200 Series (half direct, half
 * editioned with 1-4 yearly Editions), ~0.6·N media items. About 3% of every kind is inactive.
 */
import type { ArtistInput, EditionInput, EventInput, MediaInput, SeriesInput, UrlEntryInput, VenueInput } from '../document.js';
import {
  BAND_ADJECTIVES, BAND_NOUNS, CITIES, DESCRIPTIONS, DIRECT_SERIES_PATTERNS, DJ_PREFIXES, FAMOUS_ARTISTS, FAMOUS_VENUES,
  FESTIVAL_KINDS, FESTIVAL_NAMES, FESTIVAL_WORDS, FIRST_NAMES, LAST_NAMES, NON_LATIN_ACTS, TOUR_WORDS,
  VENUE_PATTERNS, VENUE_WORDS, type City,
} from './data.js';
import { demoEvent } from './events.js';
import { Random, demoPublicId, idPrefix } from './random.js';
import { slugify } from './slug.js';
import { addDays } from './time.js';

const INACTIVE = 0.03;
const MAX_EDITIONS = 4;

export interface DemoCounts {
  readonly events: number;
  readonly artists: number;
  readonly venues: number;
  readonly series: number;
  readonly media: number;
}

export function demoCounts(events: number): DemoCounts {
  return {
    events,
    artists: Math.max(8, Math.round(events / 4)),
    venues: Math.max(4, Math.round(events / 20)),
    series: Math.max(2, Math.round(events / 200)),
    media: Math.max(10, Math.round(events * 0.6)),
  };
}

export interface EditionInfo {
  readonly index: number;
  readonly year: number;
  readonly start: string;
  readonly days: number;
  readonly venues: number[];
}
export interface SeriesInfo {
  readonly structure: 'direct' | 'editioned';
  readonly name: string;
  readonly slug: string;
  readonly editions: EditionInfo[];
}

export class DemoCatalogue {
  readonly counts: DemoCounts;
  private readonly prefixes: Record<string, string>;
  readonly anchorYear: number;
  private readonly seriesCache = new Map<number, SeriesInfo>();

  constructor(
    readonly seed: string,
    events: number,
    /** "today" of the catalogue: Events spread over the years around it */
    readonly anchorDate: string,
  ) {
    this.counts = demoCounts(events);
    this.anchorYear = Number(anchorDate.slice(0, 4));
    this.prefixes = Object.fromEntries(
      ['media', 'artist', 'venue', 'series', 'edition', 'event'].map((k) => [k, idPrefix(seed, k)]),
    );
  }

  rng(kind: string, index: number, part = ''): Random {
    return new Random(`${this.seed}/${kind}/${index}${part}`);
  }

  mediaId(i: number): string { return demoPublicId(this.prefixes.media!, i); }
  artistId(i: number): string { return demoPublicId(this.prefixes.artist!, i); }
  venueId(i: number): string { return demoPublicId(this.prefixes.venue!, i); }
  seriesId(i: number): string { return demoPublicId(this.prefixes.series!, i); }
  editionId(series: number, k: number): string { return demoPublicId(this.prefixes.edition!, series * MAX_EDITIONS + k); }
  eventId(i: number): string { return demoPublicId(this.prefixes.event!, i); }

  randomMedia(r: Random): string { return this.mediaId(r.int(0, this.counts.media - 1)); }

  links(r: Random, slug: string, max: number): UrlEntryInput[] {
    // only the entries drawn are written (most Events draw none: their texts were built for nothing)
    const count = r.int(0, max);
    const links: UrlEntryInput[] = [];
    for (let k = 0; k < count; k++) links.push(hostLink(k % HOST_LINKS, slug));
    return links;
  }

  authoring(r: Random): EventInput['authoring'] {
    if (!r.chance(0.8)) return undefined;
    return { revision: r.int(1, 40), actors: [r.pick(['editor-ana', 'editor-søren', 'import-bot', 'editor-yuki'])], createdAt: `${this.anchorYear - r.int(1, 5)}-01-15T09:30:00Z` };
  }

  media(i: number): MediaInput {
    const r = this.rng('media', i);
    const publicId = this.mediaId(i);
    const status = r.weighted([['ready', 85], ['pending', 10], ['failed', 5]] as const);
    const [width, height] = r.pick([[1600, 900], [1200, 1200], [800, 1000], [3000, 2000], [640, 640]] as const);
    const ready = status === 'ready';
    const m: MediaInput = {
      publicId,
      status,
      src: ready ? `https://media.lineup.example/${publicId}/original.jpg` : null,
      thumbnailSrc: ready && r.chance(0.8) ? `https://media.lineup.example/${publicId}/thumb.jpg` : null,
      altText: ready && r.chance(0.7) ? r.pick(['Live on stage', 'Portrait in black and white', 'Crowd at sunset', 'Poster — affiche', 'ステージ写真']) : null,
      width: ready && r.chance(0.95) ? width : null,
      height: ready && r.chance(0.95) ? height : null,
      originalFilename: `IMG_${r.int(1000, 9999)}.JPG`,
      uploadName: `upload-${r.hex(12)}`,
      storageKey: `media/${publicId.slice(-2)}/${publicId}`,
      blurDataUrl: ready ? `data:image/jpeg;base64,${r.hex(24)}` : null,
    };
    if (r.chance(INACTIVE)) m.active = false;
    return m;
  }

  /** Name of Artist j: the first draws of its generator. */
  artistName(j: number): string {
    return this.artistNaming(j, this.rng('artist', j))[0];
  }

  /**
   * Name of Artist j and its slug, the slug undefined where it is the name's (`slugify(name)-j`):
   * an Event asks for its headliner's name only, and slugifying it there would be wasted work in
   * every Event.
   */
  private artistNaming(j: number, r: Random): readonly [name: string, slug: string | undefined] {
    const famous = FAMOUS_ARTISTS[j];
    if (famous) return [famous[0], famous[1]];
    const kind = r.weighted([['person', 40], ['band', 35], ['non-latin', 12], ['dj', 13]] as const);
    if (kind === 'non-latin') {
      const [name, slug] = r.pick(NON_LATIN_ACTS);
      return [name, `${slug}-${j}`];
    }
    const name =
      kind === 'person' ? `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`
      : kind === 'band' ? `${r.chance(0.5) ? 'The ' : ''}${r.pick(BAND_ADJECTIVES)} ${r.pick(BAND_NOUNS)}`
      : `${r.pick(DJ_PREFIXES)} ${r.pick(FIRST_NAMES)}`;
    return [name, undefined];
  }

  artist(j: number): ArtistInput {
    const r = this.rng('artist', j);
    const [name, named] = this.artistNaming(j, r);
    const slug = named ?? `${slugify(name)}-${j}`;
    const media = r.weighted([[0, 25], [1, 70], [2, 3], [3, 2]] as const);
    const a: ArtistInput = {
      publicId: this.artistId(j),
      slug,
      name,
      description: r.chance(0.6) ? `${name}: ${r.pick(DESCRIPTIONS)}` : null,
      profileMediaIds: Array.from({ length: media }, () => this.randomMedia(r)),
      links: this.links(r, slug, 3),
      authoring: this.authoring(r),
    };
    if (r.chance(INACTIVE)) a.active = false;
    return a;
  }

  /** City and name of Venue k: the first draws of its generator. */
  venueBasics(k: number, r = this.rng('venue', k)): [City, string] {
    const drawn = CITIES[r.skewed(CITIES.length, 1.3)]!;
    const famous = FAMOUS_VENUES[k];
    if (famous) return [CITIES.find((c) => c.locality === famous[1]) ?? drawn, famous[0]];
    return [drawn, r.pick(VENUE_PATTERNS).replace('{city}', drawn.locality).replace('{word}', r.pick(VENUE_WORDS))];
  }

  venue(k: number): VenueInput {
    const r = this.rng('venue', k);
    const [city, name] = this.venueBasics(k, r);
    const slug = `${slugify(name) || 'venue'}-${k}`;
    const state = r.weighted([['formatted', 80], ['coordinate-only', 12], ['tba', 8]] as const);
    const coordinates = state === 'coordinate-only' || (state === 'formatted' && r.chance(0.85))
      ? { latitude: round(city.latitude + (r.next() - 0.5) / 20), longitude: round(city.longitude + (r.next() - 0.5) / 20) }
      : null;
    // a few localities carry stray whitespace: the API's locality filter trims the stored value
    const locality = r.chance(0.02) ? ` ${city.locality} ` : city.locality;
    const v: VenueInput = {
      publicId: this.venueId(k),
      slug,
      name,
      description: r.chance(0.5) ? r.pick(DESCRIPTIONS) : null,
      statusCode: r.weighted([['operational', 88], ['on-hiatus', 7], ['permanently-closed', 5]] as const),
      capacity: r.chance(0.8) ? r.pick([80, 150, 350, 800, 1500, 2500, 6000, 15000, 45000]) + r.int(0, 50) : null,
      contact: r.weighted([
        [{ email: `info@${slug}.example`, phoneNumber: `+${r.int(1, 99)} ${r.int(100, 999)} ${r.int(1000, 9999)}` }, 60],
        [{ email: null, phoneNumber: `+${r.int(1, 99)} ${r.int(100000, 999999)}` }, 10],
        [{ email: `booking@${slug}.example`, phoneNumber: null }, 10],
        [null, 20],
      ]),
      address: state === 'tba' ? null : {
        formattedAddress: state === 'formatted' ? `${city.street} ${r.int(1, 250)}, ${city.postcode} ${city.locality}` : null,
        locality,
        countryName: city.countryName,
        countryCode: city.countryCode,
      },
      coordinates,
      publishCoordinates: coordinates !== null && r.chance(0.35),
      addressProvenance: state === 'tba' ? null : { source: r.pick(['geocoder', 'manual', 'import']), confidence: r.int(50, 100) / 100 },
      timeZoneSuggestion: r.chance(0.7) ? city.zone : null,
      profileMediaId: r.chance(0.6) ? this.randomMedia(r) : null,
      links: this.links(r, slug, 2),
      authoring: this.authoring(r),
    };
    if (r.chance(INACTIVE)) v.active = false;
    return v;
  }

  seriesInfo(j: number): SeriesInfo {
    let info = this.seriesCache.get(j);
    if (info) return info;
    const r = this.rng('series', j, '/info');
    const structure = j === 0 ? 'direct' : j === 1 ? 'editioned' : r.chance(0.5) ? 'direct' : 'editioned';
    let name: string;
    if (structure === 'editioned') {
      name = FESTIVAL_NAMES[j] ?? `${r.pick(FESTIVAL_WORDS)} ${r.pick(FESTIVAL_KINDS)} ${r.pick(CITIES).locality}`;
    } else {
      const artist = this.artistName(r.skewed(this.counts.artists));
      const [, venue] = this.venueBasics(r.int(0, this.counts.venues - 1));
      name = r.pick(DIRECT_SERIES_PATTERNS).replace('{artist}', artist).replace('{word}', r.chance(0.5) ? venue : r.pick(TOUR_WORDS));
    }
    const editions: EditionInfo[] = [];
    if (structure === 'editioned') {
      const count = r.int(1, MAX_EDITIONS);
      const month = r.int(3, 10);
      const day = r.int(1, 24);
      const home = r.int(0, this.counts.venues - 1);
      for (let k = 0; k < count; k++) {
        const year = this.anchorYear - count + 2 + k;
        const venues = [home, ...Array.from({ length: r.int(0, 2) }, () => r.int(0, this.counts.venues - 1))];
        editions.push({
          index: k, year, start: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
          days: r.int(1, 4), venues: [...new Set(venues)],
        });
      }
    }
    info = { structure, name, slug: `${slugify(name) || 'series'}-${j}`, editions };
    this.seriesCache.set(j, info);
    return info;
  }

  series(j: number): SeriesInput {
    const info = this.seriesInfo(j);
    const r = this.rng('series', j);
    const s: SeriesInput = {
      publicId: this.seriesId(j),
      slug: info.slug,
      name: info.name,
      description: r.chance(0.7) ? r.pick(DESCRIPTIONS) : null,
      structureCode: info.structure,
      profileMediaId: r.chance(0.7) ? this.randomMedia(r) : null,
      links: this.links(r, info.slug, 2),
      authoring: this.authoring(r),
    };
    if (r.chance(INACTIVE)) s.active = false;
    return s;
  }

  /** Edition `k` (its index in the Series' editions) of Series `j`. */
  edition(j: number, k: number): EditionInput {
    const info = this.seriesInfo(j);
    const e = info.editions[k]!;
    const r = this.rng('edition', j, `/${e.index}`);
    const ed: EditionInput = {
      publicId: this.editionId(j, e.index),
      seriesId: this.seriesId(j),
      slug: `${info.slug}-${e.year}`,
      name: `${info.name} ${e.year}`,
      startLocalDate: e.start,
      endLocalDate: e.days > 1 || r.chance(0.5) ? addDays(e.start, e.days - 1) : null,
      description: r.chance(0.5) ? r.pick(DESCRIPTIONS) : null,
      profileMediaId: r.chance(0.5) ? this.randomMedia(r) : null,
      links: this.links(r, `${info.slug}-${e.year}`, 2),
      venueIds: e.venues.map((v) => this.venueId(v)),
      authoring: this.authoring(r),
    };
    if (r.chance(INACTIVE)) ed.active = false;
    return ed;
  }

  event(i: number): EventInput {
    return demoEvent(this, i);
  }
}

/** The links an entity may draw, in order (`links`): label and URL from its slug. */
const HOST_LINKS = 4;
function hostLink(k: number, slug: string): UrlEntryInput {
  switch (k) {
    case 0: return { url: `https://${slug || 'lineup'}.example`, label: 'Official site' };
    case 1: return { url: `https://${slug || 'x'}.bandcamp.example`, label: 'Bandcamp' };
    case 2: return { url: `https://instagram.example/${slug}`, label: 'Instagram' };
    default: return { url: `http://archive.example/${slug}`, label: null };
  }
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
