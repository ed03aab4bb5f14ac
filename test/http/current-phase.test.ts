/**
 * `temporalPhaseCode=historical` newest first reads two branches (src/queries/phase.ts
 * `historicalBranches`); the last cases below are the second one's.
 *
 * `temporalPhaseCode=current` reads the Events whose span holds the request's time from their own
 * indexes (migrations 010 and 013, src/queries/phase.ts `currentBound`), then applies the phase
 * rule. The Events here stand at the edges of that bound: a local today one day behind the UTC
 * date (Pago Pago) and one day ahead (Kiritimati), long spans, instants that start exactly now or
 * ended a microsecond ago, spans of instants just within and just over 24 hours, and local dates
 * that disagree with their instants (allowed by the document format: the instants decide the
 * `exact` rule, the dates the others). Every order must return
 * exactly the Events projected current, on both engines.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { Boundary, CatalogueDocument } from '../../src/catalogue/document.js';
import { importCatalogue } from '../../src/catalogue/importer.js';
import { engines, serveForSuite } from '../helper.js';

// 2025-07-01T10:30Z: Pago Pago (UTC-11) is at 06-30 23:30, Kiritimati (UTC+14) at 07-02 00:30
const NOW = new Date('2025-07-01T10:30:00.000Z');
const dt = (localDate: string, localTime: string, instant: string): Boundary => ({ precision: 'date-time', localDate, localTime, instant });
const d = (localDate: string): Boundary => ({ precision: 'date', localDate });

const CASES: [id: string, zone: string, start: Boundary, end: Boundary | null, current: boolean][] = [
  ['EvPagoToday1', 'Pacific/Pago_Pago', d('2025-06-30'), null, true], // local today = UTC date - 1
  ['EvPagoTmrw01', 'Pacific/Pago_Pago', d('2025-07-01'), null, false],
  ['EvKiriToday1', 'Pacific/Kiritimati', d('2025-07-02'), null, true], // local today = UTC date + 1
  ['EvKiriYday01', 'Pacific/Kiritimati', d('2025-07-01'), null, false],
  ['EvPagoOpen01', 'Pacific/Pago_Pago', dt('2025-06-30', '20:00', '2025-06-30T20:00:00-11:00'), null, true], // inferred, local today 06-30
  ['EvKiriOpen01', 'Pacific/Kiritimati', dt('2025-07-02', '00:05', '2025-07-02T00:05:00+14:00'), null, true],
  ['EvLongSpan01', 'Europe/Paris', d('2025-04-01'), d('2025-09-30'), true],
  ['EvLongPast01', 'Europe/Paris', d('2025-04-01'), d('2025-06-29'), false],
  ['EvLongTimed1', 'UTC', dt('2025-01-01', '00:00', '2025-01-01T00:00:00Z'), dt('2025-12-31', '00:00', '2025-12-31T00:00:00Z'), true],
  ['EvStartsNow1', 'UTC', dt('2025-07-01', '10:30', '2025-07-01T10:30:00Z'), dt('2025-07-01', '11:00', '2025-07-01T11:00:00Z'), true],
  ['EvEndedJust1', 'UTC', dt('2025-07-01', '09:00', '2025-07-01T09:00:00Z'), dt('2025-07-01', '10:29', '2025-07-01T10:29:59.999999Z'), false],
  // instants 24 hours apart or less are found from their start (migration 013), longer ones from their span
  ['EvDay24h0001', 'UTC', dt('2025-06-30', '10:31', '2025-06-30T10:31:00Z'), dt('2025-07-01', '10:31', '2025-07-01T10:31:00Z'), true],
  ['EvDay24hEnd1', 'UTC', dt('2025-06-30', '10:30', '2025-06-30T10:30:00Z'), dt('2025-07-01', '10:30', '2025-07-01T10:30:00Z'), false],
  ['EvDay30h0001', 'UTC', dt('2025-06-30', '04:00', '2025-06-30T04:00:00Z'), dt('2025-07-01', '10:31', '2025-07-01T10:31:00Z'), true],
  // local dates far from the instants: the instants decide
  ['EvDatesOff01', 'UTC', dt('2020-01-01', '10:00', '2025-07-01T10:00:00Z'), dt('2020-01-01', '11:00', '2025-07-01T11:00:00Z'), true],
  ['EvDatesOff02', 'UTC', dt('2025-07-01', '10:00', '2020-07-01T10:00:00Z'), dt('2025-07-01', '11:00', '2020-07-01T11:00:00Z'), false],
  // no instant at the end: the dates decide, whatever the start instant says
  ['EvMixedOff01', 'UTC', dt('2025-06-30', '10:00', '2030-06-30T10:00:00Z'), d('2025-07-02'), true],
  ['EvFarFuture1', 'UTC', d('2031-01-01'), null, false],
  ['EvFarPast001', 'UTC', d('2001-01-01'), d('2001-01-02'), false],
  // historical, with a local start date long after what has passed (historical's second branch)
  ['EvLateDate01', 'UTC', dt('2026-01-01', '10:00', '2025-06-01T10:00:00Z'), null, false],
  ['EvLateDate02', 'UTC', dt('2026-02-01', '10:00', '2025-06-01T10:00:00Z'), dt('2026-02-01', '11:00', '2025-06-02T11:00:00Z'), false],
  // an end date before its start date: upcoming (the calendar rule asks the start date first)
  ['EvEndBefore1', 'UTC', d('2026-03-01'), d('2025-06-01'), false],
];

// a profile media on every other Event: the page then joins media (after its cut, for current)
const MEDIA = 'MdCurrent001';
const catalogue: CatalogueDocument = {
  media: [{ publicId: MEDIA, status: 'ready', src: 'https://img.example/c.jpg', width: 10, height: 10 }],
  events: CASES.map(([publicId, zone, start, end], i) => ({
    publicId,
    slug: `event-${i}`,
    name: `Event ${publicId}`,
    administrativeStateCode: 'scheduled' as const,
    schedule: { referenceTimeZoneId: zone, start, ...(end === null ? {} : { end }) },
    updatedAt: `2024-01-${String(i + 1).padStart(2, '0')}T00:00:00.000000Z`,
    profileMediaId: i % 2 === 0 ? MEDIA : null,
  })),
};

for (const engine of engines()) {
  describe(`temporalPhaseCode=current and historical at the edges of their bounds (${engine.name})`, () => {
    const suite = serveForSuite(engine, {}, { clock: () => NOW, prepare: (db) => importCatalogue(db, Readable.from([JSON.stringify(catalogue)])) });

    /** The publicIds of every page of `temporalPhaseCode=phase` in the order `sort`, two per page. */
    async function filtered(phase: string, sort: string, fields = 'name'): Promise<string[]> {
      const ids: string[] = [];
      let path: string | null = `/v1/events?temporalPhaseCode=${phase}&sort=${sort}&limit=2&fields=${fields}`;
      while (path !== null) {
        const page = await suite.server.json(path);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        for (const e of page.body.data) {
          const i = CASES.findIndex((c) => c[0] === e.publicId);
          if (fields.includes('profileMedia')) assert.equal(e.profileMedia?.publicId ?? null, i % 2 === 0 ? MEDIA : null, e.publicId);
        }
        ids.push(...page.body.data.map((e: any) => e.publicId));
        path = page.body.links.next;
      }
      return ids;
    }

    it('every order returns exactly the Events projected current, page by page', async () => {
      const all = await suite.server.json('/v1/events?limit=50&fields=schedule');
      assert.equal(all.status, 200);
      const projected = new Map<string, string>(all.body.data.map((e: any) => [e.publicId, e.schedule.temporalPhaseCode]));
      for (const [id, , , , current] of CASES) assert.equal(projected.get(id) === 'current', current, `${id} is ${projected.get(id)}`);
      const want = CASES.filter((c) => c[4]).map((c) => c[0]);
      for (const sort of ['startLocalDate', '-startLocalDate', 'startInstant', 'updatedAt']) {
        const ids = await filtered('current', sort);
        const expected = sort === 'startInstant' ? want.filter((id) => CASES.find((c) => c[0] === id)![2].precision === 'date-time') : want;
        assert.deepEqual(new Set(ids), new Set(expected), `sort=${sort}`);
        assert.equal(ids.length, expected.length, `sort=${sort}: no Event twice`);
        // with the profile media (joined after the page is cut): the same Events in the same order
        assert.deepEqual(await filtered('current', sort, 'name,profileMedia'), ids, `sort=${sort} with profileMedia`);
      }
    });

    it('historical, newest first and oldest first: exactly the Events projected historical', async () => {
      const all = await suite.server.json('/v1/events?limit=50&fields=schedule');
      const want = all.body.data.filter((e: any) => e.schedule.temporalPhaseCode === 'historical').map((e: any) => e.publicId);
      for (const id of ['EvLateDate01', 'EvLateDate02', 'EvFarPast001']) assert.ok(want.includes(id), `${id} is historical`);
      assert.ok(!want.includes('EvEndBefore1'));
      for (const sort of ['-startLocalDate', 'startLocalDate']) {
        const ids = await filtered('historical', sort);
        assert.deepEqual(new Set(ids), new Set(want), `sort=${sort}`);
        assert.equal(ids.length, want.length, `sort=${sort}: no Event twice`);
      }
    });
  });
}
