/**
 * Support for the catalogue (write side) suites: the engines to run on (PGlite in memory always;
 * PostgreSQL in a throw-away schema when TEST_DATABASE_URL is set), one database per file and
 * engine, and small document builders.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, beforeEach } from 'node:test';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate, type Migration } from '../../src/db/migrate.js';
import type { CatalogueDocument } from '../../src/catalogue/document.js';
import { importCatalogue, type ImportOptions, type ImportSummary } from '../../src/catalogue/importer.js';
import { engines, migratedPgliteSnapshot } from '../helper.js';

export interface TestEngine {
  readonly name: 'pglite' | 'postgres';
  /** A new store, migrated by `migrations` (default: all of them). */
  open(migrations?: Migration[]): Promise<TestDb>;
}

export interface TestDb {
  readonly db: Database;
  close(): Promise<void>;
}

/**
 * The engines of test/helper.ts `engines()` (so LINEUP_TEST_ENGINES=postgres leaves PGlite to
 * CI's PGlite pass). A PGlite store with every migration starts from the cached snapshot of the
 * migrated empty store (~1 s instead of ~3.5 s); one with a subset of migrations is migrated.
 */
export function testEngines(): TestEngine[] {
  return engines().map((engine): TestEngine => {
    if (engine.target.engine === 'pglite') {
      return {
        name: 'pglite',
        async open(migrations) {
          const snapshot = migrations ? undefined : await migratedPgliteSnapshot();
          const db = await openDatabase(engine.target, snapshot ? { pgliteSnapshot: snapshot } : {});
          await migrate(db, migrations);
          return { db, close: () => db.close() };
        },
      };
    }
    const target = engine.target;
    return {
      name: 'postgres',
      async open(migrations) {
        const schema = `test_${randomBytes(6).toString('hex')}`;
        const db = await openDatabase(target, { schema });
        await migrate(db, migrations);
        return {
          db,
          async close() {
            await db.pool.query(`DROP SCHEMA ${schema} CASCADE`);
            await db.close();
          },
        };
      },
    };
  });
}

const TABLES = [
  'event_gallery', 'event_editions', 'event_series', 'event_venues', 'event_artists', 'edition_venues',
  'artist_profile_media', 'events', 'editions', 'series', 'venues', 'artists', 'media',
];

/** Empties the catalogue (between tests sharing one database). */
export async function resetCatalogue(db: Database): Promise<void> {
  await db.pool.query(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY CASCADE`);
}

/** Row counts of every catalogue table, memberships included. */
export async function tableCounts(db: Database): Promise<Record<string, number>> {
  const parts = TABLES.map((t) => `(SELECT count(*)::int FROM ${t}) AS ${t}`);
  return (await db.pool.query<Record<string, number>>(`SELECT ${parts.join(', ')}`)).rows[0]!;
}

export function textStream(text: string): Readable {
  return Readable.from([text]);
}

export function importDoc(db: Database, doc: CatalogueDocument | object, opts?: ImportOptions): Promise<ImportSummary> {
  return importCatalogue(db, textStream(JSON.stringify(doc)), opts);
}

/** A 12-character publicId: prefix, then n zero-padded. */
export function pid(prefix: string, n = 1): string {
  const digits = String(n);
  return prefix + '0'.repeat(12 - prefix.length - digits.length) + digits;
}

/** The six-digit UTC markers of a table, keyed by publicId. */
export async function markers(db: Database, table: string): Promise<Record<string, string>> {
  const { rows } = await db.pool.query<{ public_id: string; t: string }>(
    `SELECT public_id, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM ${table} ORDER BY public_id`,
  );
  return Object.fromEntries(rows.map((r) => [r.public_id, r.t]));
}

export async function marker(db: Database, table: string, publicId: string): Promise<string> {
  const all = await markers(db, table);
  const value = all[publicId];
  if (value === undefined) throw new Error(`${table} ${publicId} not found`);
  return value;
}

/** Waits so that the next import's timestamp differs (PGlite's clock has millisecond steps). */
export function tick(ms = 5): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function clone<T>(value: T): T {
  return structuredClone(value);
}

/**
 * A store for the tests of one `describe` block on `engine`: opened before them, emptied before
 * each test, closed after them. Read `store.db` inside tests (set in `before`).
 */
export function storePerSuite(engine: TestEngine): { readonly db: Database } {
  const store = {} as { db: Database; t: TestDb };
  before(async () => {
    store.t = await engine.open();
    store.db = store.t.db;
  });
  after(() => store.t?.close());
  beforeEach(() => resetCatalogue(store.db));
  return store;
}
