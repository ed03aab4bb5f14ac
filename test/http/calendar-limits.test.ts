/**
 * Extension: calendar feeds, their limits. A feed lists at most 500 Events
 * to come (upcoming or current: the first 500 in start order) and at most 500 of the last 30 days
 * (the most recent 500); an Event whose last local day is 30 days before its local today is still
 * in, one of 31 days is not.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import ICAL from 'ical.js';
import type { CatalogueDocument } from '../../src/catalogue/document.js';
import { importCatalogue } from '../../src/catalogue/importer.js';
import { FEED_MAX_AHEAD, FEED_MAX_RECENT, FEED_RECENT_DAYS } from '../../src/queries/calendar.js';
import { engines, serveForSuite } from '../helper.js';

const NOW = new Date('2026-03-15T12:00:00Z');
const DAY = 86_400_000;
const day = (offset: number) => new Date(NOW.getTime() + offset * DAY).toISOString().slice(0, 10);
const MANY = 'arManyEvents';
const EDGES = 'arDayThirty1';

interface Planned {
  readonly id: string;
  readonly artist: string;
  readonly date: string;
  readonly zone?: string;
}
// 503 Events to come and 503 of the last 30 days (the day before down to 29 days before), several a day
const ahead: Planned[] = Array.from({ length: FEED_MAX_AHEAD + 3 }, (_, i) => ({ id: `EvAhead${String(i).padStart(5, '0')}`, artist: MANY, date: day(1 + (i % 40)) }));
const recent: Planned[] = Array.from({ length: FEED_MAX_RECENT + 3 }, (_, i) => ({ id: `EvAgo${String(i).padStart(7, '0')}`, artist: MANY, date: day(-1 - (i % 29)) }));
// the 30-day edge, in the Event's own zone (Kiritimati's today is already the next UTC day)
const edges: Planned[] = [
  { id: 'EvDay30Utc01', artist: EDGES, date: day(-FEED_RECENT_DAYS), zone: 'UTC' },
  { id: 'EvDay31Utc01', artist: EDGES, date: day(-FEED_RECENT_DAYS - 1), zone: 'UTC' },
  { id: 'EvDay30Kiri1', artist: EDGES, date: day(-FEED_RECENT_DAYS + 1), zone: 'Pacific/Kiritimati' },
  { id: 'EvDay31Kiri1', artist: EDGES, date: day(-FEED_RECENT_DAYS), zone: 'Pacific/Kiritimati' },
];
const planned = [...ahead, ...recent, ...edges];

const catalogue: CatalogueDocument = {
  artists: [MANY, EDGES].map((publicId) => ({ publicId, slug: publicId.toLowerCase(), name: publicId, updatedAt: '2026-01-01T00:00:00.000000Z' })),
  events: planned.map((e, i) => ({
    publicId: e.id,
    slug: `event-${i}`,
    name: `Event ${e.id}`,
    administrativeStateCode: 'scheduled' as const,
    schedule: { referenceTimeZoneId: e.zone ?? 'UTC', start: { precision: 'date' as const, localDate: e.date } },
    artistIds: [e.artist],
    updatedAt: '2026-01-01T00:00:00.000000Z',
  })),
};

/** Start order of date-only Events: date, then publicId. */
const startOrder = (a: Planned, b: Planned) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

for (const engine of engines()) {
  describe(`calendar feed limits (${engine.name})`, () => {
    const suite = serveForSuite(engine, {}, { clock: () => NOW, prepare: (db) => importCatalogue(db, Readable.from([JSON.stringify(catalogue)])) });

    async function uids(artist: string): Promise<string[]> {
      const res = await suite.server.get(`/v1/artists/${artist}/calendar.ics`);
      assert.equal(res.status, 200);
      const root = new ICAL.Component(ICAL.parse(await res.text()));
      return root.getAllSubcomponents('vevent').map((v) => String(v.getFirstPropertyValue('uid')).replace(/@lineup$/, ''));
    }

    it('lists the first 500 Events to come and the most recent 500 of the last 30 days, in start order', async () => {
      const expected = [...[...recent].sort(startOrder).slice(-FEED_MAX_RECENT), ...[...ahead].sort(startOrder).slice(0, FEED_MAX_AHEAD)];
      assert.deepEqual(await uids(MANY), expected.map((e) => e.id));
    });

    it('keeps an Event whose last local day is 30 days before its local today, not one of 31', async () => {
      assert.deepEqual(await uids(EDGES), ['EvDay30Utc01', 'EvDay30Kiri1']);
    });
  });
}
