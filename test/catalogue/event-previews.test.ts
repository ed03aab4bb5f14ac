/**
 * Each Event's stored Artist and Venue previews (migration 005, src/catalogue/event-previews.ts):
 * written by the import, rewritten when an Event's memberships, one of its Artists or Venues, or
 * one of their media change, filled for Events that have none (the migration of an existing
 * catalogue), and equal after every import to what the live preview statements return. The read
 * side reads an Event without a stored row through those statements.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Database } from '../../src/db/database.js';
import { Reader } from '../../src/db/reader.js';
import { fillMissingEventPreviews, isBulkImport } from '../../src/catalogue/event-previews.js';
import { createStaging, finishStaging } from '../../src/catalogue/staging.js';
import { fillMemberPreviews } from '../../src/catalogue/member-previews.js';
import { renderRichPreview } from '../../src/queries/member-previews.js';
import { STORED_PREVIEW_NAMES, artistPreviewsStatement, venuePreviewsStatement } from '../../src/queries/event-relations.js';
import { parsePreviewText } from '../../src/queries/preview-texts.js';
import { fetchEventRelations, fetchEventsPage } from '../../src/queries/events-read.js';
import { fetchEventDetail } from '../../src/queries/event-detail.js';
import { parseEventDetailControls } from '../../src/controls/event-detail.js';
import { parseEventControls } from '../../src/controls/events.js';
import { parseQueryString } from '../../src/controls/query-string.js';
import { planEvents } from '../../src/plan/events.js';
import { fullEvent } from './fixture.js';
import { clone, importDoc, pid, storePerSuite, testEngines } from './support.js';

const M = { artist: pid('mva', 1), venue: pid('mvb', 2) };
const A = Array.from({ length: 8 }, (_, i) => pid('ava', i + 1));
const V = { hall: pid('vva', 1), club: pid('vvb', 2), closed: pid('vvc', 3) };
const E = { many: pid('eva', 1), one: pid('evb', 2), none: pid('evc', 3), shared: pid('evd', 4) };

const media = (publicId: string, status: string, active = true) => ({
  publicId, status, active, src: status === 'ready' ? `https://img.example/${publicId}.jpg` : null, width: 640, height: 480,
});
const artist = (publicId: string, name: string, profileMediaIds: string[] = [], active = true) => ({ publicId, slug: name.toLowerCase(), name, active, profileMediaIds });
const venue = (publicId: string, name: string, profileMediaId: string | null = null, active = true) => ({
  publicId, slug: name.toLowerCase(), name, statusCode: 'operational', active, profileMediaId,
  address: { formattedAddress: `1 ${name} Street`, locality: 'Lyon', countryName: 'France', countryCode: 'FR' },
});
const event = (publicId: string, artistIds: string[], venueIds: string[]) => ({
  ...clone(fullEvent), publicId, artistIds, venueIds, seriesIds: [], editionIds: [], profileMediaId: null, galleryMediaIds: [],
});

function baseDocument() {
  return {
    media: [media(M.artist, 'pending'), media(M.venue, 'ready')],
    // names out of publicId order: the previews are ordered by name, then publicId
    artists: [
      artist(A[0]!, 'Zed', [M.artist]), artist(A[1]!, 'Amy'), artist(A[2]!, 'Bo'), artist(A[3]!, 'Cy'),
      artist(A[4]!, 'Di'), artist(A[5]!, 'Ed'), artist(A[6]!, 'Fay'), artist(A[7]!, 'Gil', [], false),
    ],
    venues: [venue(V.hall, 'Hall', M.venue), venue(V.club, 'Club'), venue(V.closed, 'Closed', null, false)],
    events: [
      event(E.many, A, [V.hall, V.club, V.closed]),
      event(E.one, [A[0]!], [V.hall]),
      event(E.none, [], []),
      event(E.shared, [A[0]!, A[1]!], [V.club]),
    ],
  };
}

type Row = Record<string, unknown>;

/**
 * Stored previews by Event publicId, their rows as the read side decodes them (each member stored
 * as the array of its values: every one of them is such an array).
 */
