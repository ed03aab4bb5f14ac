/**
 * Public change markers on re-import (decisions §6; spec "Incremental reading rules" 4), on
 * both engines: what advances `updatedAt` and what leaves it exactly as it was.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { CatalogueDocument } from '../../src/catalogue/document.js';
import type { Database } from '../../src/db/database.js';
import { A, E, ED, M, S, V, fullDocument } from './fixture.js';
import { importDoc, markers, pid, resetCatalogue, testEngines, tick, type TestDb } from './support.js';

const TABLES = ['media', 'artists', 'venues', 'series', 'editions', 'events'] as const;
type All = Record<(typeof TABLES)[number], Record<string, string>>;

async function allMarkers(db: Database): Promise<All> {
  const out = {} as All;
  for (const t of TABLES) out[t] = await markers(db, t);
  return out;
}

/** The entities whose marker differs between two snapshots, as `table:publicId`. */
function changed(a: All, b: All): string[] {
  const out: string[] = [];
  for (const t of TABLES)
    for (const id of Object.keys(b[t])) if (a[t][id] !== b[t][id]) out.push(`${t}:${id}`);
  return out.sort();
}

for (const engine of testEngines()) {
  describe(`markers (${engine.name})`, () => {
    let t: TestDb;
    let db: Database;
    let base: All;
    before(async () => {
      t = await engine.open();
      db = t.db;
    });
    after(() => t.close());
    beforeEach(async () => {
      await resetCatalogue(db);
      await importDoc(db, fullDocument());
      base = await allMarkers(db);
      await tick();
    });

    /** Re-imports the full document after `edit`; returns the entities whose marker moved. */
    async function reimport(edit: (doc: CatalogueDocument) => void, doc = fullDocument()): Promise<string[]> {
      edit(doc);
      const summary = await importDoc(db, doc);
      const now = await allMarkers(db);
      const moved = changed(base, now);
      // every advanced marker is the import's one timestamp
      for (const key of moved) {
        const [table, id] = key.split(':') as [keyof All, string];
        if (table !== 'events' || id !== E.cancelled) assert.equal(now[table][id], summary.importedAt, key);
      }
      return moved;
    }

    const event = (doc: CatalogueDocument, id = E.full) => doc.events!.find((e) => e.publicId === id)!;
    const media = (doc: CatalogueDocument, id: string) => doc.media!.find((m) => m.publicId === id)!;

    test('a no-op re-import keeps every updatedAt string identical', async () => {
      assert.deepEqual(await reimport(() => {}), []);
      // key order, omitted defaults and explicit nulls are not changes
      assert.deepEqual(
        await reimport((doc) => {
          const e = event(doc);
          e.active = true;
          e.links = [{ url: 'https://sigur-ros.example', label: 'Site' }, { url: 'https://x.example', label: null }];
          doc.venues![2]!.active = true;
          doc.artists![1]!.links = [];
          doc.artists![1]!.description = null;
        }),
        [],
      );
    });

    test('gallery-only, authoring and never-public changes keep the markers', async () => {
      const moved = await reimport((doc) => {
        event(doc).galleryMediaIds = [M.failed];
        event(doc).authoring = { revision: 8 };
        media(doc, M.ready).originalFilename = 'other.jpg';
        media(doc, M.ready).storageKey = 'media/2';
        media(doc, M.ready).blurDataUrl = null;
        doc.venues![0]!.addressProvenance = { source: 'manual' };
        doc.venues![0]!.timeZoneSuggestion = 'UTC';
        doc.artists![0]!.authoring = null;
      });
      assert.deepEqual(moved, []);
    });

    test('changes of a non-ready media keep the markers of what refers to it', async () => {
      const moved = await reimport((doc) => {
        media(doc, M.pending).src = 'https://img.example/new.jpg';
        media(doc, M.failed).altText = 'changed';
      });
      // only the media items' own (never public) markers move
      assert.deepEqual(moved, [`media:${M.pending}`, `media:${M.failed}`].sort());
    });

    test('a ready media whose src changes advances every entity that shows it, even absent from the document', async () => {
      const doc = fullDocument();
      const moved = await reimport((d) => {
        for (const k of Object.keys(d) as (keyof CatalogueDocument)[]) if (k !== 'media') delete d[k];
        media(d, M.ready).src = 'https://img.example/1-v2.jpg';
      }, doc);
      // Event, Venue, Edition show it; the Artist shows it as its first ready profile media
      assert.deepEqual(moved, [`media:${M.ready}`, `events:${E.full}`, `venues:${V.formatted}`, `editions:${ED.full}`, `artists:${A.bjork}`].sort());
    });

    test('a media becoming ready, or no longer ready, advances what shows it', async () => {
      const moved = await reimport((doc) => {
        media(doc, M.failed).status = 'ready';
        media(doc, M.failed).src = 'https://img.example/3.jpg';
      });
      assert.deepEqual(moved, [`media:${M.failed}`, `series:${S.editioned}`].sort());
      base = await allMarkers(db);
      await tick();
      const again = await reimport((doc) => {
        media(doc, M.failed).status = 'ready';
        media(doc, M.failed).src = 'https://img.example/3.jpg';
        media(doc, M.ready).status = 'pending';
      });
      assert.deepEqual(again, [`media:${M.ready}`, `events:${E.full}`, `venues:${V.formatted}`, `editions:${ED.full}`, `artists:${A.bjork}`].sort());
    });

    test('Event scalar, schedule, state, URL and membership changes advance only that Event', async () => {
      const edits: Array<(doc: CatalogueDocument) => void> = [
        (d) => (event(d).name = 'Renamed'),
        (d) => (event(d).slug = 'new-slug'),
        (d) => (event(d).description = null),
        (d) => (event(d).eventTypeCode = 'other'),
        (d) => (event(d).administrativeStateCode = 'cancelled'),
        (d) => (event(d).active = false),
        (d) => (event(d).schedule.referenceTimeZoneId = 'Asia/Calcutta'),
        (d) => (event(d).schedule.end = null),
        (d) => (event(d).schedule.start = { ...event(d).schedule.start, instant: '2025-07-01T14:30:00.123456789Z' } as never),
        (d) => (event(d).links = []),
        (d) => (event(d).ticketLinks = [{ url: 'https://tickets.example/1', label: 'Buy' }]),
        (d) => (event(d).digitalLocations![0]!.kindCode = 'stream-replay'),
        (d) => (event(d).artistIds = [A.bjork]),
        (d) => (event(d).artistIds = []),
        (d) => (event(d).venueIds = [V.tba]),
        (d) => (event(d).venueIds = [V.tba, V.formatted, V.coordinates]),
        (d) => (event(d).seriesIds = []),
        (d) => (event(d).editionIds = [ED.full]),
        (d) => (event(d).profileMediaId = M.inactive),
        (d) => (event(d).profileMediaId = null),
      ];
      await resetCatalogue(db);
      for (const [i, edit] of edits.entries()) {
        // the document as it was (the previous edit undone by importing it again; a fresh store and
        // a first import each time cost ≈ 1 s per edit on PGlite): the markers are read after it
        await importDoc(db, fullDocument());
        base = await allMarkers(db);
        await tick();
        assert.deepEqual(await reimport(edit), [`events:${E.full}`], `edit #${i}`);
      }
    });

    test('reordering direct Series or Edition programs is not a change', async () => {
      assert.deepEqual(await reimport((d) => (event(d).editionIds = [ED.minimal, ED.full])), []);
    });

    test('reordering an Event’s Artists or Venues is not a change (no public output shows their order)', async () => {
      assert.deepEqual(await reimport((d) => (event(d).artistIds = [A.bjork, A.minimal])), []);
      assert.deepEqual(await reimport((d) => (event(d).venueIds = [V.formatted, V.tba])), []);
      assert.deepEqual(await reimport((d) => { event(d).artistIds = [A.bjork, A.minimal]; event(d).venueIds = [V.formatted, V.tba]; }), []);
    });

    test('a hash stored by the older formula (lists in document order) is not a change', async () => {
      // what that formula stores for the fixture's Event (its lists out of order); and for the
      // same Event with its two Artists swapped
      const FORMER = 'ce213bb2dee79319f285dc53ec31cb24';
      const FORMER_SWAPPED = 'c0f5f73643e4111aa472d16e16a85c01';
      const storeFormer = async (own: string) => {
        await db.pool.query(`UPDATE events SET projection_hash = $1 || ':' || split_part(projection_hash, ':', 2) WHERE public_id = $2`, [own, E.full]);
      };
      const stored = async () => (await db.pool.query<{ h: string }>(`SELECT projection_hash AS h FROM events WHERE public_id = $1`, [E.full])).rows[0]!.h;
      const current = await stored();
      assert.notEqual(current.split(':')[0], FORMER);
      // the same document: no change, and the hash is the current formula's again
      await storeFormer(FORMER);
      assert.deepEqual(await reimport(() => {}), []);
      assert.equal(await stored(), current);
      // stored from the swapped order and imported in it
      await storeFormer(FORMER_SWAPPED);
      assert.deepEqual(await reimport((d) => (event(d).artistIds = [A.bjork, A.minimal])), []);
      assert.equal(await stored(), current);
      // a former hash with a real change: still a change
      await storeFormer(FORMER);
      assert.deepEqual(await reimport((d) => (event(d).name = 'Renamed')), [`events:${E.full}`]);
      assert.notEqual((await stored()).split(':')[0], FORMER);
      // a former hash and a change of the media part only: still a change
      await resetCatalogue(db);
      await importDoc(db, fullDocument());
      base = await allMarkers(db);
      await tick();
      await storeFormer(FORMER);
      const moved = await reimport((d) => (media(d, M.ready).altText = 'changed'));
      assert.ok(moved.includes(`events:${E.full}`), moved.join());
    });

    test('changing the profile media between two non-ready items is not a change', async () => {
      assert.deepEqual(await reimport((d) => (d.series![1]!.profileMediaId = M.pending)), []);
    });

    test('Venue markers: own public fields only, never Event membership', async () => {
      assert.deepEqual(await reimport((d) => (event(d).venueIds = [V.formatted])), [`events:${E.full}`]);
      await tick();
      base = await allMarkers(db);
      // unpublished coordinates are not public: moving them is not a change
      assert.deepEqual(await reimport((d) => { d.venues![1]!.coordinates = { latitude: 51.2, longitude: -2.6 }; event(d).venueIds = [V.formatted]; }), []);
      assert.deepEqual(await reimport((d) => { d.venues![0]!.coordinates = { latitude: 64, longitude: -21 }; event(d).venueIds = [V.formatted]; }), [`venues:${V.formatted}`]);
    });

    test('related entities’ own edits do not advance an Event marker', async () => {
      const moved = await reimport((d) => {
        d.artists![0]!.name = 'Björk Guðmundsdóttir';
        d.venues![0]!.name = 'Harpa Concert Hall';
        d.series![0]!.name = 'Tour 2';
        d.editions![0]!.name = 'Fest MMXXV';
      });
      assert.deepEqual(moved, [`artists:${A.bjork}`, `venues:${V.formatted}`, `series:${S.direct}`, `editions:${ED.full}`].sort());
    });

    test('an explicit updatedAt is stored exactly and kept by later unchanged imports', async () => {
      const explicit = '2030-12-31T23:59:59.999999Z';
      const doc = fullDocument();
      event(doc).updatedAt = explicit;
      await importDoc(db, doc);
      assert.deepEqual(changed(base, await allMarkers(db)), [`events:${E.full}`]);
      assert.equal((await markers(db, 'events'))[E.full], explicit);
      for (const [given, stored] of [['2001-02-03T04:05:06Z', '2001-02-03T04:05:06.000000Z'], ['2001-02-03T04:05:06.1Z', '2001-02-03T04:05:06.100000Z'], ['2024-02-29T00:00:00.000001Z', '2024-02-29T00:00:00.000001Z']]) {
        await importDoc(db, { artists: [{ publicId: pid('exp'), slug: 's', name: 'n', updatedAt: given }] });
        assert.equal((await markers(db, 'artists'))[pid('exp')], stored);
      }
      // without updatedAt and without change, the explicit value stays
      await importDoc(db, { events: [{ ...fullDocument().events![0]! }] });
      assert.equal((await markers(db, 'events'))[E.full], explicit);
      // with a change, the import time replaces it
      const s = await importDoc(db, { events: [{ ...fullDocument().events![0]!, name: 'New' }] });
      assert.equal((await markers(db, 'events'))[E.full], s.importedAt);
    });
  });
}
