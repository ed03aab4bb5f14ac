/**
 * The primary active Venue keys kept on each Event (migration 003, src/catalogue/primary-venue.ts):
 * set by the import, recomputed when an Event's Venue list or one of its Venues changes, equal
 * after every import to decisions §5's definition evaluated directly.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Database } from '../../src/db/database.js';
import { fullEvent } from './fixture.js';
import { clone, importDoc, pid, storePerSuite, testEngines } from './support.js';

const V = { berlin: pid('vpa', 1), lyon: pid('vpb', 2), noCity: pid('vpc', 3), aachen: pid('vpd', 4) };
const E = { two: pid('epa', 1), noCity: pid('epb', 2), inactiveFirst: pid('epc', 3), none: pid('epd', 4) };

const venue = (publicId: string, name: string, locality: string, countryName: string | null, active = true) => ({
  publicId, slug: name.toLowerCase(), name, statusCode: 'operational', active,
  address: { formattedAddress: null, locality, countryName, countryCode: null },
});
const event = (publicId: string, venueIds: string[]) => ({
  ...clone(fullEvent), publicId, venueIds, artistIds: [], seriesIds: [], editionIds: [], profileMediaId: null, galleryMediaIds: [],
});

function baseDocument() {
  return {
    venues: [
      venue(V.berlin, 'Alpha', 'Berlin', 'Germany'),
      venue(V.lyon, 'Beta', 'Lyon ', 'France'),
      venue(V.noCity, 'Gamma', '', 'Spain'),
      venue(V.aachen, 'Delta', 'Aachen', 'Germany', false),
    ],
    events: [
      event(E.two, [V.lyon, V.berlin]),
      event(E.noCity, [V.noCity]),
      event(E.inactiveFirst, [V.aachen, V.lyon]),
      event(E.none, []),
    ],
  };
}

async function keys(db: Database): Promise<Record<string, [string | null, string | null]>> {
  const { rows } = await db.pool.query<{ public_id: string; city: string | null; country: string | null }>(
    'SELECT public_id, primary_locality_key AS city, primary_country_key AS country FROM events ORDER BY public_id',
  );
  return Object.fromEntries(rows.map((r) => [r.public_id, [r.city, r.country]]));
}

/** The definition of decisions §5, evaluated directly (the read side's former subquery). */
async function assertMatchesDefinition(db: Database): Promise<void> {
  const { rows } = await db.pool.query(
    `SELECT e.public_id FROM events e
      WHERE e.primary_locality_key IS DISTINCT FROM (
              SELECT v.locality_key FROM event_venues ev JOIN venues v ON v.id = ev.venue_id
               WHERE ev.event_id = e.id AND v.active AND v.locality <> '' AND v.country_name <> ''
               ORDER BY v.locality, v.country_name, v.public_id LIMIT 1)
         OR e.primary_country_key IS DISTINCT FROM (
              SELECT v.country_name_lower FROM event_venues ev JOIN venues v ON v.id = ev.venue_id
               WHERE ev.event_id = e.id AND v.active AND v.locality <> '' AND v.country_name <> ''
               ORDER BY v.country_name, v.locality, v.public_id LIMIT 1)`,
  );
  assert.deepEqual(rows, [], 'every Event holds its primary Venue keys');
}

for (const engine of testEngines()) {
  describe(`primary Venue keys (${engine.name})`, () => {
    const store = storePerSuite(engine);

    test('set by the import: eligible active Venues only, city and country orders differ', async () => {
      await importDoc(store.db, baseDocument());
      assert.deepEqual(await keys(store.db), {
        [E.two]: ['berlin', 'france'], // Berlin < Lyon by locality; France < Germany by country
        [E.noCity]: [null, null], // no locality: not eligible
        [E.inactiveFirst]: ['lyon', 'france'], // Aachen's Venue is inactive
        [E.none]: [null, null],
      });
      await assertMatchesDefinition(store.db);
    });

    test('recomputed when a Venue alone is re-imported, when an Event changes its Venues, and by --replace', async () => {
      await importDoc(store.db, baseDocument());
      // a Venue's locality changes (no Event in the document)
      await importDoc(store.db, { venues: [venue(V.berlin, 'Alpha', 'Zürich', 'Germany')] });
      assert.deepEqual((await keys(store.db))[E.two], ['lyon', 'france']);
      await assertMatchesDefinition(store.db);
      // a Venue is deactivated, another activated
      await importDoc(store.db, { venues: [venue(V.lyon, 'Beta', 'Lyon', 'France', false), venue(V.aachen, 'Delta', 'Aachen', 'Germany')] });
      assert.deepEqual((await keys(store.db))[E.two], ['zürich', 'germany']);
      assert.deepEqual((await keys(store.db))[E.inactiveFirst], ['aachen', 'germany']);
      await assertMatchesDefinition(store.db);
      // an Event's Venue list changes
      await importDoc(store.db, { events: [event(E.noCity, [V.noCity, V.berlin])] });
      assert.deepEqual((await keys(store.db))[E.noCity], ['zürich', 'germany']);
      await assertMatchesDefinition(store.db);
      // --replace: Berlin's Venue is gone
      const doc = baseDocument();
      doc.venues = doc.venues.filter((v) => v.publicId !== V.berlin);
      doc.events = [event(E.two, [V.lyon]), event(E.noCity, [V.noCity])];
      await importDoc(store.db, doc, { replace: true });
      assert.deepEqual(await keys(store.db), { [E.two]: ['lyon', 'france'], [E.noCity]: [null, null] });
      await assertMatchesDefinition(store.db);
    });
  });
}
