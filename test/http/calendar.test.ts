/**
 * Extension: calendar feeds. Every feed of the fixture catalogue (each
 * active Artist, Venue and Series of the Events fixture) is parsed with a different iCalendar
 * implementation (Mozilla's ical.js) and each VEVENT is compared with what the JSON API shows of
 * its Event; plus the edge cases (names with commas, semicolons, newlines and non-Latin scripts,
 * line folding at 75 octets, multi-day and date-only Events, unknown zones), 404/400, ETag/304,
 * HEAD and CORS.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ICAL from 'ical.js';
import type { CatalogueDocument } from '../../src/catalogue/document.js';
import { NOW, eventsCatalogue } from '../fixtures/events-catalogue.js';
import { importDoc, openEventsWorld, type EventsWorld } from '../fixtures/events-setup.js';
import { engines } from '../helper.js';

const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const DAY = 86_400_000;

/** The extra catalogue of edge cases, merged into the Events fixture. */
const EDGE_ARTIST = 'arEdgeCases1';
const EDGE_VENUE = 'veEdgeCases1';
const ZERO_LONGITUDE_VENUE = 'veEdgeZeroLo';
const ZERO_LATITUDE_VENUE = 'veEdgeZeroLa';
const longName = `Очень длинное название ${'日本語と, ; \\ '.repeat(12)}end`;
const edge: CatalogueDocument = {
  artists: [{ publicId: EDGE_ARTIST, slug: 'edge', name: 'Edge; Cases, Inc.', updatedAt: '2025-06-01T00:00:00.000000Z' }],
  venues: [
    {
      publicId: EDGE_VENUE,
      slug: 'edge-venue',
      name: 'Hall; One, Two',
      statusCode: 'operational',
      address: { formattedAddress: 'Rue 1, 75001 Paris; FR', locality: 'Paris', countryName: 'France', countryCode: 'FR' },
      coordinates: { latitude: 48.8566, longitude: 2.3522 },
      publishCoordinates: true,
      updatedAt: '2025-06-01T00:00:00.000000Z',
    },
    {
      publicId: 'veEdgeSecret',
      slug: 'edge-secret',
      name: 'Secret Spot',
      statusCode: 'operational',
      address: { formattedAddress: 'Hidden 2', locality: 'Lyon', countryName: 'France', countryCode: 'FR' },
      coordinates: { latitude: 45.76, longitude: 4.83 },
      publishCoordinates: false,
      updatedAt: '2025-06-01T00:00:00.000000Z',
    },
    // on the prime meridian and on the equator: a coordinate of exactly 0 is a coordinate
    ...[
      [ZERO_LONGITUDE_VENUE, 'Greenwich', { latitude: 51.4779, longitude: 0 }],
      [ZERO_LATITUDE_VENUE, 'Equator', { latitude: 0, longitude: 6.7 }],
    ].map(([publicId, name, coordinates]) => ({
      publicId: publicId as string,
      slug: (name as string).toLowerCase(),
      name: name as string,
      statusCode: 'operational' as const,
      address: { formattedAddress: null, locality: name as string, countryName: 'Nowhere', countryCode: null },
      coordinates: coordinates as { latitude: number; longitude: number },
      publishCoordinates: true,
      updatedAt: '2025-06-01T00:00:00.000000Z',
    })),
  ],
  events: [
    {
      publicId: 'EvEdgeComma1',
      slug: 'edge-1',
      name: 'Rock, Paper; Scissors\nLine two\\done',
      administrativeStateCode: 'scheduled',
      schedule: {
        referenceTimeZoneId: 'America/New_York',
        start: { precision: 'date-time', localDate: '2025-07-30', localTime: '22:00', instant: '2025-07-30T22:00:00-04:00' },
        end: { precision: 'date-time', localDate: '2025-08-01', localTime: '02:30', instant: '2025-08-01T02:30:00-04:00' },
      },
      artistIds: [EDGE_ARTIST],
      venueIds: [EDGE_VENUE],
      ticketLinks: [
        { url: 'https://tickets.example/rock?a=1,2;b', label: 'First' },
        { url: 'https://tickets.example/second', label: null },
      ],
      updatedAt: '2025-06-02T03:04:05.678901Z',
    },
    {
      publicId: 'EvEdgeLong01',
      slug: 'edge-2',
      name: longName,
      administrativeStateCode: 'cancelled',
      schedule: { referenceTimeZoneId: 'Asia/Tokyo', start: { precision: 'date', localDate: '2025-07-04' }, end: { precision: 'date', localDate: '2025-07-06' } },
      artistIds: [EDGE_ARTIST],
      venueIds: ['veEdgeSecret'],
      updatedAt: '2025-06-03T00:00:00.000000Z',
    },
    {
      publicId: 'EvEdgeMars01',
      slug: 'edge-3',
      name: 'Mars Night',
      administrativeStateCode: 'scheduled',
      schedule: {
        referenceTimeZoneId: 'Mars/Olympus_Mons',
        start: { precision: 'date-time', localDate: '2025-07-10', localTime: '20:00', instant: '2025-07-10T20:00:00+01:00' },
        end: { precision: 'date-time', localDate: '2025-07-10', localTime: '23:00', instant: '2025-07-10T23:00:00+01:00' },
      },
      artistIds: [EDGE_ARTIST],
      updatedAt: '2025-06-04T00:00:00.000000Z',
    },
    ...[
      ['EvEdgeZeroLo', ZERO_LONGITUDE_VENUE],
      ['EvEdgeZeroLa', ZERO_LATITUDE_VENUE],
    ].map(([publicId, venueId]) => ({
      publicId: publicId as string,
      slug: (publicId as string).toLowerCase(),
      name: `At ${venueId}`,
      administrativeStateCode: 'scheduled' as const,
      schedule: { referenceTimeZoneId: 'Europe/London', start: { precision: 'date' as const, localDate: '2025-07-20' } },
      venueIds: [venueId as string],
      updatedAt: '2025-06-06T00:00:00.000000Z',
    })),
    // a zone known by an alias of its canonical name: its TZID must be the one its VTIMEZONE names
    {
      publicId: 'EvEdgeAlias1',
      slug: 'edge-5',
      name: 'Link Zone',
      administrativeStateCode: 'scheduled',
      schedule: {
        referenceTimeZoneId: 'US/Pacific',
        start: { precision: 'date-time', localDate: '2025-07-12', localTime: '19:30', instant: '2025-07-12T19:30:00-07:00' },
      },
      artistIds: [EDGE_ARTIST],
      updatedAt: '2025-06-07T00:00:00.000000Z',
    },
    {
      publicId: 'EvEdgeOld001',
      slug: 'edge-4',
      name: 'Long Ago',
      administrativeStateCode: 'scheduled',
      schedule: { referenceTimeZoneId: 'Europe/Paris', start: { precision: 'date', localDate: '2025-05-01' } },
      artistIds: [EDGE_ARTIST],
      updatedAt: '2025-06-05T00:00:00.000000Z',
    },
  ],
};

