/**
 * Demo Events: every schedule shape (date-only, date-time with and without end, date end,
 * mixed), real and unknown time zones, instants written in UTC or with the zone's offset,
 * direct Series and Edition programs, cancelled (~4%) and inactive (~3%) Events, galleries,
 * ticket links and livestreams, dates spread over the years around the anchor date.
 */
import type { Boundary, EventInput, EventTypeCode } from '../document.js';
import { CITIES, DESCRIPTIONS, TOUR_WORDS, UNKNOWN_ZONES } from './data.js';
import type { DemoCatalogue } from './entities.js';
import type { Random } from './random.js';
import { slugify } from './slug.js';
import { addDays, addMinutes, instantOf } from './time.js';

export function demoEvent(demo: DemoCatalogue, i: number): EventInput {
  const r = demo.rng('event', i);
  const c = demo.counts;
  let venues = [r.skewed(c.venues, 1.5)];
  if (r.chance(0.08)) venues.push(r.int(0, c.venues - 1), r.int(0, c.venues - 1));
  let artists = draws(r.weighted([[1, 45], [2, 25], [3, 15], [4, 10], [6, 5]] as const), () => r.skewed(c.artists));
  let type: EventTypeCode | null = r.weighted([['concert', 62], ['dj-set', 13], ['livestream', 3], ['other', 7], [null, 15]] as const);
  let date = addDays(demo.anchorDate, r.weighted([
    [() => r.int(0, 540), 45], [() => -r.int(1, 1095), 45], [() => r.int(-2200, 2200), 10],
  ] as const)());
  const seriesIds: string[] = [];
  const editionIds: string[] = [];
  let festival: string | null = null;
  if (r.chance(0.2)) {
    const j = r.skewed(c.series, 1.2);
    const info = demo.seriesInfo(j);
    const edition = info.editions.length ? r.pick(info.editions) : null;
    if (!edition) seriesIds.push(demo.seriesId(j));
    else {
      editionIds.push(demo.editionId(j, edition.index));
      date = addDays(edition.start, r.int(0, edition.days - 1));
      venues = [r.pick(edition.venues)];
      artists = [...artists, ...draws(r.int(2, 8), () => r.skewed(c.artists))];
      type = 'festival-day';
      festival = `${info.name} ${edition.year}`;
    }
  }
  if (type === 'livestream' && r.chance(0.5)) venues = [];
  venues = distinct(venues);
  artists = distinct(artists);
  const headliner = demo.artistName(artists[0]!);
  const [city, venueName] = venues.length ? demo.venueBasics(venues[0]!) : [r.pick(CITIES), 'online'];
  const zone = r.chance(0.005) ? r.pick(UNKNOWN_ZONES) : city.zone;
  const name = festival
    ? r.chance(0.5) ? `${festival} — Day ${r.int(1, 4)}` : `${headliner} at ${festival}`
    : type === 'dj-set' ? `${headliner} (DJ set)`
    : plainName(r, demo, headliner, venueName, artists[1]);
  const slug = `${slugify(name) || 'event'}-${i}`;
  const e: EventInput = {
    publicId: demo.eventId(i),
    slug,
    name,
    description: r.chance(0.6) ? r.pick(DESCRIPTIONS) : null,
    eventTypeCode: type,
    administrativeStateCode: r.chance(0.04) ? 'cancelled' : 'scheduled',
    schedule: schedule(r, date, zone, type),
    profileMediaId: r.chance(0.5) ? demo.randomMedia(r) : null,
    galleryMediaIds: r.chance(0.06) ? draws(r.int(2, 5), () => demo.randomMedia(r)) : [],
    artistIds: artists.map((a) => demo.artistId(a)),
    venueIds: venues.map((v) => demo.venueId(v)),
    seriesIds,
    editionIds,
    links: demo.links(r, slug, 1),
    ticketLinks: r.chance(0.7) ? [{ url: `https://tickets.example/e/${demo.eventId(i)}`, label: r.pick(['Tickets', 'Billets', 'Entradas', null]) }] : [],
    digitalLocations: type === 'livestream'
      ? [{ url: `https://stream.example/live/${demo.eventId(i)}`, label: 'Watch live', kindCode: 'livestream' },
         ...(r.chance(0.5) ? [{ url: `https://stream.example/replay/${demo.eventId(i)}`, label: null, kindCode: 'stream-replay' as const }] : [])]
      : [],
    authoring: demo.authoring(r),
  };
  if (r.chance(0.03)) e.active = false;
  return e;
}

/** `count` values of `draw`, in order (what `Array.from({ length: count }, draw)` gives, by a plain loop). */
function draws<T>(count: number, draw: () => T): T[] {
  const values: T[] = [];
  for (let k = 0; k < count; k++) values.push(draw());
  return values;
}

/** `[...new Set(values)]` for the few values of one Event (a Set per list cost more than comparing them). */
function distinct(values: readonly number[]): number[] {
  const kept: number[] = [];
  for (const v of values) if (!kept.includes(v)) kept.push(v);
  return kept;
}

/**
 * The name of an Event neither a festival day nor a DJ set. Its draws are those of a weighted pick
 * among the four names written out (the tour word, then the second Artist when there is none,
 * then the pick), but only the name picked is written, and only it asks for a second Artist's name.
 */
function plainName(r: Random, demo: DemoCatalogue, headliner: string, venueName: string, second: number | undefined): string {
  const tour = r.pick(TOUR_WORDS);
  const other = second ?? r.skewed(demo.counts.artists);
  switch (r.weighted(PLAIN_NAMES)) {
    case 'headliner': return headliner;
    case 'live': return `${headliner} live at ${venueName}`;
    case 'tour': return `${headliner} — ${tour} Tour`;
    default: return `${headliner} & ${demo.artistName(other)}`;
  }
}
const PLAIN_NAMES = [['headliner', 40], ['live', 25], ['tour', 20], ['pair', 15]] as const;

function schedule(r: Random, date: string, zone: string, type: EventTypeCode | null): EventInput['schedule'] {
  const shape = r.weighted([
    ['timed', 35], ['timed+timed', 33], ['date', 14], ['date+date', 10], ['timed+date', 5], ['date+timed', 3],
  ] as const);
  const time = type === 'dj-set' ? r.pick(['22:00', '23:00', '23:30', '00:00', '01:00']) : r.pick(['18:00', '19:00', '19:30', '20:00', '20:30', '21:00']);
  const asOffset = r.chance(0.5);
  const timed = (d: string, t: string): Boundary => ({ precision: 'date-time', localDate: d, localTime: t, instant: instantOf(d, t, zone, asOffset) });
  const dated = (d: string): Boundary => ({ precision: 'date', localDate: d });
  const start = shape.startsWith('timed') ? timed(date, time) : dated(date);
  let end: Boundary | undefined;
  if (shape.endsWith('+timed')) {
    const [d, t] = addMinutes(date, time, r.pick([90, 120, 180, 240, 300]));
    end = timed(d, t);
  } else if (shape.endsWith('+date')) end = dated(addDays(date, r.int(1, 3)));
  return end ? { referenceTimeZoneId: zone, start, end } : { referenceTimeZoneId: zone, start };
}
