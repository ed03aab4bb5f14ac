/**
 * "Case-insensitive" (spec Endpoints: Event `nameContains`, `cityContains`, `countryContains`;
 * Venue `nameContains` and `locality`; Artist and Series `nameContains`) for texts whose lower
 * case depends on where a letter stands: JavaScript lower-cases Σ to ς at the end of a word and to
 * σ elsewhere, so a term cut inside a word (`ΚΟΣ` of `ΚΟΣΜΟΣ`), a lone `Σ`, or a term typed with
 * σ at its end found nothing while the name held it. And letters that are case variants of
 * another lower-case letter (µ micro sign and μ) must match each other. On both engines, through
 * the stored keys the importer writes (src/text/normalize.ts `caseKey`).
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { CatalogueDocument } from '../../src/catalogue/document.js';
import { importCatalogue } from '../../src/catalogue/importer.js';
import { engines, serveForSuite } from '../helper.js';

const catalogue: CatalogueDocument = {
  artists: [
    { publicId: 'ArKastro0001', slug: 'kastro', name: 'ΚΑΣΤΡΟ' },
    { publicId: 'ArOther00001', slug: 'other', name: 'Other' },
  ],
  venues: [
    {
      publicId: 'VnKosmos0001', slug: 'kosmos', name: 'ΚΟΣΜΟΣ Club', statusCode: 'operational',
      address: { formattedAddress: 'Οδός 1, Πειραιάς', locality: 'ΠΕΙΡΑΙΑΣ', countryName: 'ΕΛΛΑΣ', countryCode: 'GR' },
    },
    { publicId: 'VnMicro00001', slug: 'micro', name: 'µ-Club', statusCode: 'operational' },
    { publicId: 'VnOther00001', slug: 'other', name: 'Other Hall', statusCode: 'operational' },
  ],
  series: [
    { publicId: 'SrKyklos0001', slug: 'kyklos', name: 'ΚΥΚΛΟΣ ΑΣΤΡΩΝ', structureCode: 'direct' },
  ],
  events: [
    {
      publicId: 'EvKosmos0001', slug: 'kosmos-live', name: 'ΚΟΣΜΟΣ Live', administrativeStateCode: 'scheduled',
      schedule: { referenceTimeZoneId: 'Europe/Athens', start: { precision: 'date', localDate: '2030-05-01' } },
      venueIds: ['VnKosmos0001'], artistIds: ['ArKastro0001'], seriesIds: ['SrKyklos0001'],
    },
    {
      publicId: 'EvOther00001', slug: 'other', name: 'Other Night', administrativeStateCode: 'scheduled',
      schedule: { referenceTimeZoneId: 'Europe/Athens', start: { precision: 'date', localDate: '2030-05-02' } },
      venueIds: ['VnOther00001'],
    },
  ],
};

for (const engine of engines()) {
  describe(`case-insensitive matching of cased scripts (${engine.name})`, () => {
    const suite = serveForSuite(engine, {}, { prepare: (db) => importCatalogue(db, Readable.from([JSON.stringify(catalogue)])) });

    async function ids(path: string): Promise<string[]> {
      const page = await suite.server.json(path);
      assert.equal(page.status, 200, `${path}: ${JSON.stringify(page.body)}`);
      return page.body.data.map((r: { publicId: string }) => r.publicId);
    }
    const q = encodeURIComponent;

    it('Venue nameContains: a term cut inside a word, a lone sigma, a final σ typed as σ', async () => {
      for (const term of ['ΚΟΣ', 'κοσ', 'Σ', 'σ', 'ς', 'ΚΟΣΜΟΣ', 'κοσμοσ', 'κοσμος', 'Κοσ']) {
        assert.deepEqual(await ids(`/v1/venues?nameContains=${q(term)}`), ['VnKosmos0001'], term);
      }
      assert.deepEqual(await ids(`/v1/venues?nameContains=${q('ΚΟΣΤ')}`), []);
    });

    it('Venue nameContains: the micro sign and the Greek mu are one letter', async () => {
      for (const term of ['µ-club', 'Μ-CLUB', 'μ-Club']) assert.deepEqual(await ids(`/v1/venues?nameContains=${q(term)}`), ['VnMicro00001'], term);
    });

    it('Venue locality: case-insensitive equality, whichever sigma either side has', async () => {
      for (const term of ['ΠΕΙΡΑΙΑΣ', 'πειραιας', 'πειραιασ', 'Πειραιας']) {
        assert.deepEqual(await ids(`/v1/venues?locality=${q(term)}`), ['VnKosmos0001'], term);
      }
      assert.deepEqual(await ids(`/v1/venues?locality=${q('ΠΕΙΡΑΙΑ')}`), []);
    });

    it('Event nameContains, cityContains and countryContains', async () => {
      for (const term of ['ΚΟΣ', 'Σ', 'κοσμοσ live', 'ΟΣ L']) assert.deepEqual(await ids(`/v1/events?nameContains=${q(term)}`), ['EvKosmos0001'], `name ${term}`);
      for (const term of ['Σ', 'ΑΣ', 'πειραιασ']) assert.deepEqual(await ids(`/v1/events?cityContains=${q(term)}`), ['EvKosmos0001'], `city ${term}`);
      for (const term of ['Σ', 'ελλασ', 'ΕΛΛΑΣ']) assert.deepEqual(await ids(`/v1/events?countryContains=${q(term)}`), ['EvKosmos0001'], `country ${term}`);
    });

    it('Artist and Series nameContains', async () => {
      assert.deepEqual(await ids(`/v1/artists?nameContains=${q('ΚΑΣ')}`), ['ArKastro0001']);
      assert.deepEqual(await ids(`/v1/series?nameContains=${q('ΑΣ')}`), ['SrKyklos0001']);
      assert.deepEqual(await ids(`/v1/series?nameContains=${q('ΚΥΚΛΟΣ Α')}`), ['SrKyklos0001']);
    });
  });
}