async function stored(db: Database): Promise<Record<string, { artists: Row[]; venues: Row[] }>> {
  const { rows } = await db.pool.query<{ public_id: string; artists: string; venues: string }>(
    'SELECT e.public_id, p.artists::text AS artists, p.venues::text AS venues FROM events e JOIN event_previews p ON p.event_id = e.id ORDER BY e.public_id',
  );
  const decode = (text: string, kind: keyof typeof STORED_PREVIEW_NAMES) => {
    const members = JSON.parse(text) as unknown[];
    assert.ok(members.every((m) => Array.isArray(m) && m.length === STORED_PREVIEW_NAMES[kind].length), `${kind}: ${text}`);
    return parsePreviewText(text, STORED_PREVIEW_NAMES[kind]) as Row[];
  };
  return Object.fromEntries(rows.map((r) => [r.public_id, { artists: decode(r.artists, 'artists'), venues: decode(r.venues, 'venues') }]));
}

/**
 * Every Event has a stored row equal to what the live preview statements return for it (one
 * JSON array text per Event with an active member, absent otherwise).
 */
async function assertMatchesLive(db: Database): Promise<void> {
  const { rows: events } = await db.pool.query<{ id: string; public_id: string }>('SELECT id::text, public_id FROM events');
  const ids = events.map((e) => e.id);
  const live = async (text: string) => {
    const { rows } = await db.pool.query<{ owner_id: string; items: string }>(text, [ids]);
    assert.equal(new Set(rows.map((r) => r.owner_id)).size, rows.length, 'one text per Event');
    return new Map(rows.map((r) => [r.owner_id, JSON.parse(r.items) as Row[]]));
  };
  const artists = await live(artistPreviewsStatement(ids, false).text);
  const venues = await live(venuePreviewsStatement(ids, false).text);
  const all = await stored(db);
  assert.equal(Object.keys(all).length, events.length, 'one stored row per Event');
  for (const e of events) {
    assert.deepEqual(all[e.public_id]!.artists, artists.get(e.id) ?? [], `${e.public_id} artists`);
    assert.deepEqual(all[e.public_id]!.venues, venues.get(e.id) ?? [], `${e.public_id} venues`);
  }
}

/** Stored rich previews (migration 017) of every Artist and Venue, by publicId. */
async function storedRich(db: Database): Promise<Record<string, Row | null>> {
  const out: Record<string, Row | null> = {};
  for (const table of ['artists', 'venues'] as const) {
    const { rows } = await db.pool.query<{ public_id: string; rich_preview: string | null }>(`SELECT public_id, rich_preview FROM ${table}`);
    for (const r of rows) out[r.public_id] = r.rich_preview === null ? null : (JSON.parse(r.rich_preview) as Row);
  }
  return out;
}

/**
 * Every Artist's and Venue's stored rich preview is the text queries/member-previews.ts renders
 * from its row now (the same bytes), and the rich preview statements, which read it, return what
 * they return with every stored text cleared (rendered live).
 */
