/**
 * Bounded reads whatever the stored data: an Event's complete membership collections
 * (directEventSeries, editionPrograms) hold at most 25 members; with 400 stored memberships per
 * Event, the statements read at most 26 rows per Event (enough to see the overflow, a sanitized
 * 500), for a detail (one id) and a page of Events alike, and the HTTP answer is that 500.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { CatalogueDocument } from '../../src/catalogue/document.js';
import { importCatalogue } from '../../src/catalogue/importer.js';
import { Reader } from '../../src/db/reader.js';
import { directSeriesStatement, editionProgramsStatement } from '../../src/queries/event-programs.js';

const MEMBERSHIP_READ_LIMIT = 26; // 25 members (Event rule 3) and one to see an overflow
import { engines, openTestDatabase, startServer, type TestDatabase, type TestServer } from '../helper.js';

const MANY = 400;
const pid = (prefix: string, n: number) => `${prefix}${String(n).padStart(12 - prefix.length, '0')}`;
const date = (localDate: string) => ({ referenceTimeZoneId: 'Europe/Berlin', start: { precision: 'date' as const, localDate } });

function catalogue(): CatalogueDocument {
  const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  return {
    series: [
      ...range(MANY).map((n) => ({ publicId: pid('sd', n), slug: `d-${n}`, name: `Direct ${String(n).padStart(3, '0')}`, structureCode: 'direct' as const })),
      { publicId: pid('se', 1), slug: 'editioned', name: 'Editioned', structureCode: 'editioned' as const },
    ],
    editions: range(MANY).map((n) => ({ publicId: pid('ed', n), seriesId: pid('se', 1), slug: `ed-${n}`, name: `Edition ${String(n).padStart(3, '0')}`, startLocalDate: '2024-06-01' })),
    events: [
      // 1, 2: overflowing; 3: exactly 25 of each; 4: none
      ...[1, 2].map((n) => ({ publicId: pid('ev', n), slug: `ev-${n}`, name: `Crowded ${n}`, administrativeStateCode: 'scheduled' as const, schedule: date('2024-05-01'), seriesIds: range(MANY).map((i) => pid('sd', i)), editionIds: range(MANY).map((i) => pid('ed', i)) })),
      { publicId: pid('ev', 3), slug: 'ev-3', name: 'Full', administrativeStateCode: 'scheduled' as const, schedule: date('2024-05-02'), seriesIds: range(25).map((i) => pid('sd', i)), editionIds: range(25).map((i) => pid('ed', i)) },
      { publicId: pid('ev', 4), slug: 'ev-4', name: 'Alone', administrativeStateCode: 'scheduled' as const, schedule: date('2024-05-03') },
    ],
  } as CatalogueDocument;
}

for (const engine of engines()) {
  describe(`membership reads are bounded per Event on ${engine.name}`, () => {
    let t: TestDatabase;
    let server: TestServer;
    let ids: Record<string, string>;
    before(async () => {
      t = await openTestDatabase(engine);
      await importCatalogue(t.db, Readable.from([JSON.stringify(catalogue())]), {});
      server = await startServer(t.db);
      const { rows } = await t.db.pool.query<{ id: string; public_id: string }>('SELECT id::text AS id, public_id FROM events');
      ids = Object.fromEntries(rows.map((r) => [r.public_id, r.id]));
    });
    after(async () => {
      await server.close();
      await t.drop();
    });

    const perOwner = (rows: { owner_id: string }[]) => {
      const counts = new Map<string, number>();
      for (const r of rows) counts.set(r.owner_id, (counts.get(r.owner_id) ?? 0) + 1);
      return counts;
    };

    it(`the statements read at most ${MEMBERSHIP_READ_LIMIT} rows per Event, in order, for one Event and for a page`, async () => {
      const reader = new Reader(t.db);
      const all = [1, 2, 3, 4].map((n) => ids[pid('ev', n)]!);
      for (const statement of [directSeriesStatement, editionProgramsStatement]) {
        for (const group of [[all[0]!], [all[2]!], all]) {
          const rows = await reader.rows<{ owner_id: string; name?: string; ed_name?: string }>(statement(group));
          const counts = perOwner(rows);
          assert.equal(counts.get(all[0]!) ?? 0, group.includes(all[0]!) ? 26 : 0);
          if (group.includes(all[1]!)) assert.equal(counts.get(all[1]!), 26);
          if (group.includes(all[2]!)) assert.equal(counts.get(all[2]!), 25);
          assert.equal(counts.get(all[3]!), undefined);
          // the first 26 in the collection's order
          const first = rows.filter((r) => r.owner_id === group[0]).map((r) => r.ed_name ?? r.name);
          assert.deepEqual(first, [...first].sort(), 'ordered');
          assert.equal(first[0], statement === directSeriesStatement ? 'Direct 001' : 'Edition 001');
        }
      }
    });

    it('an overflowing Event is a sanitized 500; exactly 25 members is served', async () => {
      for (const field of ['directEventSeries', 'editionPrograms']) {
        const crowded = await server.json(`/v1/events/${pid('ev', 1)}?fields=name,${field}`);
        assert.equal(crowded.status, 500, field);
        assert.equal(crowded.body.error.type, 'internal_error');
        const full = await server.json(`/v1/events/${pid('ev', 3)}?fields=name,${field}`);
        assert.equal(full.status, 200, field);
        assert.equal(full.body.data[field].length, 25);
        // on a page, read by the page statement (queries/event-carried.ts): the same 500
        const page = await server.json(`/v1/events?fields=name,${field}&limit=50`);
        assert.equal(page.status, 500, field);
        assert.equal(page.body.error.type, 'internal_error');
      }
    });
  });
}
