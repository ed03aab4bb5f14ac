/**
 * The importer on both engines: every column round-trips, derived columns, memberships with
 * positions, upsert and --replace, sources (file path, stream), projection rules NOT enforced.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Database } from '../../src/db/database.js';
import { importCatalogue } from '../../src/catalogue/importer.js';
import { A, E, ED, M, S, V, fullDocument, fullEvent } from './fixture.js';
import { clone, importDoc, markers, pid, tableCounts, storePerSuite, testEngines, textStream } from './support.js';

const q = async (db: Database, sql: string, params: unknown[] = []) => (await db.pool.query(sql, params)).rows;

for (const engine of testEngines()) {
  describe(`importer (${engine.name})`, () => {
    const store = storePerSuite(engine);

    test('a complete document round-trips every column', async () => {
      const summary = await importDoc(store.db, fullDocument());
      assert.equal(summary.entities, 16);
      assert.match(summary.importedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      assert.deepEqual(summary.collections.events, { imported: 3, inserted: 3, changed: 0, deactivated: 0, unchanged: 0, followed: 0, markersAdvanced: 2, deleted: 0 });

      const media = await q(store.db, `SELECT public_id, active, status, src, thumbnail_src, alt_text, width::text, height::text,
        original_filename, upload_name, storage_key, blur_data_url, authoring FROM media ORDER BY public_id`);
      assert.deepEqual(media, [
        { public_id: M.ready, active: true, status: 'ready', src: 'https://img.example/1.jpg', thumbnail_src: 'https://img.example/1t.jpg',
          alt_text: 'Portrait', width: '1600', height: '900', original_filename: 'IMG_1.JPG', upload_name: 'up-1',
          storage_key: 'media/1', blur_data_url: 'data:image/jpeg;base64,AAAA', authoring: { revision: 1 } },
        { public_id: M.pending, active: true, status: 'pending', src: null, thumbnail_src: null, alt_text: null, width: null,
          height: null, original_filename: null, upload_name: null, storage_key: null, blur_data_url: null, authoring: null },
        { public_id: M.failed, active: true, status: 'failed', src: null, thumbnail_src: null, alt_text: null, width: null,
          height: null, original_filename: null, upload_name: null, storage_key: null, blur_data_url: null, authoring: null },
        { public_id: M.inactive, active: false, status: 'ready', src: 'https://img.example/4.jpg', thumbnail_src: null, alt_text: null,
          width: null, height: null, original_filename: null, upload_name: null, storage_key: null, blur_data_url: null, authoring: null },
      ]);

      const artists = await q(store.db, `SELECT public_id, active, slug, name, name_lower, description, links, authoring FROM artists ORDER BY public_id`);
      assert.deepEqual(artists, [
        { public_id: A.bjork, active: true, slug: 'bjork', name: 'Björk', name_lower: 'björk', description: 'Icelandic',
          links: [{ url: 'https://bjork.example', label: 'Official' }], authoring: { revision: 2 } },
        { public_id: A.minimal, active: true, slug: 'x', name: 'X', name_lower: 'x', description: null, links: [], authoring: null },
      ]);
      assert.deepEqual(
        await q(store.db, `SELECT a.public_id AS artist, m.public_id AS media, p.position FROM artist_profile_media p
                      JOIN artists a ON a.id = p.artist_id JOIN media m ON m.id = p.media_id ORDER BY 1, 3`),
        [{ artist: A.bjork, media: M.pending, position: 0 }, { artist: A.bjork, media: M.ready, position: 1 }],
      );

      const venues = await q(store.db, `SELECT v.public_id, v.active, v.slug, v.name, v.name_lower, v.description, v.status_code,
        v.capacity::text, v.contact_email, v.contact_phone, v.has_address, v.formatted_address, v.locality, v.locality_key,
        v.country_name, v.country_name_lower, v.country_code, v.latitude, v.longitude, v.publish_coordinates,
        v.address_provenance, v.time_zone_suggestion, m.public_id AS profile, v.links, v.authoring
        FROM venues v LEFT JOIN media m ON m.id = v.profile_media_id ORDER BY v.public_id`);
      assert.deepEqual(venues, [
        { public_id: V.formatted, active: true, slug: 'harpa', name: 'Harpa', name_lower: 'harpa', description: 'Concert hall',
          status_code: 'operational', capacity: '1800', contact_email: 'info@harpa.example', contact_phone: '+354 528 5000',
          has_address: true, formatted_address: 'Austurbakki 2, 101 Reykjavík', locality: '  Reykjavík ', locality_key: 'reykjavík',
          country_name: 'Ísland', country_name_lower: 'ísland', country_code: 'IS', latitude: 64.150369, longitude: -21.932661,
          publish_coordinates: true, address_provenance: { source: 'geocoder', confidence: 0.9 },
          time_zone_suggestion: 'Atlantic/Reykjavik', profile: M.ready, links: [{ url: 'https://harpa.example', label: null }],
          authoring: { revision: 3 } },
        { public_id: V.coordinates, active: true, slug: 'field', name: 'A Field', name_lower: 'a field', description: null,
          status_code: 'on-hiatus', capacity: null, contact_email: null, contact_phone: null, has_address: true,
          formatted_address: null, locality: 'Glastonbury', locality_key: 'glastonbury', country_name: null,
          country_name_lower: null, country_code: 'GB', latitude: 51.1, longitude: -2.5, publish_coordinates: false,
          address_provenance: null, time_zone_suggestion: null, profile: null, links: [], authoring: null },
        { public_id: V.tba, active: true, slug: 'tba', name: 'TBA', name_lower: 'tba', description: null,
          status_code: 'permanently-closed', capacity: null, contact_email: null, contact_phone: null, has_address: false,
          formatted_address: null, locality: null, locality_key: null, country_name: null, country_name_lower: null,
          country_code: null, latitude: null, longitude: null, publish_coordinates: false, address_provenance: null,
          time_zone_suggestion: null, profile: null, links: [], authoring: null },
      ]);

      assert.deepEqual(
        await q(store.db, `SELECT s.public_id, s.active, s.slug, s.name, s.name_lower, s.description, s.structure_code,
          m.public_id AS profile, s.links, s.authoring FROM series s LEFT JOIN media m ON m.id = s.profile_media_id ORDER BY 1`),
        [
          { public_id: S.direct, active: true, slug: 'tour', name: 'World Tour', name_lower: 'world tour', description: null,
            structure_code: 'direct', profile: null, links: [], authoring: null },
          { public_id: S.editioned, active: true, slug: 'fest', name: 'Fest', name_lower: 'fest', description: 'Yearly',
            structure_code: 'editioned', profile: M.failed, links: [{ url: 'https://fest.example', label: 'Fest' }],
            authoring: { revision: 4 } },
        ],
      );
      assert.deepEqual(
        await q(store.db, `SELECT e.public_id, e.active, s.public_id AS series, e.slug, e.name, e.name_lower, e.start_local_date,
          e.end_local_date, e.description, m.public_id AS profile, e.links, e.authoring
          FROM editions e JOIN series s ON s.id = e.series_id LEFT JOIN media m ON m.id = e.profile_media_id ORDER BY 1`),
        [
          { public_id: ED.full, active: true, series: S.editioned, slug: 'fest-2025', name: 'Fest 2025', name_lower: 'fest 2025',
            start_local_date: '2025-06-27', end_local_date: '2025-06-29', description: 'Third', profile: M.ready,
            links: [{ url: 'https://fest.example/2025', label: null }], authoring: { revision: 5 } },
          { public_id: ED.minimal, active: true, series: S.editioned, slug: 'fest-2026', name: 'Fest 2026', name_lower: 'fest 2026',
            start_local_date: '2026-06-26', end_local_date: null, description: null, profile: null, links: [], authoring: null },
        ],
      );
      assert.deepEqual(
        await q(store.db, `SELECT e.public_id AS edition, v.public_id AS venue, ev.position FROM edition_venues ev
                      JOIN editions e ON e.id = ev.edition_id JOIN venues v ON v.id = ev.venue_id ORDER BY 1, 3`),
        [{ edition: ED.full, venue: V.tba, position: 0 }, { edition: ED.full, venue: V.formatted, position: 1 }],
      );

      const events = await q(store.db, `SELECT e.public_id, e.active, e.slug, e.name, e.name_lower, e.name_folded, e.description,
        e.event_type_code, e.administrative_state_code, e.time_zone, e.time_zone_known, e.start_precision, e.start_local_date,
        e.start_local_time, e.start_instant, e.start_at, e.end_precision, e.end_local_date, e.end_local_time, e.end_instant,
        e.end_at, e.start_rank, m.public_id AS profile, e.links, e.ticket_links, e.digital_locations, e.authoring
        FROM events e LEFT JOIN media m ON m.id = e.profile_media_id ORDER BY e.public_id`);
      assert.deepEqual(events, [
        { public_id: E.full, active: true, slug: 'sigur-ros-harpa', name: 'Sigur Rós — Ágætis byrjun',
          name_lower: 'sigur rós — ágætis byrjun', name_folded: 'sigur ros — agætis byrjun', description: 'Live at Harpa',
          event_type_code: 'concert', administrative_state_code: 'scheduled', time_zone: 'Asia/Kolkata', time_zone_known: true,
          start_precision: 'date-time', start_local_date: '2025-07-01', start_local_time: '20:00',
          start_instant: '2025-07-01T20:00:00.123456789+05:30', start_at: '2025-07-01 14:30:00.123457+00',
          end_precision: 'date-time', end_local_date: '2025-07-01', end_local_time: '23:30', end_instant: '2025-07-01T18:00:00Z',
          end_at: '2025-07-01 18:00:00+00', start_rank: 0, profile: M.ready,
          links: [{ url: 'https://sigur-ros.example', label: 'Site' }, { url: 'https://x.example', label: null }],
          ticket_links: [{ url: 'https://tickets.example/1', label: null }],
          digital_locations: [{ url: 'https://stream.example/1', label: 'Live', kindCode: 'livestream' }],
          authoring: { revision: 7, actors: ['ana'], createdAt: '2024-01-01T00:00:00Z' } },
        { public_id: E.minimal, active: true, slug: 'm', name: 'Minimal', name_lower: 'minimal', name_folded: 'minimal',
          description: null, event_type_code: null, administrative_state_code: 'scheduled', time_zone: 'Mars/Olympus_Mons',
          time_zone_known: false, start_precision: 'date', start_local_date: '2024-02-29', start_local_time: null,
          start_instant: null, start_at: null, end_precision: null, end_local_date: null, end_local_time: null, end_instant: null,
          end_at: null, start_rank: 1, profile: null, links: [], ticket_links: [], digital_locations: [], authoring: null },
        { public_id: E.cancelled, active: false, slug: 'c', name: 'Cancelled', name_lower: 'cancelled', name_folded: 'cancelled',
          description: null, event_type_code: null, administrative_state_code: 'cancelled', time_zone: 'Europe/Paris',
          time_zone_known: true, start_precision: 'date', start_local_date: '2000-02-29', start_local_time: null,
          start_instant: null, start_at: null, end_precision: 'date', end_local_date: '2000-03-02', end_local_time: null,
          end_instant: null, end_at: null, start_rank: 1, profile: null, links: [], ticket_links: [], digital_locations: [],
          authoring: null },
      ]);

      const members = async (table: string, target: string, column: string, position: boolean) =>
        q(store.db, `SELECT x.public_id AS id${position ? ', m.position' : ''} FROM ${table} m JOIN ${target} x ON x.id = m.${column}
               JOIN events e ON e.id = m.event_id WHERE e.public_id = $1 ORDER BY ${position ? 'm.position' : 'x.public_id'}`, [E.full]);
      assert.deepEqual(await members('event_artists', 'artists', 'artist_id', true), [{ id: A.minimal, position: 0 }, { id: A.bjork, position: 1 }]);
      assert.deepEqual(await members('event_venues', 'venues', 'venue_id', true), [{ id: V.tba, position: 0 }, { id: V.formatted, position: 1 }]);
      assert.deepEqual(await members('event_series', 'series', 'series_id', false), [{ id: S.direct }]);
      assert.deepEqual(await members('event_editions', 'editions', 'edition_id', false), [{ id: ED.full }, { id: ED.minimal }]);
      assert.deepEqual(await members('event_gallery', 'media', 'media_id', true), [
        { id: M.pending, position: 0 }, { id: M.ready, position: 1 }, { id: M.pending, position: 2 },
      ]);

      // explicit markers are stored exactly; the others are the import time
      const ev = await markers(store.db, 'events');
      assert.equal(ev[E.cancelled], '2020-01-02T03:04:05.123456Z');
      assert.equal(ev[E.full], summary.importedAt);
      assert.equal((await markers(store.db, 'media'))[M.inactive], '2021-05-06T07:08:09.000000Z');
    });

    test('projection rules are not enforced: 30 links, ftp: URLs, empty names, odd sizes', async () => {
      const doc = fullDocument();
      const links = Array.from({ length: 30 }, (_, i) => ({ url: `https://l.example/${i}`, label: null }));
      Object.assign(doc.events![0]!, { name: '', slug: '', links, ticketLinks: [{ url: 'ftp://files.example/x', label: '' }] });
      Object.assign(doc.media![0]!, { width: 0, height: -5, src: 'ftp://img.example/1.jpg' });
      Object.assign(doc.venues![0]!, { capacity: -1, contact: { email: '', phoneNumber: 'x'.repeat(80) } });
      doc.venues![0]!.address!.countryCode = 'isl';
      doc.venues![0]!.coordinates = { latitude: 123, longitude: 456 };
      doc.media!.push({ publicId: pid('big'), status: 'ready', width: 9007199254740992 });
      await importDoc(store.db, doc);
      const [row] = await q(store.db, `SELECT name, jsonb_array_length(links) AS n, ticket_links FROM events WHERE public_id = $1`, [E.full]);
      assert.deepEqual(row, { name: '', n: 30, ticket_links: [{ url: 'ftp://files.example/x', label: '' }] });
      assert.deepEqual(await q(store.db, `SELECT width::text FROM media WHERE public_id = $1`, [pid('big')]), [{ width: '9007199254740992' }]);
    });

    test('upsert by publicId; entities absent from the document are untouched', async () => {
      await importDoc(store.db, fullDocument());
      const before = await tableCounts(store.db);
      const renamed = { ...clone(fullEvent), name: 'Renamed', artistIds: [A.bjork], venueIds: [], seriesIds: [], editionIds: [], galleryMediaIds: [] };
      const s = await importDoc(store.db, { events: [renamed, { ...clone(fullEvent), publicId: pid('new') }] });
      assert.deepEqual(s.collections.events, { imported: 2, inserted: 1, changed: 1, deactivated: 0, unchanged: 0, followed: 0, markersAdvanced: 2, deleted: 0 });
      const after = await tableCounts(store.db);
      assert.equal(after.events, before.events! + 1);
      assert.equal(after.artists, before.artists);
      assert.deepEqual(await q(store.db, `SELECT name FROM events WHERE public_id = $1`, [E.full]), [{ name: 'Renamed' }]);
      assert.deepEqual(await q(store.db, `SELECT name FROM events WHERE public_id = $1`, [E.minimal]), [{ name: 'Minimal' }]);
      // memberships of the imported Event were replaced, the new Event has the full set
      assert.equal(after.event_artists, 1 + 2);
      assert.equal(after.event_venues, 2);
      assert.equal(after.event_gallery, 3);
    });

    test('--replace removes every entity the document lacks', async () => {
      await importDoc(store.db, fullDocument());
      const doc = fullDocument();
      doc.events = doc.events!.filter((e) => e.publicId === E.minimal);
      doc.artists = [];
      doc.media = doc.media!.filter((m) => m.publicId === M.ready);
      doc.venues = doc.venues!.filter((v) => v.publicId === V.formatted);
      doc.series = [];
      doc.editions = [];
      const s = await importDoc(store.db, doc, { replace: true });
      assert.deepEqual(
        Object.fromEntries(Object.entries(s.collections).map(([k, c]) => [k, c.deleted])),
        { media: 3, artists: 2, venues: 2, series: 2, editions: 2, events: 2 },
      );
      const counts = await tableCounts(store.db);
      assert.deepEqual(counts, {
        event_gallery: 0, event_editions: 0, event_series: 0, event_venues: 0, event_artists: 0, edition_venues: 0,
        artist_profile_media: 0, events: 1, editions: 0, series: 0, venues: 1, artists: 0, media: 1,
      });
    });

    test('--replace: references must resolve within the document', async () => {
      await importDoc(store.db, fullDocument());
      const doc = { events: [{ ...clone(fullEvent), galleryMediaIds: [], profileMediaId: null, venueIds: [], seriesIds: [], editionIds: [] }] };
      await assert.rejects(importDoc(store.db, doc, { replace: true }), (err: { problems: string[] }) => {
        assert.deepEqual(err.problems, [`event ${E.full}: artistIds[0]: unknown artist ${A.minimal}`, `event ${E.full}: artistIds[1]: unknown artist ${A.bjork}`]);
        return true;
      });
      // without --replace the stored Artists satisfy the references
      await importDoc(store.db, doc);
    });

    test('an empty document is a no-op; with --replace it empties the store', async () => {
      await importDoc(store.db, fullDocument());
      const before = await tableCounts(store.db);
      const s = await importDoc(store.db, {});
      assert.equal(s.entities, 0);
      assert.deepEqual(await tableCounts(store.db), before);
      await importDoc(store.db, { events: [] }, { replace: true });
      assert.ok(Object.values(await tableCounts(store.db)).every((n) => n === 0));
    });

    test('sources: a file path, a stream, chunked text; a missing file is ENOENT', async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'lineup-import-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const file = join(dir, 'catalogue.json');
      writeFileSync(file, JSON.stringify(fullDocument(), null, 2));
      const s = await importCatalogue(store.db, file);
      assert.equal(s.entities, 16);
      // one character per chunk: multi-byte characters split across chunks decode correctly
      const text = JSON.stringify({ artists: [{ publicId: pid('art', 9), slug: 's', name: 'Мумий Тролль 坂本龍一 🎸' }] });
      const bytes = Buffer.from(text);
      await importCatalogue(store.db, (async function* () { for (const b of bytes) yield Buffer.from([b]); })());
      assert.deepEqual(await q(store.db, `SELECT name FROM artists WHERE public_id = $1`, [pid('art', 9)]), [{ name: 'Мумий Тролль 坂本龍一 🎸' }]);
      await importCatalogue(store.db, textStream(text));
      await assert.rejects(importCatalogue(store.db, join(dir, 'missing.json')), { code: 'ENOENT' });
    });

    test('progress is reported in batches', async () => {
      const events = Array.from({ length: 25 }, (_, i) => ({ ...clone(fullEvent), publicId: pid('evb', i) }));
      const doc = { ...fullDocument(), events };
      const seen: string[] = [];
      await importDoc(store.db, doc, { batchSize: 10, onProgress: (p) => seen.push(`${p.phase} ${p.entities}`) });
      // a first import (the store is empty): its indexes are built after COMMIT (index-builds.ts)
      assert.deepEqual(seen.slice(-4), ['reading 38', 'checking 38', 'merging 38', 'indexing 38']);
      assert.ok(seen.length >= 6, seen.join(', '));
    });

    test('a first import builds the tables\' indexes, keys and foreign keys after loading; a later import keeps them', async () => {
      // the same definitions, as new objects after a first import (bulk-load.ts), untouched by the next
      const tables = `('events'::regclass, 'event_artists'::regclass, 'event_previews'::regclass, 'artists'::regclass, 'artist_profile_media'::regclass, 'venues'::regclass)`;
      const objects = async () =>
        q(store.db, `SELECT 'index' AS kind, i.indexrelid::regclass::text AS name, i.indexrelid::text AS oid,
                            pg_get_indexdef(i.indexrelid) AS definition
                       FROM pg_index i WHERE i.indrelid IN ${tables}
                     UNION ALL
                     SELECT 'fk', conname, oid::text, pg_get_constraintdef(oid) FROM pg_constraint
                      WHERE conrelid IN ${tables} AND contype = 'f'
                     ORDER BY 1, 2`);
      const definitions = (rows: Record<string, unknown>[]) => rows.map(({ oid: _, ...rest }) => rest);
      const before = await objects();
      await importDoc(store.db, fullDocument());
      const first = await objects();
      assert.deepEqual(definitions(first), definitions(before));
      const rebuilt = first.filter((r, i) => r.oid !== before[i]!.oid).map((r) => r.name);
      // everything, the keys of the entity tables too (built right after their rows: the next
      // collections' merges join through them)
      assert.deepEqual(rebuilt.sort(), before.map((r) => r.name).sort());
      assert.ok(rebuilt.includes('events_pkey') && rebuilt.includes('artists_public_id_key'), rebuilt.join(', '));
      assert.ok(rebuilt.includes('events_name_trgm') && rebuilt.includes('event_artists_artist_id_fkey'), rebuilt.join(', '));
      assert.ok(rebuilt.includes('event_artists_pkey') && rebuilt.includes('event_previews_pkey'), rebuilt.join(', '));
      assert.ok(rebuilt.includes('artists_name_trgm') && rebuilt.includes('venues_name_trgm'), rebuilt.join(', '));
      assert.ok(rebuilt.includes('artist_profile_media_pkey') && rebuilt.includes('artist_profile_media_media_id_fkey'), rebuilt.join(', '));

      await importDoc(store.db, fullDocument());
      assert.deepEqual(await objects(), first);
      // the foreign keys are in force again
      await assert.rejects(store.db.pool.query('INSERT INTO event_artists (event_id, artist_id, position) VALUES (987654321, 987654321, 0)'));
      // and the primary keys
      await assert.rejects(store.db.pool.query('INSERT INTO event_artists SELECT * FROM event_artists LIMIT 1'), /duplicate key/);
      await assert.rejects(store.db.pool.query('INSERT INTO event_previews SELECT * FROM event_previews LIMIT 1'), /duplicate key/);
      await assert.rejects(store.db.pool.query('INSERT INTO artist_profile_media SELECT * FROM artist_profile_media LIMIT 1'), /duplicate key/);
      await assert.rejects(store.db.pool.query('INSERT INTO artist_profile_media (artist_id, media_id, position) VALUES (987654321, 987654321, 0)'));
      // and the entity tables' own
      for (const table of ['events', 'venues']) {
        await assert.rejects(
          store.db.pool.query(`UPDATE ${table} SET public_id = (SELECT min(public_id) FROM ${table}) WHERE public_id = (SELECT max(public_id) FROM ${table})`),
          new RegExp(`duplicate key.*${table}_public_id_key`),
        );
      }
    });

    test('a first import of Events over stored parents defers only the Event tables\' indexes', async () => {
      const { events: _, ...parents } = fullDocument();
      await importDoc(store.db, parents);
      const oids = async () => q(store.db, `SELECT i.indexrelid::regclass::text AS name, i.indexrelid::text AS oid FROM pg_index i
                                             WHERE i.indrelid IN ('artists'::regclass, 'events'::regclass) ORDER BY 1`);
      const before = await oids();
      await importDoc(store.db, fullDocument());
      const after = await oids();
      const changed = after.filter((r, i) => r.oid !== before[i]!.oid).map((r) => String(r.name));
      assert.ok(changed.includes('events_name_trgm') && changed.includes('events_public_id_key'), changed.join(', '));
      // the stored parents keep theirs (Events' foreign keys to the media are dropped with the
      // Event tables' own, but the parents' stay: none of their keys can go)
      assert.ok(!changed.some((n) => n.startsWith('artists')), changed.join(', '));
    });

    test('a bulk first import: statistics of every table, the places and the expression indexes refreshed after COMMIT', async () => {
      // > 1,000 staged rows: the merge analyzes the tables inside the transaction, and only the
      // Event places (written after that) and the tables with expression indexes (built after
      // COMMIT) are analyzed again (merge.ts refreshStatistics)
      const events = Array.from({ length: 1_003 }, (_, i) => ({ ...clone(fullEvent), publicId: pid('evz', i) }));
      await importDoc(store.db, { ...fullDocument(), events });
      const tables = ['media', 'artists', 'artist_profile_media', 'venues', 'series', 'editions', 'edition_venues',
        'events', 'event_artists', 'event_venues', 'event_series', 'event_editions', 'event_gallery', 'event_places'];
      for (const table of tables) {
        const [row] = await q(store.db, `SELECT (SELECT count(*) FROM ${table})::int AS n,
                                                (SELECT reltuples FROM pg_class WHERE oid = to_regclass($1))::int AS estimate`, [table]);
        assert.equal(row!.estimate, row!.n, table);
      }
      assert.ok(Number((await q(store.db, 'SELECT count(*)::int AS n FROM event_places'))[0]!.n) > 0);
      // an expression index's statistics exist only once its table is analyzed after the build
      const [words] = await q(store.db, `SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'events_name_words'`);
      assert.ok(Number(words!.n) > 0);
      // every column of every table has its statistics (the Events' were sampled in part inside the
      // transaction, for the places' join, and whole after COMMIT)
      const missing = await q(store.db, `SELECT c.relname || '.' || a.attname AS col FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relname = ANY($1) AND c.relnamespace = current_schema()::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
          AND NOT EXISTS (SELECT 1 FROM pg_stats s WHERE s.schemaname = current_schema() AND s.tablename = c.relname AND s.attname = a.attname)
        ORDER BY 1`, [tables]);
      assert.deepEqual(missing, []);
    });

    test('statistics are refreshed after the import (the first reads are planned on real sizes)', async () => {
      const events = Array.from({ length: 37 }, (_, i) => ({ ...clone(fullEvent), publicId: pid('evs', i) }));
      await importDoc(store.db, { ...fullDocument(), events });
      const estimate = async (table: string) =>
        Number((await q(store.db, `SELECT reltuples FROM pg_class WHERE oid = to_regclass($1)`, [table]))[0]!.reltuples);
      // 37 Events (a count no other test imports): only an ANALYZE after this import sets it
      assert.equal(await estimate('events'), 37);
      const links = Number((await q(store.db, 'SELECT count(*)::int AS n FROM event_artists'))[0]!.n);
      assert.equal(await estimate('event_artists'), links);
    });
  });
}