async function assertRichMatchesLive(db: Database): Promise<void> {
  for (const table of ['artists', 'venues'] as const) {
    const { rows } = await db.pool.query<{ public_id: string; rich_preview: string | null; live: string }>(
      `SELECT m.public_id, m.rich_preview, ${renderRichPreview(table, 'm')} AS live FROM ${table} m`,
    );
    assert.ok(rows.length > 0);
    for (const r of rows) assert.equal(r.rich_preview, r.live, `${table} ${r.public_id}: stored rich preview`);
  }
  const { rows: events } = await db.pool.query<{ id: string }>('SELECT id::text FROM events');
  const ids = events.map((e) => e.id);
  const byOwner = (rows: { owner_id: string }[]) => rows.sort((a, b) => a.owner_id.localeCompare(b.owner_id));
  const read = async (q: Pick<typeof db.pool, 'query'>) => [
    byOwner((await q.query(artistPreviewsStatement(ids, true).text, [ids])).rows),
    byOwner((await q.query(venuePreviewsStatement(ids, true).text, [ids])).rows),
  ];
  const fromStored = await read(db.pool);
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE artists SET rich_preview = NULL');
    await client.query('UPDATE venues SET rich_preview = NULL');
    assert.deepEqual(fromStored, await read(client), 'rich preview statements: stored texts = rendered live');
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

const names = (rows: readonly { readonly name?: unknown }[]) => rows.map((r) => r.name);

for (const engine of testEngines()) {
  describe(`stored Event previews (${engine.name})`, () => {
    const store = storePerSuite(engine);

    test('written by the import: the first six active members by name, then publicId, with their media', async () => {
      await importDoc(store.db, baseDocument());
      const all = await stored(store.db);
      assert.deepEqual(names(all[E.many]!.artists), ['Amy', 'Bo', 'Cy', 'Di', 'Ed', 'Fay'], 'six of seven active Artists');
      assert.deepEqual(names(all[E.many]!.venues), ['Club', 'Hall']);
      assert.equal(all[E.many]!.venues[1]!.pm_public_id, M.venue);
      assert.equal(all[E.one]!.artists[0]!.pm_public_id, null, 'a pending media is not shown');
      assert.deepEqual(all[E.none], { artists: [], venues: [] });
      await assertMatchesLive(store.db);
      await assertRichMatchesLive(store.db);
    });

    test('rewritten when a member, a media or the memberships change, and by --replace', async () => {
      await importDoc(store.db, baseDocument());
      // an Artist alone: renamed (now sorts last), then deactivated
      await importDoc(store.db, { artists: [artist(A[1]!, 'Zoe')] });
      assert.deepEqual(names((await stored(store.db))[E.many]!.artists), ['Bo', 'Cy', 'Di', 'Ed', 'Fay', 'Zed']);
      assert.deepEqual(names((await stored(store.db))[E.shared]!.artists), ['Zed', 'Zoe']);
      await assertMatchesLive(store.db);
      await assertRichMatchesLive(store.db);
      await importDoc(store.db, { artists: [artist(A[0]!, 'Zed', [M.artist], false)] });
      assert.deepEqual(names((await stored(store.db))[E.one]!.artists), []);
      await assertMatchesLive(store.db);
      await assertRichMatchesLive(store.db);
      // a media alone becomes ready: shown by the Artist's previews; a Venue's media fails
      await importDoc(store.db, { artists: [artist(A[0]!, 'Zed', [M.artist])] });
      await importDoc(store.db, { media: [media(M.artist, 'ready'), media(M.venue, 'failed')] });
      const afterMedia = await stored(store.db);
      assert.equal(afterMedia[E.one]!.artists[0]!.pm_public_id, M.artist);
      assert.equal(afterMedia[E.one]!.venues[0]!.pm_public_id, null);
      // the Artist and the Venue are not in that document: their rich previews follow their media
      const rich = await storedRich(store.db);
      assert.equal(rich[A[0]!]!.pm_public_id, M.artist);
      assert.equal(rich[V.hall]!.pm_public_id, null);
      await assertMatchesLive(store.db);
      await assertRichMatchesLive(store.db);
      // a Venue alone: deactivated, and the closed one reopened
      await importDoc(store.db, { venues: [venue(V.club, 'Club', null, false), venue(V.closed, 'Closed')] });
      assert.deepEqual(names((await stored(store.db))[E.many]!.venues), ['Closed', 'Hall']);
      await assertMatchesLive(store.db);
      await assertRichMatchesLive(store.db);
      // an Event's memberships
      await importDoc(store.db, { events: [event(E.none, [A[2]!], [V.hall])] });
      assert.deepEqual(names((await stored(store.db))[E.none]!.artists), ['Bo']);
      await assertMatchesLive(store.db);
      await assertRichMatchesLive(store.db);
      // --replace: an Artist and an Event gone
      const doc = baseDocument();
      doc.artists = doc.artists.filter((a) => a.publicId !== A[2]);
      doc.events = doc.events.filter((e) => e.publicId !== E.shared).map((e) => ({ ...e, artistIds: e.artistIds.filter((id) => id !== A[2]) }));
      await importDoc(store.db, doc, { replace: true });
      assert.deepEqual(names((await stored(store.db))[E.many]!.artists), ['Amy', 'Cy', 'Di', 'Ed', 'Fay', 'Zed']);
      assert.equal((await stored(store.db))[E.shared], undefined);
      await assertMatchesLive(store.db);
      await assertRichMatchesLive(store.db);
    });

    test('filled for Events without a row (migration 005); until then the read side reads them live', async () => {
      await importDoc(store.db, baseDocument());
      const before = await stored(store.db);
      const { rows } = await store.db.pool.query<{ id: string; public_id: string }>('SELECT id::text, public_id FROM events ORDER BY public_id');
      const ids = rows.map((r) => r.id);
      const read = async () => {
        const rel = await fetchEventRelations(new Reader(store.db), ids, ['artists', 'venues'], []);
        return rows.map((r) => [names(rel.artists.get(r.id) ?? []), names(rel.venues.get(r.id) ?? [])]);
      };
      // a page reads the stored previews through its own statement
      const page = async (query: string) => {
        const statements: string[] = [];
        const plan = planEvents('/v1/events', parseEventControls(parseQueryString(query)), new Date());
        const read = await fetchEventsPage(new Reader(store.db, (st) => statements.push(st.name)), plan);
        const byId = new Map(read.rows.map((r) => [r.public_id, r.id]));
        const out = [...byId].sort().map(([publicId, id]) => [publicId, names(read.relations.artists.get(id) ?? []), names(read.relations.venues.get(id) ?? [])]);
        return { out, statements };
      };
      // an Event detail: its stored previews come with its row (one statement), else live
      const detail = async (publicId: string) => {
        const statements: string[] = [];
        const reader = new Reader(store.db, (st) => statements.push(st.name));
        const found = (await fetchEventDetail(reader, publicId, parseEventDetailControls(parseQueryString('')), new Date().toISOString()))!;
        const { id } = found.row;
        return { out: [names(found.relations.artists.get(id) ?? []), names(found.relations.venues.get(id) ?? [])], statements };
      };
      const storedDetail = await detail(E.many);
      assert.deepEqual(storedDetail.statements, ['events.detail']);
      assert.ok(storedDetail.out[0]!.length > 0 && storedDetail.out[1]!.length > 0, 'the Event has both previews');
      const fromStored = await read();
      const storedPage = await page('fields=name,artists,venues&limit=50');
      assert.deepEqual(storedPage.statements, ['events.page'], 'one statement: the page reads its stored previews');
      assert.deepEqual((await page('fields=name,artists&limit=50&sort=-startInstant')).statements, ['events.page']);
      await store.db.pool.query(`DELETE FROM event_previews WHERE event_id IN (SELECT id FROM events WHERE public_id IN ($1, $2))`, [E.many, E.one]);
      assert.deepEqual(await read(), fromStored, 'Events without a row are read by the preview statements');
      const livePage = await page('fields=name,artists,venues&limit=50');
      assert.deepEqual(livePage.out, storedPage.out, 'a page too');
      assert.deepEqual(livePage.statements.sort(), ['events.artistPreviews', 'events.page', 'events.venuePreviews']);
      const liveDetail = await detail(E.many);
      assert.deepEqual(liveDetail.out, storedDetail.out, 'an Event detail too');
      assert.deepEqual(liveDetail.statements.sort(), ['events.artistPreviews', 'events.detail', 'events.venuePreviews']);
      const client = await store.db.pool.connect();
      try {
        await client.query('BEGIN');
        assert.equal(await fillMissingEventPreviews(client), 2);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      assert.deepEqual(await stored(store.db), before);
      await assertMatchesLive(store.db);
      await assertRichMatchesLive(store.db);
    });

    test('stored as objects (the older form): read as the same rows, rewritten as arrays by the next import of their Event', async () => {
      await importDoc(store.db, baseDocument());
      await assertMatchesLive(store.db); // every member stored as an array
      const { rows } = await store.db.pool.query<{ id: string }>('SELECT id::text FROM events ORDER BY public_id');
      const ids = rows.map((r) => r.id);
      const read = async () => {
        const rel = await fetchEventRelations(new Reader(store.db), ids, ['artists', 'venues'], []);
        return ids.map((id) => [rel.artists.get(id) ?? [], rel.venues.get(id) ?? []] as const);
      };
      const asArrays = await read();
      assert.ok(asArrays.some(([a, v]) => a.length > 0 && v.length > 0));
      // each member as an object, the older stored form (`to_jsonb` of the row)
      const asObjects = (list: string) => `(SELECT coalesce(json_agg(
          (SELECT json_object_agg(n.name, x.value ORDER BY n.i) FROM unnest($1::text[]) WITH ORDINALITY n(name, i)
             JOIN json_array_elements(m.value) WITH ORDINALITY x(value, i) ON x.i = n.i)::jsonb
          ORDER BY m.i), '[]')
        FROM json_array_elements(${list}) WITH ORDINALITY m(value, i))`;
      await store.db.pool.query(`UPDATE event_previews SET artists = ${asObjects('artists')}`, [STORED_PREVIEW_NAMES.artists]);
      await store.db.pool.query(`UPDATE event_previews SET venues = ${asObjects('venues')}`, [STORED_PREVIEW_NAMES.venues]);
      const { rows: texts } = await store.db.pool.query<{ artists: string }>(
        `SELECT p.artists::text AS artists FROM event_previews p JOIN events e ON e.id = p.event_id WHERE e.public_id = $1`, [E.many]);
      assert.match(texts[0]!.artists, /^\[\{"name": "Amy", "slug": "amy", /, 'an object per member, as to_jsonb wrote it');
      assert.deepEqual(await read(), asArrays, 'the same rows');
      await importDoc(store.db, { events: baseDocument().events.filter((e) => e.publicId === E.many) });
      const { rows: after } = await store.db.pool.query<{ public_id: string; artists: string }>(
        `SELECT e.public_id, p.artists::text AS artists FROM event_previews p JOIN events e ON e.id = p.event_id ORDER BY e.public_id`);
      assert.match(after.find((r) => r.public_id === E.many)!.artists, /^\[\["/, 'the imported Event: arrays again');
      assert.match(after.find((r) => r.public_id === E.shared)!.artists, /^\[\{/, 'another Event: untouched');
      assert.deepEqual(await read(), asArrays);
    });

    test('rich previews: stored with each Artist and Venue, rendered for one without (migration 017 fills them)', async () => {
      await importDoc(store.db, baseDocument());
      const before = await storedRich(store.db);
      assert.equal(before[A[1]!]!.name, 'Amy');
      assert.equal(before[V.hall]!.pm_public_id, M.venue);
      assert.equal(before[A[0]!]!.pm_public_id, null, 'a pending media is not shown');
      // an Artist renamed alone, by the importer
      await importDoc(store.db, { artists: [artist(A[1]!, 'Zoe')] });
      assert.equal((await storedRich(store.db))[A[1]!]!.name, 'Zoe');
      await assertRichMatchesLive(store.db);
      const { rows } = await store.db.pool.query<{ id: string }>('SELECT id::text FROM events ORDER BY public_id');
      const ids = rows.map((r) => r.id);
      const included = async () => {
        const rel = await fetchEventRelations(new Reader(store.db), ids, ['artists', 'venues'], ['artists', 'venues']);
        return ids.map((id) => [rel.artists.get(id) ?? [], rel.venues.get(id) ?? []] as const);
      };
      const fromStored = await included();
      assert.ok(fromStored.some(([a]) => a.some((x) => x.name === 'Zoe')));
      // what the page and the detail statements carry (richPreviewColumns) is what the rich preview statements read
      const carried = async () => {
        const statements: string[] = [];
        const reader = new Reader(store.db, (st) => statements.push(st.name));
        const plan = planEvents('/v1/events', parseEventControls(parseQueryString('include=artists,venues&limit=50')), new Date());
        const page = await fetchEventsPage(reader, plan);
        const byId = new Map(page.rows.map((r) => [r.id, r.public_id]));
        assert.deepEqual([...byId.keys()].sort(), [...ids].sort(), 'every active Event on the page');
        const details = await Promise.all(
          ids.map(async (id) => {
            const found = await fetchEventDetail(reader, byId.get(id)!, parseEventDetailControls(parseQueryString('include=artists,venues')), new Date().toISOString());
            return [found!.relations.artists.get(id) ?? [], found!.relations.venues.get(id) ?? []] as const;
          }),
        );
        assert.deepEqual(statements, ['events.page', ...ids.map(() => 'events.detail')], 'no preview statement of their own');
        return { page: ids.map((id) => [page.relations.artists.get(id) ?? [], page.relations.venues.get(id) ?? []] as const), details };
      };
      assert.deepEqual(await carried(), { page: fromStored, details: fromStored });
      await store.db.pool.query('UPDATE artists SET rich_preview = NULL');
      await store.db.pool.query('UPDATE venues SET rich_preview = NULL');
      assert.deepEqual(await included(), fromStored, 'members without a stored text are rendered by the statement');
      assert.deepEqual(await carried(), { page: fromStored, details: fromStored }, 'and by the page and detail statements');
      const client = await store.db.pool.connect();
      try {
        await client.query('BEGIN');
        assert.equal(await fillMemberPreviews(client), Object.keys(before).length);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      assert.deepEqual(Object.keys(await storedRich(store.db)).sort(), Object.keys(before).sort());
      await assertRichMatchesLive(store.db);
      assert.deepEqual(await included(), fromStored);
    });
  });
}

for (const engine of testEngines()) {
  describe(`a bulk import, told by the staged rows' count (${engine.name})`, () => {
    const store = storePerSuite(engine);

    // isBulkImport reads the row counts ANALYZE leaves on the staging tables (staging.ts)
    test('more than 1,000 staged rows of the collections the previews read, once the staging is finished', async () => {
      for (const [rows, bulk] of [[0, false], [999, false], [1_001, true], [40_000, true]] as const) {
        const client = await store.db.pool.connect();
        try {
          await client.query('BEGIN');
          await createStaging(client);
          // split between two of the collections counted; the Series are not counted
          await client.query(`INSERT INTO stage_media (ord, public_id) SELECT g, 'm' || g FROM generate_series(1, $1::int / 2) g`, [rows]);
          await client.query(`INSERT INTO stage_events (ord, public_id) SELECT g, 'e' || g FROM generate_series(1, $1::int - $1::int / 2) g`, [rows]);
          await client.query(`INSERT INTO stage_series (ord, public_id) SELECT g, 's' || g FROM generate_series(1, 5000) g`);
          await finishStaging(client);
          assert.equal(await isBulkImport(client), bulk, `${rows} rows`);
        } finally {
          await client.query('ROLLBACK');
          client.release();
        }
      }
    });

    // the merge's plans join on these, and a Memoize keys on a list (the Events' primary Venue
    // keys: without the lists' statistics, 1,000,000 evaluations instead of ≈ 120,000)
    test('the staged Events are analyzed in their order, publicId, updated_at, time zone and every reference', async () => {
      const client = await store.db.pool.connect();
      try {
        await client.query('BEGIN');
        await createStaging(client);
        await client.query(`INSERT INTO stage_events (ord, public_id, venue_pids) SELECT g, 'e' || g, ARRAY['v' || (g % 7)] FROM generate_series(1, 2000) g`);
        await finishStaging(client);
        const { rows } = await client.query(`SELECT attname FROM pg_stats WHERE tablename = 'stage_events' ORDER BY attname`);
        assert.deepEqual(rows.map((r) => r.attname), [
          'artist_pids', 'edition_pids', 'gallery_pids', 'ord', 'profile_media_pid', 'public_id', 'series_pids', 'time_zone',
          'updated_at', 'venue_pids',
        ]);
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    });
  });
}