type Json = Record<string, any>;

/** Today's date in a zone at NOW. */
const todayIn = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(NOW);
const minusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY).toISOString().slice(0, 10);
const plusDays = (date: string, days: number) => minusDays(date, -days);

/** Which Events the feed shows (the reference rule, from the JSON API's schedule). */
function inFeed(e: Json): boolean {
  const s = e.schedule;
  const utcToday = NOW.toISOString().slice(0, 10);
  switch (s.temporalPhaseCode) {
    case 'upcoming':
    case 'current':
      return true;
    case 'historical':
      return (s.end?.localDate ?? s.start.localDate) >= minusDays(todayIn(s.referenceTimeZoneId), 30);
    default:
      return s.start.localDate >= minusDays(utcToday, 30);
  }
}

/** The primary active Venue (decisions §5), else the first in relationship-route order. */
function primary(venues: Json[]): Json | null {
  const eligible = venues.filter((v) => v.location.locality && v.location.countryName);
  if (eligible.length > 0) {
    return eligible.sort((a, b) => bytewise(a.location.locality, b.location.locality) || bytewise(a.location.countryName, b.location.countryName) || bytewise(a.publicId, b.publicId))[0] ?? null;
  }
  return venues[0] ?? null;
}

for (const engine of engines()) {
  describe(`calendar feeds (${engine.name})`, () => {
    let world: EventsWorld;
    before(async () => {
      world = await openEventsWorld(engine);
      await importDoc(world.db, edge);
    });
    after(async () => world?.close());

    const all = async (path: string): Promise<Json[]> => {
      const out: Json[] = [];
      let next: string | null = path;
      while (next !== null) {
        const res = await world.server.json(next);
        assert.equal(res.status, 200, next);
        out.push(...res.body.data);
        next = res.body.links.next;
      }
      return out;
    };
    const venuesOf = new Map<string, Json[]>();
    const eventVenues = async (id: string) => {
      if (!venuesOf.has(id)) venuesOf.set(id, await all(`/v1/events/${id}/venues?fields=name,location,publishedCoordinates&limit=50`));
      return venuesOf.get(id) as Json[];
    };

    /** GETs a feed, checks the HTTP side and returns its text and parsed VEVENTs. */
    const feed = async (path: string) => {
      const res = await world.server.get(path);
      const text = await res.text();
      assert.equal(res.status, 200, `${path}: ${text.slice(0, 200)}`);
      assert.equal(res.headers.get('content-type'), 'text/calendar; charset=utf-8');
      assert.equal(res.headers.get('cache-control'), 'public, max-age=60');
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.ok(res.headers.get('x-request-id'));
      assert.match(res.headers.get('etag') ?? '', /^W\/".+"$/);
      // RFC 5545 §3.1: CRLF line ends, no line longer than 75 octets
      assert.ok(text.endsWith('\r\n'));
      for (const line of text.split('\r\n')) assert.ok(Buffer.byteLength(line, 'utf8') <= 75, `${path}: line of ${Buffer.byteLength(line)} octets: ${line}`);
      assert.ok(!/[^\r]\n/.test(text), 'bare LF');
      const root = new ICAL.Component(ICAL.parse(text));
      assert.equal(root.name, 'vcalendar');
      assert.equal(root.getFirstPropertyValue('version'), '2.0');
      for (const vtz of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(vtz);
      return { text, root, events: root.getAllSubcomponents('vevent'), etag: res.headers.get('etag') as string };
    };

    /** Compares one VEVENT with the JSON API's Event. */
    const compare = async (vevent: ICAL.Component, e: Json, root: ICAL.Component) => {
      const where = e.publicId;
      assert.equal(vevent.getFirstPropertyValue('uid'), `${e.publicId}@lineup`, where);
      assert.equal(vevent.getFirstPropertyValue('summary'), e.name, where);
      assert.equal(vevent.getFirstPropertyValue('status'), e.administrativeStateCode === 'cancelled' ? 'CANCELLED' : 'CONFIRMED', where);
      // `,` `;` `\` percent-encoded (src/present/calendar.ts: the writer would escape them as TEXT)
      const ticket = e.ticketLinks[0] === undefined ? null : e.ticketLinks[0].url.replace(/,/g, '%2C').replace(/;/g, '%3B').replace(/\\/g, '%5C');
      assert.equal(vevent.getFirstPropertyValue('url') ?? null, ticket, where);
      const updatedSeconds = e.updatedAt.slice(0, 19).replace(/[-:]/g, '') + 'Z';
      for (const name of ['dtstamp', 'last-modified']) {
        const v = vevent.getFirstPropertyValue(name) as ICAL.Time;
        assert.equal(v.toICALString(), updatedSeconds, `${where} ${name}`);
      }
      const sequence = Math.floor((Date.parse(e.updatedAt) - Date.UTC(2000, 0, 1)) / 1000);
      assert.equal(vevent.getFirstPropertyValue('sequence'), sequence, where);

      const s = e.schedule;
      const zones = root.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'));
      const start = vevent.getFirstProperty('dtstart') as ICAL.Property;
      const startValue = start.getFirstValue() as ICAL.Time;
      const end = vevent.getFirstProperty('dtend');
      const known = s.temporalPhaseCode !== 'indeterminate';
      if (s.start.precision === 'date') {
        assert.equal(startValue.isDate, true, where);
        assert.equal(startValue.toString(), s.start.localDate, where);
        if (s.end === undefined) assert.equal(end, null, `${where}: no end invented`);
        else assert.equal((end?.getFirstValue() as ICAL.Time).toString(), plusDays(s.end.localDate, 1), `${where}: exclusive DTEND`);
      } else if (known && s.referenceTimeZoneId === 'UTC') {
        // UTC needs no VTIMEZONE: the Z form
        assert.equal(start.getParameter('tzid'), undefined, where);
        assert.equal(startValue.toICALString(), `${s.start.localDate.replace(/-/g, '')}T${s.start.localTime.replace(':', '')}00Z`, where);
      } else if (known) {
        assert.equal(start.getParameter('tzid'), s.referenceTimeZoneId, where);
        assert.ok(zones.includes(s.referenceTimeZoneId), `${where}: its VTIMEZONE`);
        assert.equal(startValue.toString(), `${s.start.localDate}T${s.start.localTime}:00`, where);
        // the local time has minutes, the instant may have (fractional) seconds
        assert.ok(Math.abs(startValue.toJSDate().getTime() - Date.parse(s.start.instant)) < 60_000, `${where}: the VTIMEZONE gives the instant`);
        if (s.end === undefined) assert.equal(end, null, `${where}: no end invented`);
        else if (s.end.precision === 'date-time') {
          const endValue = end?.getFirstValue() as ICAL.Time;
          assert.equal(end?.getParameter('tzid'), s.referenceTimeZoneId, where);
          assert.equal(endValue.toString(), `${s.end.localDate}T${s.end.localTime}:00`, where);
          assert.ok(Math.abs(endValue.toJSDate().getTime() - Date.parse(s.end.instant)) < 60_000, where);
        } else {
          assert.equal((end?.getFirstValue() as ICAL.Time).toString(), `${plusDays(s.end.localDate, 1)}T00:00:00`, where);
        }
      } else {
        // unknown zone: the exact instant, in UTC
        assert.equal(start.getParameter('tzid'), undefined, where);
        assert.equal(startValue.zone?.tzid, 'UTC', where);
        // to the second (iCalendar has no fractions)
        assert.equal(startValue.toJSDate().getTime(), Math.floor(Date.parse(s.start.instant) / 1000) * 1000, where);
        if (s.end?.precision === 'date-time') assert.equal((end?.getFirstValue() as ICAL.Time).toJSDate().getTime(), Math.floor(Date.parse(s.end.instant) / 1000) * 1000, where);
        else assert.equal(end, null, where);
      }

      const venue = primary(await eventVenues(e.publicId));
      const location = vevent.getFirstPropertyValue('location');
      const geo = vevent.getFirstPropertyValue('geo') as number[] | null;
      if (venue === null) {
        assert.equal(location, null, where);
        assert.equal(geo, null, where);
      } else {
        const l = venue.location;
        const parts = [venue.name, ...(l.stateCode === 'formatted' ? [l.formattedAddress] : [l.locality, l.countryName])].filter((p) => p != null);
        assert.equal(location, parts.join(', '), where);
        const c = venue.publishedCoordinates;
        if (c === null) assert.equal(geo, null, `${where}: GEO only for published coordinates`);
        else assert.deepEqual(geo, [c.latitude, c.longitude], where);
      }
    };

    const parents = [
      ...(eventsCatalogue.artists ?? []).map((a) => ({ kind: 'artists', id: a.publicId, active: a.active !== false, context: 'artistId' })),
      ...(eventsCatalogue.venues ?? []).map((v) => ({ kind: 'venues', id: v.publicId, active: v.active !== false, context: 'venueId' })),
      ...(eventsCatalogue.series ?? []).map((s) => ({ kind: 'series', id: s.publicId, active: s.active !== false, context: 'seriesId' })),
      { kind: 'artists', id: EDGE_ARTIST, active: true, context: 'artistId' },
      { kind: 'venues', id: EDGE_VENUE, active: true, context: 'venueId' },
      { kind: 'venues', id: ZERO_LONGITUDE_VENUE, active: true, context: 'venueId' },
      { kind: 'venues', id: ZERO_LATITUDE_VENUE, active: true, context: 'venueId' },
    ];

    it('every feed of the fixture catalogue matches the JSON API, Event by Event (parsed by ical.js)', async () => {
      let compared = 0;
      for (const p of parents.filter((x) => x.active)) {
        const fields = 'name,schedule,administrativeStateCode,ticketLinks,updatedAt';
        const expected = (await all(`/v1/events?${p.context}=${p.id}&fields=${fields}&limit=50`)).filter(inFeed);
        const { events, root } = await feed(`/v1/${p.kind}/${p.id}/calendar.ics`);
        assert.deepEqual(
          events.map((v) => v.getFirstPropertyValue('uid')),
          expected.map((e) => `${e.publicId}@lineup`),
          `${p.kind} ${p.id}: the Events and their start order`,
        );
        for (const [i, vevent] of events.entries()) await compare(vevent, expected[i] as Json, root);
        compared += events.length;
      }
      assert.ok(compared > 40, `compared ${compared} VEVENTs`);
    });

    it('escapes commas, semicolons, backslashes and newlines, folds long non-Latin lines, and keeps unpublished coordinates out', async () => {
      const { text, events } = await feed(`/v1/artists/${EDGE_ARTIST}/calendar.ics`);
      const byUid = new Map(events.map((v) => [v.getFirstPropertyValue('uid'), v]));
      assert.deepEqual([...byUid.keys()], ['EvEdgeLong01@lineup', 'EvEdgeMars01@lineup', 'EvEdgeAlias1@lineup', 'EvEdgeComma1@lineup'], 'Long Ago (61 days ago) is not in the feed');
      assert.ok(text.includes('SUMMARY:Rock\\, Paper\\; Scissors\\nLine two\\\\done'));
      assert.equal(byUid.get('EvEdgeComma1@lineup')?.getFirstPropertyValue('summary'), 'Rock, Paper; Scissors\nLine two\\done');
      assert.equal(byUid.get('EvEdgeComma1@lineup')?.getFirstPropertyValue('url'), 'https://tickets.example/rock?a=1%2C2%3Bb');
      assert.equal(byUid.get('EvEdgeComma1@lineup')?.getFirstPropertyValue('location'), 'Hall; One, Two, Rue 1, 75001 Paris; FR');
      assert.deepEqual(byUid.get('EvEdgeComma1@lineup')?.getFirstPropertyValue('geo'), [48.8566, 2.3522]);
      // spans days: DTEND two local days later, in New York's zone
      assert.match(text, /DTSTART;TZID=America\/New_York:20250730T220000\r\nDTEND;TZID=America\/New_York:20250801T023000/);
      assert.ok(text.includes('BEGIN:VTIMEZONE\r\nTZID:America/New_York'));
      const long = byUid.get('EvEdgeLong01@lineup');
      assert.equal(long?.getFirstPropertyValue('summary'), longName);
      assert.ok(text.includes('SUMMARY:Очень'), 'non-Latin text is written as UTF-8');
      assert.ok(text.split('\r\n').filter((l) => l.startsWith(' ')).length >= 3, 'long lines are folded');
      // folding never splits a UTF-8 sequence: the raw bytes decode without replacement characters
      assert.ok(!text.includes('\uFFFD'));
      assert.equal(long?.getFirstPropertyValue('status'), 'CANCELLED');
      assert.match(text, /DTSTART;VALUE=DATE:20250704\r\nDTEND;VALUE=DATE:20250707/);
      assert.equal(long?.getFirstPropertyValue('location'), 'Secret Spot, Hidden 2');
      assert.equal(long?.getFirstPropertyValue('geo'), null);
      assert.ok(!text.includes('45.76') && !text.includes('4.83'), 'unpublished coordinates never appear');
      assert.match(text, /DTSTART:20250710T190000Z\r\nDTEND:20250710T220000Z/);
      assert.ok(!text.includes('Mars/Olympus_Mons'));
    });

    it('writes GEO for a coordinate of exactly 0 (prime meridian, equator)', async () => {
      for (const [venue, geo] of [[ZERO_LONGITUDE_VENUE, [51.4779, 0]], [ZERO_LATITUDE_VENUE, [0, 6.7]]] as const) {
        const { text, events } = await feed(`/v1/venues/${venue}/calendar.ics`);
        assert.equal(events.length, 1, venue);
        assert.deepEqual(events[0]?.getFirstPropertyValue('geo'), geo, venue);
        assert.equal(text.match(/^GEO:/gm)?.length, 1, venue);
      }
    });

    it('grows SEQUENCE whenever the marker advances, by seconds or by a microsecond, and only then', async () => {
      const sequence = async () => {
        const { events } = await feed(`/v1/venues/${EDGE_VENUE}/calendar.ics`);
        // ical.js types a value without `number`; SEQUENCE is an integer, so it is checked to be one
        const value: unknown = events[0]?.getFirstPropertyValue('sequence');
        assert.equal(typeof value, 'number');
        return { summary: events[0]?.getFirstPropertyValue('summary'), sequence: value as number };
      };
      const before = (await sequence()).sequence;
      const event = (edge.events ?? [])[0] as NonNullable<CatalogueDocument['events']>[number];
      // its marker was 2025-06-02T03:04:05.678901Z
      await importDoc(world.db, { events: [{ ...event, name: 'Renamed', updatedAt: '2025-06-02T03:04:05.678902Z' }] });
      assert.deepEqual(await sequence(), { summary: 'Renamed', sequence: before + 1 });
      await importDoc(world.db, { events: [{ ...event, name: 'Renamed', updatedAt: '2025-06-02T03:04:05.678902Z' }] });
      assert.deepEqual(await sequence(), { summary: 'Renamed', sequence: before + 1 }, 'the same marker again');
      await importDoc(world.db, { events: [{ ...event, name: 'Renamed again', updatedAt: '2025-06-02T03:04:07.000000Z' }] });
      assert.deepEqual(await sequence(), { summary: 'Renamed again', sequence: before + 2 + 2 });
      // without an updatedAt the import time is the marker when the Event changed, and stays when not
      const { updatedAt: _, ...implicit } = event;
      await importDoc(world.db, { events: [{ ...implicit, name: 'Renamed once more' }] });
      const stamped = await sequence();
      assert.equal(stamped.summary, 'Renamed once more');
      assert.ok(stamped.sequence > before + 4);
      await importDoc(world.db, { events: [{ ...implicit, name: 'Renamed once more' }] });
      assert.deepEqual(await sequence(), stamped, 'an unchanged Event keeps its marker');
    });

    it('answers 404 for missing, inactive or malformed parents and 400 for any query parameter', async () => {
      for (const p of parents.filter((x) => !x.active)) {
        const res = await world.server.json(`/v1/${p.kind}/${p.id}/calendar.ics`);
        assert.equal(res.status, 404, p.id);
        assert.equal(res.body.error.type, 'not_found');
        assert.equal(res.headers.get('cache-control'), 'no-store');
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      }
      for (const kind of ['artists', 'venues', 'series']) {
        assert.equal((await world.server.json(`/v1/${kind}/zzzzzzzzzzzz/calendar.ics`)).status, 404);
        assert.equal((await world.server.json(`/v1/${kind}/bad!/calendar.ics`)).status, 404);
      }
      const bad = await world.server.json(`/v1/artists/${EDGE_ARTIST}/calendar.ics?limit=5`);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.type, 'invalid_query');
    });

    it('reads a feed in one statement; only an empty feed asks for its parent (404 or an empty calendar)', async () => {
      let withEvents = 0;
      let empty = 0;
      for (const p of parents) {
        world.server.statements.length = 0;
        const res = await world.server.get(`/v1/${p.kind}/${p.id}/calendar.ics`);
        const text = await res.text();
        const names = world.server.statements.map((s) => s.name);
        const kind = p.kind === 'artists' ? 'artist' : p.kind === 'venues' ? 'venue' : 'series';
        if (!p.active) {
          assert.equal(res.status, 404, p.id);
          assert.deepEqual(names, [`calendar.${kind}`, `parent.${kind}`], `${p.id}: the feed statement, then the parent's`);
        } else if (text.includes('BEGIN:VEVENT')) {
          withEvents++;
          assert.deepEqual(names, [`calendar.${kind}`], `${p.id}: one statement`);
        } else {
          empty++;
          assert.equal(res.status, 200, p.id);
          assert.deepEqual(names, [`calendar.${kind}`, `parent.${kind}`], `${p.id}: an empty feed checks its parent`);
        }
      }
      assert.ok(withEvents > 0 && empty > 0, `both kinds of feed are exercised (${withEvents} with Events, ${empty} empty)`);
    });

    it('serves HEAD, 304 on a matching If-None-Match, and the CORS preflight', async () => {
      const path = `/v1/venues/${EDGE_VENUE}/calendar.ics`;
      const { etag } = await feed(path);
      const head = await world.server.get(path, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('etag'), etag);
      assert.equal(head.headers.get('content-type'), 'text/calendar; charset=utf-8');
      assert.equal(await head.text(), '');
      const again = await world.server.get(path, { headers: { 'If-None-Match': etag } });
      assert.equal(again.status, 304);
      assert.equal(await again.text(), '');
      assert.equal(again.headers.get('cache-control'), 'public, max-age=60');
      const pre = await world.server.get(path, { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' } });
      assert.equal(pre.status, 204);
      const post = await world.server.get(path, { method: 'POST' });
      assert.equal(post.status, 405);
    });
  });
}
