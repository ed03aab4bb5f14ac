/**
 * GET /v1/events projection: Event rules 1-4, the schedule/boundary/profile media/preview/
 * Artist and Venue item/location shapes, fields and include (rules 5-6), excluded fields, the
 * sanitized 500 for stored data the contract cannot represent, and the statement budget.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helper.js';
import { ARTISTS, CANARIES, IDS, MEDIA, NOW, VENUES, withActive } from '../fixtures/events-catalogue.js';
import { call, importDoc, openEventsWorld, qs, traverse, type EventsWorld } from '../fixtures/events-setup.js';
import { ALL_FIELDS, DEFAULT_FIELDS, modelEvent, type Field } from '../model/events-model.js';
import { STORED_PREVIEW_NAMES } from '../../src/queries/event-relations.js';

const sortedKeys = (o: object) => Object.keys(o).sort();

for (const engine of engines()) {
  describe(`GET /v1/events projection [${engine.name}]`, () => {
    let w: EventsWorld;
    before(async () => {
      w = await openEventsWorld(engine);
    });
    after(async () => {
      await w?.close();
    });

    /** All active Events with the given controls, by publicId. */
    async function all(query: Record<string, string>): Promise<Map<string, any>> {
      const { pages } = await traverse(w.server, `/v1/events?${qs({ limit: '50', ...query })}`);
      const out = new Map<string, any>();
      for (const p of pages) for (const e of p.body.data) out.set(e.publicId, e);
      return out;
    }
    const event = (id: string) => w.cat.events.find((e) => e.publicId === id)!;

    test('every Event equals the model projection: defaults, every field, and with include', async () => {
      const variants: [Record<string, string>, readonly Field[], ('artists' | 'venues')[]][] = [
        [{}, DEFAULT_FIELDS, []],
        [{ fields: ALL_FIELDS.join(',') }, ALL_FIELDS, []],
        [{ fields: ALL_FIELDS.join(','), include: 'artists,venues' }, ALL_FIELDS, ['artists', 'venues']],
        [{ include: 'artists' }, DEFAULT_FIELDS, ['artists']],
        [{ fields: 'venues', include: 'venues' }, ['publicId', 'venues'], ['venues']],
      ];
      for (const [query, fields, include] of variants) {
        const got = await all(query);
        assert.equal(got.size, w.cat.activeEvents().length);
        for (const [id, item] of got) assert.deepEqual(item, modelEvent(w.cat, event(id), fields, include, NOW), `${JSON.stringify(query)} ${id}`);
      }
    });

    test('Event rule 6 / fields replaces the default selection; publicId always present; unselected fields omitted', async () => {
      const cases: [string, string[]][] = [
        ['name', ['name', 'publicId']],
        ['publicId', ['publicId']],
        ['updatedAt', ['publicId', 'updatedAt']],
        ['description,eventTypeCode', ['description', 'eventTypeCode', 'publicId']],
        ['schedule,venues', ['publicId', 'schedule', 'venues']],
        ['links,ticketLinks,digitalLocations', ['digitalLocations', 'links', 'publicId', 'ticketLinks']],
        ['directEventSeries,editionPrograms', ['directEventSeries', 'editionPrograms', 'publicId']],
        [ALL_FIELDS.join(','), [...ALL_FIELDS].sort()],
      ];
      for (const [fields, keys] of cases) {
        const got = await call(w.server, `/v1/events?${qs({ fields, limit: '50' })}`);
        assert.equal(got.status, 200);
        for (const e of got.body.data) assert.deepEqual(sortedKeys(e), keys, `fields=${fields}`);
      }
      const dflt = await call(w.server, '/v1/events?limit=50');
      for (const e of dflt.body.data) assert.deepEqual(sortedKeys(e), [...DEFAULT_FIELDS].sort());
    });

    test('Event rule 1: selected absent nullable values are null, empty collections are []', async () => {
      const got = await all({ fields: ALL_FIELDS.join(','), nameContains: 'exact historical' });
      const e = got.get(IDS.exactHistorical);
      assert.equal(e.description, null);
      assert.equal(e.eventTypeCode, null);
      assert.equal(e.profileMedia, null);
      assert.deepEqual(e.links, []);
      assert.deepEqual(e.ticketLinks, []);
      assert.deepEqual(e.digitalLocations, []);
      assert.deepEqual(e.directEventSeries, []);
      assert.deepEqual(e.editionPrograms, []);
      assert.deepEqual(e.artists, { items: [], isComplete: true, href: `/v1/events/${IDS.exactHistorical}/artists` });
      assert.deepEqual(e.venues, { items: [], isComplete: true, href: `/v1/events/${IDS.exactHistorical}/venues` });
    });

    test('schedule: atomic; boundaries by precision; end omitted when unknown; no invented midnight', async () => {
      const got = await all({ fields: 'schedule' });
      for (const [, e] of got) {
        const s = e.schedule;
        const keys = sortedKeys(s);
        const expected = ['referenceTimeZoneId', 'start', 'temporalPhaseBasisCode', 'temporalPhaseCode'];
        assert.deepEqual(keys, 'end' in s ? [...expected, 'end'].sort() : expected);
        for (const b of [s.start, s.end].filter(Boolean)) {
          if (b.precision === 'date') assert.deepEqual(sortedKeys(b), ['localDate', 'precision']);
          else assert.deepEqual(sortedKeys(b), ['instant', 'localDate', 'localTime', 'precision']);
        }
      }
      const open = got.get(IDS.openInferredCurrent).schedule;
      assert.ok(!('end' in open), 'no end key (not null) when the end is unknown');
      assert.deepEqual(got.get(IDS.dateTodayParis).schedule.start, { precision: 'date', localDate: '2025-07-01' });
      assert.deepEqual(got.get(IDS.micro6).schedule.start, {
        precision: 'date-time',
        localDate: '2025-10-01',
        localTime: '14:00',
        instant: '2025-10-01T14:00:00.123456+02:00',
      });
      assert.deepEqual(got.get('EvMixedEnd02').schedule.end, { precision: 'date-time', localDate: '2025-07-05', localTime: '23:00', instant: '2025-07-05T23:00:00+02:00' });
      assert.equal(got.get(IDS.marsTimed).schedule.referenceTimeZoneId, 'Mars/Olympus_Mons');
    });

    test('profile media: only ready (and active) media, exactly six keys; legacy Artists expose the first ready by position', async () => {
      const got = await all({ fields: 'profileMedia,artists,venues' });
      assert.deepEqual(got.get(IDS.allFields).profileMedia, {
        publicId: MEDIA.ready1,
        src: 'https://img.example/ready1.jpg',
        thumbnailSrc: 'https://img.example/ready1-t.jpg',
        altText: 'Stage at night',
        width: 1600,
        height: 900,
      });
      assert.deepEqual(got.get('EvDjSet00001').profileMedia, {
        publicId: MEDIA.ready2,
        src: 'http://img.example/ready2.png',
        thumbnailSrc: null,
        altText: null,
        width: 9007199254740991,
        height: 1,
      });
      assert.deepEqual(sortedKeys(got.get('EvBareMedia1').profileMedia), ['altText', 'height', 'publicId', 'src', 'thumbnailSrc', 'width']);
      assert.equal(got.get(IDS.pendingMedia).profileMedia, null);
      assert.equal(got.get('EvFailMedia1').profileMedia, null);
      assert.equal(got.get('EvOffMedia01').profileMedia, null);
      const legacy = got.get(IDS.allFields).artists.items.find((a: any) => a.publicId === ARTISTS.legacy);
      assert.equal(legacy.profileMedia.publicId, MEDIA.artistA, 'pending at position 0 is skipped');
    });

    test('previews: at most 5 items in bytewise name order, isComplete counts only eligible members, exact href', async () => {
      const got = await all({ include: 'artists,venues' });
      const seven = got.get(IDS.sevenArtists);
      assert.deepEqual(
        seven.artists.items.map((a: any) => a.name),
        ['Alpha', 'Zed', 'alpha', 'Ångström', '\uFF21rtist Fullwidth'],
        'bytewise (UTF-8) order: U+FF21 before U+1F600, unlike UTF-16',
      );
      assert.equal(seven.artists.isComplete, false);
      assert.equal(seven.artists.href, `/v1/events/${IDS.sevenArtists}/artists`);
      assert.equal(seven.venues.items.length, 5);
      assert.equal(seven.venues.isComplete, false);
      assert.ok(!seven.venues.items.some((v: any) => v.publicId === VENUES.inactiveAachen));
      const five = got.get(IDS.fiveEligibleArtists);
      assert.deepEqual(five.artists.items.map((a: any) => a.publicId), [ARTISTS.beyonce, ARTISTS.legacy, ARTISTS.sameName2, ARTISTS.sameName1, ARTISTS.zed]);
      assert.equal(five.artists.isComplete, true, 'the inactive sixth Artist is not eligible');
      assert.deepEqual(five.venues, { items: [], isComplete: true, href: `/v1/events/${IDS.fiveEligibleArtists}/venues` });
      const fw = got.get('EvFullwidth1');
      assert.deepEqual(fw.artists.items.map((a: any) => a.publicId), [ARTISTS.alphaUpper, ARTISTS.zed, ARTISTS.alphaLower, ARTISTS.angstrom, ARTISTS.fullwidth]);
      assert.equal(fw.artists.isComplete, false);
      const spaced = got.get('EvSpacedVen1');
      assert.deepEqual(spaced.venues.items.map((v: any) => v.publicId), [VENUES.tokyo, VENUES.spaced], '武道館 (E6 AD A6) before Ａ Hall (EF BC A1)');
    });

    test('Artist and Venue items: default and include shapes; the three location shapes', async () => {
      const plain = await all({ fields: 'artists,venues' });
      const rich = await all({ fields: 'artists,venues', include: 'artists,venues' });
      const e = IDS.allFields;
      for (const a of plain.get(e).artists.items) assert.deepEqual(sortedKeys(a), ['name', 'profileMedia', 'publicId', 'slug']);
      for (const a of rich.get(e).artists.items) assert.deepEqual(sortedKeys(a), ['description', 'name', 'profileMedia', 'publicId', 'slug']);
      for (const v of plain.get(e).venues.items) assert.deepEqual(sortedKeys(v), ['location', 'name', 'profileMedia', 'publicId', 'slug', 'statusCode']);
      for (const v of rich.get(e).venues.items) {
        assert.deepEqual(sortedKeys(v), ['capacity', 'contact', 'description', 'links', 'location', 'name', 'profileMedia', 'publicId', 'publishedCoordinates', 'slug', 'statusCode']);
        assert.deepEqual(sortedKeys(v.contact), ['email', 'phoneNumber']);
      }
      const byId = (list: any[], id: string) => list.find((x) => x.publicId === id);
      const venues = rich.get(e).venues.items;
      assert.deepEqual(byId(venues, VENUES.tba).location, { stateCode: 'tba' });
      assert.deepEqual(byId(venues, VENUES.coordsOnly).location, { stateCode: 'coordinate-only', locality: null, countryName: null, countryCode: null });
      assert.deepEqual(byId(venues, VENUES.berlin).location, { stateCode: 'coordinate-only', locality: 'Berlin', countryName: 'Germany', countryCode: 'DE' });
      assert.deepEqual(byId(venues, VENUES.paris).location, {
        stateCode: 'formatted',
        formattedAddress: '252 Rue du Faubourg Saint-Honoré, Paris',
        locality: 'Paris',
        countryName: 'France',
        countryCode: 'FR',
      });
      assert.deepEqual(byId(venues, VENUES.paris).publishedCoordinates, { latitude: 48.8771, longitude: 2.3009 });
      assert.equal(byId(venues, VENUES.berlin).publishedCoordinates, null, 'not published');
      assert.equal(byId(venues, VENUES.berlin).statusCode, 'permanently-closed');
      assert.deepEqual(byId(venues, VENUES.coordsOnly).publishedCoordinates, { latitude: -33.9, longitude: 151.2 });
      assert.deepEqual(byId(venues, VENUES.paris).contact, { email: 'box@pleyel.example', phoneNumber: '+33 1 00 00 00 00' });
      assert.deepEqual(byId(venues, VENUES.tba).contact, { email: null, phoneNumber: null });
      const lyon = rich.get(IDS.exactCurrent).venues.items[0];
      assert.equal(lyon.capacity, 0);
      assert.equal(lyon.statusCode, 'on-hiatus');
      const artists = rich.get(e).artists.items;
      assert.equal(byId(artists, ARTISTS.alphaLower).description, null);
      assert.equal(byId(artists, ARTISTS.beyonce).description, 'About Beyoncé');
      // include upgrades only the named relationship
      const onlyArtists = await all({ include: 'artists' });
      for (const v of onlyArtists.get(e).venues.items) assert.ok(!('description' in v));
      for (const a of onlyArtists.get(e).artists.items) assert.ok('description' in a);
    });

    test('extras: URL collections, digital locations, direct Series and Edition programs (active only, paired)', async () => {
      const got = await all({ fields: ALL_FIELDS.join(',') });
      const e = got.get(IDS.allFields);
      assert.equal(e.links.length, 25, 'exactly 25 entries are fine');
      assert.deepEqual(e.links[1], { url: 'https://ok.example/1', label: null });
      assert.deepEqual(e.ticketLinks, [{ url: 'https://tickets.example/all', label: 'Buy' }]);
      assert.deepEqual(e.digitalLocations, [
        { url: 'https://stream.example/live', label: null, kindCode: 'livestream' },
        { url: 'https://stream.example/replay', label: 'Replay', kindCode: 'stream-replay' },
      ]);
      assert.deepEqual(e.directEventSeries.map((s: any) => s.name), ['Empty Series', 'Jazz Nights']);
      assert.deepEqual(e.directEventSeries[1], { publicId: 'SrDirect0001', slug: 'jazz-nights', name: 'Jazz Nights', structureCode: 'direct' });
      assert.deepEqual(
        e.editionPrograms.map((p: any) => [p.series.publicId, p.edition.publicId]),
        [
          ['SrEditioned1', 'Ed2024000001'],
          ['SrEditioned1', 'Ed2025000001'],
        ],
        'the inactive Edition is not listed',
      );
      assert.deepEqual(got.get('EvJazz000002').directEventSeries.map((s: any) => s.publicId), ['SrDirect0001'], 'inactive Series omitted');
      assert.equal(e.eventTypeCode, 'concert');
      assert.equal(e.description, 'Everything selected');
      assert.match(e.updatedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    });

    test('Event rule 4: excluded fields never appear (canaries), with every field and relationship upgraded', async () => {
      const { pages } = await traverse(w.server, `/v1/events?${qs({ limit: '50', fields: ALL_FIELDS.join(','), include: 'artists,venues' })}`);
      const text = pages.map((p) => p.text).join('\n');
      for (const canary of CANARIES) assert.ok(!text.includes(canary), canary);
      for (const key of ['authoring', 'originalFilename', 'uploadName', 'storageKey', 'blurDataUrl', 'addressProvenance', 'timeZoneSuggestion', 'gallery', 'galleryMediaIds', 'projectionHash', '"id"']) {
        assert.ok(!text.includes(key), `no ${key} in output`);
      }
      // and no statement reads them (allow-list)
      w.server.statements.length = 0;
      await call(w.server, `/v1/events?${qs({ limit: '50', fields: ALL_FIELDS.join(','), include: 'artists,venues' })}`);
      for (const s of w.server.statements) {
        for (const column of ['authoring', 'original_filename', 'upload_name', 'storage_key', 'blur_data_url', 'address_provenance', 'time_zone_suggestion', 'event_gallery', 'projection_hash']) {
          assert.ok(!s.text.includes(column), `${s.name} reads ${column}`);
        }
        assert.ok(!/\*\s+FROM/i.test(s.text), `${s.name} selects *`);
      }
    });

    test('values never enter SQL text', async () => {
      w.server.statements.length = 0;
      const evil = "x'; DROP TABLE events; --";
      const got = await call(w.server, `/v1/events?${qs({ nameContains: evil, cityContains: evil, countryContains: evil })}`);
      assert.equal(got.status, 200);
      assert.ok(w.server.statements.length > 0);
      for (const s of w.server.statements) assert.ok(!s.text.includes('DROP TABLE'), s.text);
    });

    for (const [id, field, date, next] of [
      [IDS.thirtyLinks, 'links', '2025-07-02', '2025-07-03'],
      [IDS.ftpLink, 'ticketLinks', '2025-07-03', '2025-07-04'],
      [IDS.ftpMedia, 'profileMedia', '2025-07-12', '2025-07-13'],
    ] as const) {
      test(`Event rule 3: a sanitized 500 when ${id}'s ${field} is selected (never truncated or dropped)`, async () => {
        const range = { startLocalDateGte: date, startLocalDateLt: next };
        try {
          await importDoc(w.db, withActive(id, true));
          const sel = await call(w.server, `/v1/events?${qs({ ...range, fields: `name,${field}`, limit: '50' })}`);
          assert.equal(sel.status, 500, sel.text);
          assert.deepEqual(sortedKeys(sel.body), ['error', 'ok']);
          assert.equal(sel.body.error.type, 'internal_error');
          assert.deepEqual(sortedKeys(sel.body.error), ['message', 'type']);
          for (const leak of ['SELECT', 'select', 'stack', ' at ', 'ProjectionError', 'links', 'ftp', '25', 'projection', '.ts']) {
            assert.ok(!sel.body.error.message.includes(leak), `message leaks "${leak}": ${sel.body.error.message}`);
          }
          assert.equal(sel.headers.get('cache-control'), 'no-store');
          assert.equal(sel.headers.get('etag'), null);
          assert.equal(sel.headers.get('access-control-allow-origin'), '*');
          assert.ok(sel.headers.get('x-request-id'));
          const all = await call(w.server, `/v1/events?${qs({ fields: ALL_FIELDS.join(','), limit: '50' })}`);
          assert.equal(all.status, 500, 'also within a larger page');
          // without the field, the Event is served
          const plain = await call(w.server, `/v1/events?${qs({ ...range, fields: 'name', limit: '50' })}`);
          assert.equal(plain.status, 200);
          assert.ok(plain.body.data.some((e: { publicId: string }) => e.publicId === id));
        } finally {
          await importDoc(w.db, withActive(id, false));
        }
        const after = await call(w.server, `/v1/events?${qs({ fields: ALL_FIELDS.join(','), limit: '50' })}`);
        assert.equal(after.status, 200);
      });
    }

    test('Event rule 3: an empty stored name is an invalid projection → sanitized 500 when name is selected', async () => {
      const range = { startLocalDateGte: '2025-07-11', startLocalDateLt: '2025-07-12' };
      try {
        await importDoc(w.db, withActive(IDS.emptyName, true));
        const got = await call(w.server, `/v1/events?${qs({ ...range })}`);
        assert.equal(got.status, 500);
        assert.equal(got.body.error.type, 'internal_error');
        const ok = await call(w.server, `/v1/events?${qs({ ...range, fields: 'slug,schedule' })}`);
        assert.equal(ok.status, 200);
        assert.deepEqual(ok.body.data.map((e: { publicId: string }) => e.publicId), [IDS.emptyName]);
      } finally {
        await importDoc(w.db, withActive(IDS.emptyName, false));
      }
    });

    test('an invalid stored preview → sanitized 500 when selected, also after its valid text was served (rendered once per text)', async () => {
      const { rows } = await w.db.pool.query<{ id: string; public_id: string; day: string; artists: string }>(
        `SELECT e.id::text, e.public_id, e.start_local_date::text AS day, p.artists::text AS artists
           FROM events e JOIN event_previews p ON p.event_id = e.id
          WHERE e.active AND json_array_length(p.artists) > 0 ORDER BY e.public_id LIMIT 1`,
      );
      const target = rows[0]!;
      const next = new Date(Date.parse(`${target.day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      const range = { startLocalDateGte: target.day, startLocalDateLt: next, limit: '50' };
      const url = (fields: string) => `/v1/events?${qs({ ...range, fields })}`;
      const detail = `/v1/events/${target.public_id}?fields=artists`;
      const valid = await call(w.server, url('artists'));
      assert.equal(valid.status, 200);
      const detailStatus = async () => (await w.server.get(detail)).status;
      assert.equal(await detailStatus(), 200);
      const store = (artists: string) => w.db.pool.query('UPDATE event_previews SET artists = $1::json WHERE event_id = $2::bigint', [artists, target.id]);
      // each member stored as the array of its values (queries/event-relations.ts STORED_PREVIEW_NAMES)
      const stored = JSON.parse(target.artists) as unknown[][];
      const named = (values: unknown[]) => Object.fromEntries(STORED_PREVIEW_NAMES.artists.map((n, i) => [n, values[i]]));
      const emptyName = (values: unknown[]) => values.map((v, i) => (STORED_PREVIEW_NAMES.artists[i] === 'name' ? '' : v));
      try {
        for (const invalid of [
          JSON.stringify([emptyName(stored[0]!), ...stored.slice(1)]),
          JSON.stringify([{ ...named(stored[0]!), name: '' }, ...stored.slice(1)]), // the older object form
          JSON.stringify([stored[0]!.slice(1), ...stored.slice(1)]), // a value missing
          '{"not":"a list"}',
        ]) {
          await store(invalid);
          assert.equal(await detailStatus(), 500, 'an Event detail too');
          for (const path of [url('artists'), url('name,artists,venues')]) {
            const got = await call(w.server, path);
            assert.equal(got.status, 500, `${path} with ${invalid.slice(0, 40)}`);
            assert.equal(got.body.error.type, 'internal_error');
            assert.doesNotMatch(JSON.stringify(got.body), /not":"a list|stored projection|TypeError/);
          }
          assert.equal((await call(w.server, url('name,venues'))).status, 200, 'without the field, the page is served');
        }
      } finally {
        await store(target.artists);
      }
      const again = await call(w.server, url('artists'));
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, valid.body);
    });

    test("an Event's own columns changed by hand after being served: never a stale answer (rendered once per row text, not per Event)", async () => {
      const { rows } = await w.db.pool.query<{ id: string; public_id: string; day: string; name: string; links: string }>(
        `SELECT e.id::text, e.public_id, e.start_local_date::text AS day, e.name, e.links::text AS links
           FROM events e WHERE e.active ORDER BY e.public_id LIMIT 1`,
      );
      const target = rows[0]!;
      const next = new Date(Date.parse(`${target.day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      const page = `/v1/events?${qs({ startLocalDateGte: target.day, startLocalDateLt: next, limit: '50', fields: 'publicId,name,links,schedule' })}`;
      const detail = `/v1/events/${target.public_id}?fields=name,links,schedule`;
      const itemOf = async () => {
        const got = await call(w.server, page);
        return { status: got.status, item: got.status === 200 ? (got.body.data as { publicId: string }[]).find((e) => e.publicId === target.public_id) : undefined, body: got.body };
      };
      const before = await itemOf();
      assert.equal(before.status, 200);
      assert.equal((before.item as { name?: string } | undefined)?.name, target.name);
      const set = (name: string, links: string) =>
        w.db.pool.query('UPDATE events SET name = $1, links = $2::jsonb WHERE id = $3::bigint', [name, links, target.id]);
      try {
        // a valid change is shown at once, on the page and the detail
        await set(`${target.name} (renamed)`, '[{"url":"https://example.org/x","label":"x"}]');
        const renamed = await itemOf();
        assert.equal((renamed.item as { name?: string } | undefined)?.name, `${target.name} (renamed)`);
        assert.deepEqual((renamed.item as { links?: unknown } | undefined)?.links, [{ url: 'https://example.org/x', label: 'x' }]);
        const renamedDetail = (await (await w.server.get(detail)).json()) as { data: { name: string } };
        assert.equal(renamedDetail.data.name, `${target.name} (renamed)`);
        // an invalid one is the sanitized 500 for every request selecting it, also after the valid row was rendered
        await set('', target.links);
        for (let i = 0; i < 2; i++) {
          const broken = await itemOf();
          assert.equal(broken.status, 500);
          assert.equal(broken.body.error.type, 'internal_error');
          assert.equal((await w.server.get(detail)).status, 500);
        }
        assert.equal((await w.server.get(`/v1/events/${target.public_id}?fields=links`)).status, 200, 'without the field, the Event is served');
      } finally {
        await set(target.name, target.links);
      }
      const after = await itemOf();
      assert.equal(after.status, 200);
      assert.deepEqual(after.item, before.item);
    });

    test('statement budget: ≤ 8 per request with every relationship and include, not growing with limit', async () => {
      const counts: number[] = [];
      for (const limit of [1, 2, 5, 20, 50]) {
        w.server.statements.length = 0;
        const got = await call(w.server, `/v1/events?${qs({ limit: String(limit), fields: ALL_FIELDS.join(','), include: 'artists,venues' })}`);
        assert.equal(got.status, 200);
        assert.equal(got.body.data.length, limit);
        counts.push(w.server.statements.length);
      }
      assert.ok(counts.every((c) => c <= 8), JSON.stringify(counts));
      assert.ok(counts.every((c) => c === counts[0]), `constant in limit: ${JSON.stringify(counts)}`);
      // a whole traversal at limit 1 costs the same per page
      const { pages } = await traverse(w.server, `/v1/events?${qs({ limit: '1', fields: ALL_FIELDS.join(','), include: 'artists,venues', startLocalDateGte: '2025-08-01', startLocalDateLt: '2025-08-13' })}`);
      assert.ok(pages.length > 5);
      for (const fields of ['publicId', 'name,schedule,profileMedia,updatedAt']) {
        w.server.statements.length = 0;
        await call(w.server, `/v1/events?${qs({ fields, limit: '50' })}`);
        assert.equal(w.server.statements.length, 1, `fields=${fields}: one statement without relationships`);
      }
      w.server.statements.length = 0;
      await call(w.server, `/v1/events?${qs({ limit: '50' })}`);
      assert.ok(w.server.statements.length <= 3, `defaults: ${w.server.statements.length}`);
      w.server.statements.length = 0;
      const empty = await call(w.server, `/v1/events?${qs({ artistId: ARTISTS.inactive, fields: ALL_FIELDS.join(',') })}`);
      assert.deepEqual(empty.body.data, []);
      assert.ok(w.server.statements.length <= 8);
    });
  });
}
