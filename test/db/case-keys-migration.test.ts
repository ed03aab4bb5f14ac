/**
 * Migration 025 rewrites a stored catalogue's case-insensitive keys (`toLowerCase()` until then)
 * as the importer now writes them (src/text/normalize.ts `caseKey`): its `translate` pairs must be
 * `FOLDS`, letter for letter, on every key column, and rows without such a letter stay untouched.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { importCatalogue } from '../../src/catalogue/importer.js';
import type { CatalogueDocument } from '../../src/catalogue/document.js';
import type { Database } from '../../src/db/database.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { FOLDS, foldName, localityKey, lowerName } from '../../src/text/normalize.js';
import { testEngines } from '../catalogue/support.js';

// every letter the keys change, after a capital sigma ending a word; and a name with none
const EVERY = `${Object.keys(FOLDS).join('')} ΟΔΟΣ`;
const names = [`Name ${EVERY}`, 'ΚΟΣΜΟΣ', 'Plain name'];

const catalogue: CatalogueDocument = {
  artists: names.map((name, i) => ({ publicId: `ArCaseKey00${i}`, slug: `a-${i}`, name })),
  series: names.map((name, i) => ({ publicId: `SrCaseKey00${i}`, slug: `s-${i}`, name, structureCode: 'editioned' as const })),
  editions: names.map((name, i) => ({ publicId: `EdCaseKey00${i}`, seriesId: `SrCaseKey00${i}`, slug: `ed-${i}`, name, startLocalDate: '2030-01-01' })),
  venues: names.map((name, i) => ({
    publicId: `VnCaseKey00${i}`, slug: `v-${i}`, name, statusCode: 'operational' as const,
    address: { formattedAddress: name, locality: ` ${name} `, countryName: name, countryCode: 'GR' },
  })),
  events: names.map((name, i) => ({
    publicId: `EvCaseKey00${i}`, slug: `e-${i}`, name, administrativeStateCode: 'scheduled' as const,
    schedule: { referenceTimeZoneId: 'UTC', start: { precision: 'date' as const, localDate: '2030-01-01' } },
    venueIds: [`VnCaseKey00${i}`],
  })),
};

/** A row's text as PostgreSQL writes it, to compare several key columns at once. */
const rowText = async (db: Database, cells: readonly (string | null)[]) =>
  (await db.pool.query<{ r: string }>(`SELECT row(${cells.map((_, i) => `$${i + 1}::text`).join(', ')})::text AS r`, [...cells])).rows[0]!.r;

for (const engine of testEngines()) {
  describe(`migration 025: the stored case keys (${engine.name})`, () => {
    test('rewrites every key column as caseKey, and only the rows it changes', async () => {
      const all = loadMigrations();
      const { db, close } = await engine.open(all.filter((m) => m.version < 25));
      try {
        await importCatalogue(db, Readable.from([JSON.stringify(catalogue)]));
        // the keys as an importer before caseKey wrote them: toLowerCase() alone
        for (const [i, name] of names.entries()) {
          const old = name.toLowerCase();
          const folded = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
          await db.pool.query('UPDATE artists SET name_lower = $2 WHERE public_id = $1', [`ArCaseKey00${i}`, old]);
          await db.pool.query('UPDATE series SET name_lower = $2 WHERE public_id = $1', [`SrCaseKey00${i}`, old]);
          await db.pool.query('UPDATE editions SET name_lower = $2 WHERE public_id = $1', [`EdCaseKey00${i}`, old]);
          await db.pool.query('UPDATE venues SET name_lower = $2, locality_key = $3, country_name_lower = $2 WHERE public_id = $1', [
            `VnCaseKey00${i}`, old, name.trim().toLowerCase(),
          ]);
          await db.pool.query(
            'UPDATE events SET name_lower = $2, name_folded = $3, primary_locality_key = $4, primary_country_key = $2 WHERE public_id = $1',
            [`EvCaseKey00${i}`, old, folded, name.trim().toLowerCase()],
          );
        }
        const stamp = async () => (await db.pool.query(`SELECT string_agg(public_id || updated_at::text, ',' ORDER BY public_id) AS s
          FROM (SELECT public_id, updated_at FROM artists UNION ALL SELECT public_id, updated_at FROM series
                UNION ALL SELECT public_id, updated_at FROM editions UNION ALL SELECT public_id, updated_at FROM venues
                UNION ALL SELECT public_id, updated_at FROM events) t`)).rows[0].s;
        const before = await stamp();
        // a row's xmin changes when it is written
        const written = async () => new Map((await db.pool.query<{ public_id: string; x: string }>('SELECT public_id, xmin::text AS x FROM events')).rows.map((r) => [r.public_id, r.x]));
        const eventsBefore = await written();

        assert.deepEqual(await migrate(db, all), [25, ...all.filter((m) => m.version > 25).map((m) => m.version)]);

        for (const [i, name] of names.entries()) {
          const key = lowerName(name);
          const { rows } = await db.pool.query(
            `SELECT (SELECT name_lower FROM artists WHERE public_id = $1) AS artist,
                    (SELECT name_lower FROM series WHERE public_id = $2) AS series,
                    (SELECT name_lower FROM editions WHERE public_id = $5) AS edition,
                    (SELECT row(name_lower, locality_key, country_name_lower)::text FROM venues WHERE public_id = $3) AS venue,
                    (SELECT row(name_lower, name_folded, primary_locality_key, primary_country_key)::text FROM events WHERE public_id = $4) AS event`,
            [`ArCaseKey00${i}`, `SrCaseKey00${i}`, `VnCaseKey00${i}`, `EvCaseKey00${i}`, `EdCaseKey00${i}`],
          );
          assert.equal(rows[0].artist, key, name);
          assert.equal(rows[0].series, key, name);
          assert.equal(rows[0].edition, key, name);
          assert.equal(rows[0].venue, await rowText(db, [key, localityKey(` ${name} `), key]), name);
          assert.equal(rows[0].event, await rowText(db, [key, foldName(name), localityKey(name), key]), name);
        }
        // no marker moved; the Event without such a letter was not written
        assert.equal(await stamp(), before);
        const eventsAfter = await written();
        assert.equal(eventsAfter.get('EvCaseKey002'), eventsBefore.get('EvCaseKey002'), 'a plain name is not rewritten');
        assert.notEqual(eventsAfter.get('EvCaseKey000'), eventsBefore.get('EvCaseKey000'));
      } finally {
        await close();
      }
    });
  });
}
