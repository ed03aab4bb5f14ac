/**
 * Rejected documents on both engines: structural problems, duplicates, dangling references,
 * broken JSON; the exact problem lines, the cap of 100, and nothing written.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Database } from '../../src/db/database.js';
import { CatalogueError, importCatalogue } from '../../src/catalogue/importer.js';
import { A, E, ED, M, S, V, fullDocument, fullEvent } from './fixture.js';
import { clone, importDoc, markers, pid, resetCatalogue, tableCounts, testEngines, textStream, type TestDb } from './support.js';

async function rejected(promise: Promise<unknown>): Promise<CatalogueError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof CatalogueError, `expected a CatalogueError, got ${String(err)}`);
    return err;
  }
  assert.fail('the document was accepted');
}

for (const engine of testEngines()) {
  describe(`rejected documents (${engine.name})`, () => {
    let t: TestDb;
    let db: Database;
    let stored: Record<string, number>;
    let storedMarkers: Record<string, string>;
    before(async () => {
      t = await engine.open();
      db = t.db;
    });
    after(() => t.close());
    beforeEach(async () => {
      await resetCatalogue(db);
      await importDoc(db, fullDocument());
      stored = await tableCounts(db);
      storedMarkers = await markers(db, 'events');
    });

    /** Imports `doc` expecting a rejection; checks that nothing changed; returns the problems. */
    async function problemsOf(doc: unknown, opts: { replace?: boolean; text?: string } = {}): Promise<string[]> {
      const source = textStream(opts.text ?? JSON.stringify(doc));
      const err = await rejected(importCatalogue(db, source, { replace: opts.replace ?? false }));
      assert.deepEqual(await tableCounts(db), stored, 'nothing was written');
      assert.deepEqual(await markers(db, 'events'), storedMarkers);
      assert.equal(err.total, err.problems.length);
      return err.problems;
    }

    test('a structural problem rejects the whole document, valid entities included', async () => {
      const doc = {
        media: [{ publicId: pid('new', 1), status: 'ready' }],
        events: [{ ...clone(fullEvent), name: 'Changed' }, { ...clone(fullEvent), publicId: pid('new', 2), schedule: { referenceTimeZoneId: 'UTC', start: { precision: 'date', localDate: '2025-02-29' } } }],
      };
      assert.deepEqual(await problemsOf(doc), [`event ${pid('new', 2)}: schedule.start.localDate: not a valid date`]);
      const [row] = (await db.pool.query(`SELECT name FROM events WHERE public_id = $1`, [E.full])).rows;
      assert.equal(row.name, fullEvent.name);
    });

    test('duplicate publicIds, including an invalid copy', async () => {
      const doc = {
        artists: [
          { publicId: A.bjork, slug: 'a', name: 'A' },
          { publicId: A.bjork, slug: 'b', name: 'B' },
          { publicId: A.bjork, slug: 3, name: 'C' },
        ],
        events: [clone(fullEvent), { ...clone(fullEvent) }],
      };
      assert.deepEqual(await problemsOf(doc), [
        `artist ${A.bjork}: slug: must be a string`,
        `artist ${A.bjork}: publicId: duplicate (appears 3 times in artists)`,
        `event ${E.full}: publicId: duplicate (appears 2 times in events)`,
      ]);
    });

    test('dangling references of every kind', async () => {
      const x = (n: number) => pid('zzz', n);
      const doc = {
        artists: [{ publicId: A.bjork, slug: 's', name: 'n', profileMediaIds: [M.ready, x(1)] }],
        venues: [{ publicId: V.tba, slug: 's', name: 'n', statusCode: 'operational', profileMediaId: x(2) }],
        series: [{ publicId: S.direct, slug: 's', name: 'n', structureCode: 'direct', profileMediaId: x(3) }],
        editions: [{ publicId: ED.full, seriesId: x(4), slug: 's', name: 'n', startLocalDate: '2025-01-01', profileMediaId: x(5), venueIds: [x(6)] }],
        events: [{
          ...clone(fullEvent), profileMediaId: x(7), galleryMediaIds: [M.ready, x(8)], artistIds: [x(9)], venueIds: [V.tba, x(10)],
          seriesIds: [x(11)], editionIds: [x(12)],
        }],
      };
      assert.deepEqual(await problemsOf(doc), [
        `artist ${A.bjork}: profileMediaIds[1]: unknown media ${x(1)}`,
        `venue ${V.tba}: profileMediaId: unknown media ${x(2)}`,
        `series ${S.direct}: profileMediaId: unknown media ${x(3)}`,
        `edition ${ED.full}: seriesId: unknown series ${x(4)}`,
        `edition ${ED.full}: profileMediaId: unknown media ${x(5)}`,
        `edition ${ED.full}: venueIds[0]: unknown venue ${x(6)}`,
        `event ${E.full}: profileMediaId: unknown media ${x(7)}`,
        `event ${E.full}: galleryMediaIds[1]: unknown media ${x(8)}`,
        `event ${E.full}: artistIds[0]: unknown artist ${x(9)}`,
        `event ${E.full}: venueIds[1]: unknown venue ${x(10)}`,
        `event ${E.full}: seriesIds[0]: unknown series ${x(11)}`,
        `event ${E.full}: editionIds[0]: unknown edition ${x(12)}`,
      ]);
    });

    // A clean document's lists are counted by the merge (checks.ts `checkStaging`): the problems
    // must come out the same, and the merge's writes be rolled back.
    const x = (n: number) => pid('zzz', n);
    const danglingLists = () => ({
      media: [{ publicId: M.ready, status: 'ready' }],
      artists: [{ publicId: A.bjork, slug: 's', name: 'n', profileMediaIds: [M.ready, x(1)] }],
      venues: [{ publicId: V.tba, slug: 's', name: 'n', statusCode: 'operational' }],
      series: [{ publicId: S.editioned, slug: 's', name: 'n', structureCode: 'editioned' }],
      editions: [{ publicId: ED.full, seriesId: S.editioned, slug: 's', name: 'n', startLocalDate: '2025-01-01', venueIds: [V.tba, x(6)] }],
      events: [
        { ...clone(fullEvent), publicId: pid('new', 1), profileMediaId: M.ready, galleryMediaIds: [], artistIds: [A.bjork], venueIds: [V.tba], seriesIds: [], editionIds: [ED.full] },
        {
          ...clone(fullEvent), profileMediaId: M.ready, galleryMediaIds: [M.ready, x(8)], artistIds: [x(9), A.bjork], venueIds: [V.tba, x(10)],
          seriesIds: [x(11)], editionIds: [x(12)],
        },
      ],
    });
    const danglingListProblems = [
      `artist ${A.bjork}: profileMediaIds[1]: unknown media ${x(1)}`,
      `edition ${ED.full}: venueIds[1]: unknown venue ${x(6)}`,
      `event ${E.full}: galleryMediaIds[1]: unknown media ${x(8)}`,
      `event ${E.full}: artistIds[0]: unknown artist ${x(9)}`,
      `event ${E.full}: venueIds[1]: unknown venue ${x(10)}`,
      `event ${E.full}: seriesIds[0]: unknown series ${x(11)}`,
      `event ${E.full}: editionIds[0]: unknown edition ${x(12)}`,
    ];

    test('dangling references in lists only, found as the memberships are written: the same problems', async () => {
      assert.deepEqual(await problemsOf(danglingLists()), danglingListProblems);
      // one list alone
      const doc = danglingLists();
      doc.artists[0]!.profileMediaIds = [M.ready];
      doc.editions[0]!.venueIds = [V.tba];
      doc.events[1] = { ...doc.events[1]!, galleryMediaIds: [], artistIds: [A.bjork], venueIds: [V.tba], seriesIds: [], editionIds: [ED.full, x(12)] };
      assert.deepEqual(await problemsOf(doc), [`event ${E.full}: editionIds[1]: unknown edition ${x(12)}`]);
      // without --replace, a list may name stored entities only
      doc.events[1]!.editionIds = [ED.minimal];
      doc.events[1]!.artistIds = [A.minimal, A.bjork];
      await importDoc(db, doc);
      const { rows } = await db.pool.query(
        `SELECT a.public_id FROM event_artists ea JOIN events e ON e.id = ea.event_id JOIN artists a ON a.id = ea.artist_id
          WHERE e.public_id = $1 ORDER BY ea.position`,
        [E.full],
      );
      assert.deepEqual(rows.map((r) => r.public_id), [A.minimal, A.bjork]);
    });

    test('dangling references in lists only, into an empty catalogue: the same problems, nothing written, the schema whole', async () => {
      await resetCatalogue(db);
      const empty = await tableCounts(db);
      const schema = async () =>
        (await db.pool.query(
          `SELECT conrelid::regclass::text AS t, conname, convalidated FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
           UNION ALL SELECT tablename, indexname, true FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1, 2`,
        )).rows;
      const before = await schema();
      const err = await rejected(importDoc(db, danglingLists()));
      assert.deepEqual(err.problems, danglingListProblems);
      assert.deepEqual(await tableCounts(db), empty, 'nothing was written');
      assert.deepEqual(await schema(), before);
      // the document made whole imports
      const doc = danglingLists();
      doc.artists[0]!.profileMediaIds = [M.ready];
      doc.editions[0]!.venueIds = [V.tba];
      doc.events[1] = { ...doc.events[1]!, galleryMediaIds: [M.ready], artistIds: [A.bjork], venueIds: [V.tba], seriesIds: [S.editioned], editionIds: [ED.full] };
      await importDoc(db, doc);
      const counts = await tableCounts(db);
      assert.deepEqual([counts.events, counts.event_artists, counts.event_venues, counts.event_series, counts.event_editions, counts.event_gallery], [2, 2, 2, 1, 2, 1]);
    });

    test('references of an invalid entity are still checked, with their positions', async () => {
      const doc = { events: [{ ...clone(fullEvent), name: 7, artistIds: ['bad', pid('zzz', 1)] }] };
      assert.deepEqual(await problemsOf(doc), [
        `event ${E.full}: name: must be a string`,
        `event ${E.full}: artistIds[0]: not a valid publicId (12 characters of 0-9A-Za-z)`,
        `event ${E.full}: artistIds[1]: unknown artist ${pid('zzz', 1)}`,
      ]);
    });

    test('an entity referencing an invalid entity of the document is not reported as dangling', async () => {
      const doc = {
        artists: [{ publicId: pid('new', 1), slug: 's', name: null }],
        events: [{ ...clone(fullEvent), artistIds: [pid('new', 1)] }],
      };
      assert.deepEqual(await problemsOf(doc), [`artist ${pid('new', 1)}: name: must be a string`]);
    });

    test('document-level problems', async () => {
      assert.deepEqual(await problemsOf(null, { text: '[]' }), ['document: must be a JSON object']);
      assert.deepEqual(await problemsOf(null, { text: '42' }), ['document: must be a JSON object']);
      assert.deepEqual(await problemsOf({ events: [], venue: [], extra: { a: [1] } }), [
        'document: venue: unknown key (expected media, artists, venues, series, editions, events)',
        'document: extra: unknown key (expected media, artists, venues, series, editions, events)',
      ]);
      assert.deepEqual(await problemsOf(null, { text: '{"events": {}, "media": "x", "artists": [], "artists": []}' }), [
        'document: events: must be an array',
        'document: media: must be an array',
        'document: artists: appears more than once',
      ]);
      assert.deepEqual(await problemsOf(null, { text: '{"events": [1, {"publicId": "x"}, null]}' }), [
        'event #0: must be an object',
        'event #1: publicId: not a valid publicId (12 characters of 0-9A-Za-z)',
        'event #1: slug: is required',
        'event #1: name: is required',
        'event #1: administrativeStateCode: is required',
        'event #1: schedule: is required',
        'event #2: must be an object',
      ]);
    });

    test('an own "__proto__" key is data, reported as unknown', async () => {
      const text = `{"media": [{"publicId": "${pid('new', 1)}", "status": "ready", "__proto__": {"status": "x"}}]}`;
      assert.deepEqual(await problemsOf(null, { text }), [`media ${pid('new', 1)}: __proto__: unknown key`]);
    });

    test('invalid JSON: syntax errors, truncation, empty input, trailing data', async () => {
      const syntax = await problemsOf(null, { text: '{"events" []}' });
      assert.equal(syntax.length, 1);
      assert.match(syntax[0]!, /^document: not valid JSON: /);
      for (const text of ['{"events": [', '', '{"events": []} []', "{'events': []}"]) {
        const p = await problemsOf(null, { text });
        assert.match(p.at(-1)!, /^document: not valid JSON: /, JSON.stringify(text));
      }
    });

    test('at most 100 problems are listed; the rest are counted', async () => {
      const events = Array.from({ length: 150 }, (_, i) => ({ ...clone(fullEvent), publicId: pid('bad', i), slug: null }));
      const dupes = Array.from({ length: 30 }, () => ({ publicId: M.ready, status: 'ready' }));
      const err = await rejected(importDoc(db, { media: dupes, events }));
      assert.equal(err.problems.length, 100);
      assert.equal(err.total, 151);
      assert.equal(err.problems[0], `event ${pid('bad', 0)}: slug: must be a string`);
      assert.match(err.message, /\(151 problems\); nothing was written:\n/);
      assert.match(err.message, /… and 51 more problems$/);
      assert.deepEqual(await tableCounts(db), stored);
    });
  });
}
