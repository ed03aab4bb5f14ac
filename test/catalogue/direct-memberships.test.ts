/**
 * A first import's Event Artists and Venues written by COPY from the lists resolved while reading
 * (src/catalogue/direct-memberships.ts), on both engines: the same rows — ids, members and
 * positions — as the merge's SQL writes with the option off, whatever the order of the document's
 * arrays (members before their Events, after them, or split around them), across batches; a
 * dangling reference (its list left to the SQL) is still the same problem and nothing is written;
 * a later import joins in SQL.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Collection } from '../../src/catalogue/document.js';
import { CatalogueError, importEntities, storeIsEmpty } from '../../src/catalogue/importer.js';
import type { CopyIn } from '../../src/db/copy.js';
import type { Database } from '../../src/db/database.js';
import { pid, resetCatalogue, storePerSuite, tableCounts, testEngines } from './support.js';

type Entity = readonly [Collection, unknown];

const ARTISTS = 40;
const VENUES = 12;
const EVENTS = 150;

const artist = (n: number): Entity => ['artists', { publicId: pid('art', n), slug: `a-${n}`, name: `Artist ${n}` }];
const venue = (n: number): Entity => ['venues', { publicId: pid('ven', n), slug: `v-${n}`, name: `Venue ${n}`, statusCode: 'operational' }];
/** Event n lists 0–4 distinct Artists and 0–2 Venues, in an order of its own. */
function event(n: number, extraArtist?: string): Entity {
  const artists = Array.from({ length: n % 5 }, (_, i) => pid('art', ((n * 7 + i * 13) % ARTISTS) + 1));
  const venues = Array.from({ length: n % 3 }, (_, i) => pid('ven', ((n * 5 + i * 7) % VENUES) + 1));
  return ['events', {
    publicId: pid('evt', n),
    slug: `e-${n}`,
    name: `Event ${n}`,
    administrativeStateCode: 'scheduled',
    schedule: { referenceTimeZoneId: 'Europe/Paris', start: { precision: 'date', localDate: '2026-05-01' } },
    artistIds: extraArtist === undefined ? artists : [...artists, extraArtist],
    venueIds: venues,
  }];
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const artists = (from: number, to: number) => range(from, to).map(artist);
const venues = (from: number, to: number) => range(from, to).map(venue);
const events = (from: number, to: number) => range(from, to).map((n) => event(n));

const ORDERS: Record<string, () => Entity[]> = {
  'members before their Events': () => [...artists(1, ARTISTS), ...venues(1, VENUES), ...events(1, EVENTS)],
  'Events before their members': () => [...events(1, EVENTS), ...venues(1, VENUES), ...artists(1, ARTISTS)],
  'members split around the Events': () => [
    ...artists(1, 20), ...venues(1, 6), ...events(1, 70), ...artists(21, ARTISTS), ...events(71, 110), ...venues(7, VENUES), ...events(111, EVENTS),
  ],
};

const MEMBERSHIPS = `SELECT 'artist' AS kind, l.event_id::text, e.public_id AS event, l.artist_id::text AS member_id, a.public_id AS member, l.position
    FROM event_artists l JOIN events e ON e.id = l.event_id JOIN artists a ON a.id = l.artist_id
  UNION ALL
  SELECT 'venue', l.event_id::text, e.public_id, l.venue_id::text, v.public_id, l.position
    FROM event_venues l JOIN events e ON e.id = l.event_id JOIN venues v ON v.id = l.venue_id
  ORDER BY 1, 3, 6`;

/** The store's Database with its COPYs recorded (the tables they wrote). */
function recording(db: Database): { db: Database; copied: string[] } {
  const copied: string[] = [];
  const copyIn: CopyIn = (client, table, columns, bytes) => {
    copied.push(table);
    return db.copyIn(client, table, columns, bytes);
  };
  return { db: { ...db, copyIn }, copied };
}

for (const engine of testEngines()) {
  describe(`a first import's Event Artists and Venues by COPY (${engine.name})`, () => {
    const store = storePerSuite(engine);

    const importOnce = async (entities: Entity[], direct: boolean) => {
      await resetCatalogue(store.db);
      const { db, copied } = recording(store.db);
      await importEntities(db, entities, { batchSize: 17, directMemberships: direct });
      return { rows: (await store.db.pool.query(MEMBERSHIPS)).rows, copied };
    };

    for (const [name, order] of Object.entries(ORDERS)) {
      test(`${name}: the same memberships as the SQL writes`, async () => {
        const sql = await importOnce(order(), false);
        const direct = await importOnce(order(), true);
        assert.ok(sql.rows.length > 200, `memberships: ${sql.rows.length}`);
        assert.deepEqual(direct.rows, sql.rows);
        assert.ok(!sql.copied.includes('event_artists'));
        // the lists are resolved once every batch is read, wherever their members are in the document
        assert.deepEqual([...new Set(direct.copied.filter((t) => t.startsWith('event_')))].sort(), ['event_artists', 'event_venues']);
      });
    }

    test('a dangling reference is the same problem either way, and nothing is written', async () => {
      const missing = pid('art', 999);
      const doc = () => [...artists(1, ARTISTS), ...venues(1, VENUES), ...events(1, 30), event(31, missing), ...events(32, 60)];
      const problems: string[][] = [];
      for (const direct of [true, false]) {
        await resetCatalogue(store.db);
        await assert.rejects(importEntities(store.db, doc(), { batchSize: 17, directMemberships: direct }), (err) => {
          assert.ok(err instanceof CatalogueError);
          problems.push(err.problems);
          return true;
        });
        assert.ok(Object.values(await tableCounts(store.db)).every((n) => n === 0));
      }
      assert.deepEqual(problems[0], problems[1]);
      assert.deepEqual(problems[0], [`event ${pid('evt', 31)}: artistIds[${31 % 5}]: unknown artist ${missing}`]);
    });

    test('only an import into a store without Events, Artists and Venues resolves lists', async () => {
      // (PGlite's pool has one connection: each check gives it back before the import takes it)
      const check = async () => {
        const client = await store.db.pool.connect();
        try {
          return await storeIsEmpty(client);
        } finally {
          client.release();
        }
      };
      assert.equal(await check(), true);
      await importEntities(store.db, artists(1, ARTISTS));
      assert.equal(await check(), false);
      // a second import's lists are joined in SQL, onto the stored members
      const { db, copied } = recording(store.db);
      await importEntities(db, [...venues(1, VENUES), ...events(1, 20)]);
      assert.ok(!copied.includes('event_artists'));
      const { rows } = await store.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM event_artists');
      assert.ok(rows[0]!.n > 0);
    });
  });
}
