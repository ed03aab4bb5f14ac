/**
 * Each media's part of the projection hashes (migration 018): computed in JavaScript by the importer
 * (rows.ts `mediaPublicPart`), it must be byte for byte the expression the merge evaluated before —
 * `md5(jsonb_build_array(public_id, src, thumbnail_src, alt_text, width, height, active)::text)`
 * while ready, else '-' — or every stored hash, and so every marker, would change with the upgrade.
 * Checked on each engine against the engine's own expression, over the imported rows (escapes,
 * non-ASCII text, nulls, large and negative integers, every status) and for the demo catalogue;
 * and the migration's own fill of a catalogue stored before it against the JavaScript.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Database } from '../../src/db/database.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { mediaPublicPart } from '../../src/catalogue/rows.js';
import { demoEntities } from '../../src/catalogue/demo.js';
import { importEntities } from '../../src/catalogue/importer.js';
import { importDoc, pid, storePerSuite, testEngines } from './support.js';

/** The expression of the merge before migration 018 (and of the migration's fill). */
const SQL_PART = `CASE WHEN status = 'ready'
  THEN md5(jsonb_build_array(public_id, src, thumbnail_src, alt_text, width, height, active)::text) ELSE '-' END`;

const TEXTS = [
  'plain', '', 'quote " and backslash \\ and slash /', 'tab\tnewline\nreturn\rback\bfeed\f', 'controls \u0001\u001f\u007f',
  'Müller — Ð · 東京 · emoji 🎸', '\u2028\u2029 separators', '<script>&amp;</script>', '  spaced  ', 'ünïcödé\\u0041',
];
const INTEGERS = [0, 1, -1, 640, 2_147_483_648, -9_007_199_254_740_991, 9_007_199_254_740_991, 2 ** 60];

function tricky(): object[] {
  const out: object[] = [];
  let n = 0;
  for (const status of ['ready', 'pending', 'failed']) {
    for (let i = 0; i < TEXTS.length; i++) {
      n++;
      out.push({
        publicId: pid('mpt', n),
        status,
        active: n % 4 !== 0,
        src: i % 3 === 2 ? null : `https://img.example/${TEXTS[i]}`,
        thumbnailSrc: i % 2 === 0 ? TEXTS[i] : null,
        altText: TEXTS[(i + 3) % TEXTS.length],
        width: i % 5 === 4 ? null : INTEGERS[i % INTEGERS.length],
        height: INTEGERS[(i + 5) % INTEGERS.length],
      });
    }
  }
  return out;
}

async function storedParts(db: Database): Promise<Array<{ public_id: string; stored: string; expected: string }>> {
  const { rows } = await db.pool.query<{ public_id: string; stored: string; expected: string }>(
    `SELECT public_id, public_part AS stored, ${SQL_PART} AS expected FROM media ORDER BY public_id`,
  );
  return rows;
}

for (const engine of testEngines()) {
  describe(`media public part (${engine.name})`, () => {
    const store = storePerSuite(engine);

    test("the importer's part is the engine's expression over the stored row, for tricky values", async () => {
      const media = tricky();
      await importDoc(store.db, { media });
      const rows = await storedParts(store.db);
      assert.equal(rows.length, media.length);
      const ready = rows.filter((r) => r.expected !== '-');
      assert.equal(ready.length, TEXTS.length, 'every ready media has a digest');
      for (const r of rows) assert.equal(r.stored, r.expected, r.public_id);
      // the function itself, on the records as the document gave them
      for (const m of media as Array<Parameters<typeof mediaPublicPart>[0]>) {
        const row = rows.find((r) => r.public_id === m.publicId)!;
        assert.equal(mediaPublicPart(m), row.expected, m.publicId);
      }
    });

    test('kept by a later import that changes a media, and the same for the demo catalogue', async () => {
      const media = tricky().slice(0, 4) as Array<Record<string, unknown>>;
      await importDoc(store.db, { media });
      await importDoc(store.db, { media: [{ ...media[1], altText: 'changed "alt"', status: 'ready' }, { ...media[2], status: 'failed' }] });
      for (const r of await storedParts(store.db)) assert.equal(r.stored, r.expected, r.public_id);

      await importEntities(store.db, demoEntities({ events: 40, seed: 'media-part' }));
      const rows = await storedParts(store.db);
      assert.ok(rows.filter((r) => r.expected !== '-').length > 10);
      for (const r of rows) assert.equal(r.stored, r.expected, r.public_id);
    });

    test('migration 018 fills a stored catalogue with the same parts', async () => {
      const all = loadMigrations();
      const { db, close } = await engine.open(all.filter((m) => m.version < 18));
      try {
        const media = tricky() as Array<Parameters<typeof mediaPublicPart>[0]>;
        for (const m of media) {
          await db.pool.query(
            `INSERT INTO media (public_id, active, status, src, thumbnail_src, alt_text, width, height, updated_at, projection_hash)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now(), 'h')`,
            [m.publicId, m.active, m.status, m.src, m.thumbnailSrc, m.altText, m.width === null ? null : BigInt(m.width).toString(), BigInt(m.height!).toString()],
          );
        }
        assert.deepEqual(await migrate(db, all), [18, ...all.filter((m) => m.version > 18).map((m) => m.version)]);
        const { rows } = await db.pool.query<{ public_id: string; public_part: string }>('SELECT public_id, public_part FROM media');
        assert.equal(rows.length, media.length);
        const byId = new Map(media.map((m) => [m.publicId, m]));
        for (const r of rows) assert.equal(r.public_part, mediaPublicPart(byId.get(r.public_id)!), r.public_id);
      } finally {
        await close();
      }
    });
  });
}
