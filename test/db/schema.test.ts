/**
 * The schema check at start (decisions §7): serve runs no DDL on a current schema, migrates a
 * writable database when allowed, and stops with one clear line when the schema is behind a
 * read-only database or LINEUP_MIGRATE=false, or ahead of the code.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openDatabase, type Database } from '../../src/db/database.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { SchemaError, ensureSchema, readSchemaState } from '../../src/db/schema.js';
import { engines } from '../helper.js';

const url = process.env.TEST_DATABASE_URL;
const all = loadMigrations();

/** An empty store of each engine (PostgreSQL: its own schema, dropped afterwards). */
async function withEmptyStore(name: 'pglite' | 'postgres', fn: (db: Database) => Promise<void>): Promise<void> {
  const schema = name === 'postgres' ? `test_${randomBytes(6).toString('hex')}` : undefined;
  const db = await openDatabase(name === 'postgres' ? { engine: 'postgres', url: url! } : { engine: 'pglite', dataDir: null }, schema ? { schema } : {});
  try {
    await fn(db);
  } finally {
    if (schema) await db.pool.query(`DROP SCHEMA ${schema} CASCADE`);
    await db.close();
  }
}

for (const engine of engines()) {
  describe(`schema check at start (${engine.name})`, () => {
    it('LINEUP_MIGRATE=false on a schema behind: one line naming the missing migrations and the command, no DDL', async () => {
      await withEmptyStore(engine.name, async (db) => {
        await migrate(db, all.slice(0, 2));
        await assert.rejects(ensureSchema(db, { migrate: false }), (err: Error) => {
          assert.ok(err instanceof SchemaError);
          assert.doesNotMatch(err.message, /\n/);
          assert.match(err.message, /behind this Lineup and LINEUP_MIGRATE=false/);
          for (const m of all.slice(2)) assert.match(err.message, new RegExp(`${String(m.version).padStart(3, '0')}_${m.name}`));
          assert.doesNotMatch(err.message, new RegExp(`001_${all[0]!.name}`));
          assert.match(err.message, /`lineup migrate` against the primary/);
          return true;
        });
        assert.deepEqual((await readSchemaState(db)).applied, [1, 2], 'nothing applied');
      });
    });

    it('a current schema is served as is (no migration), with migrations allowed or not', async () => {
      await withEmptyStore(engine.name, async (db) => {
        assert.deepEqual((await ensureSchema(db, { migrate: true })).applied, all.map((m) => m.version));
        assert.deepEqual((await ensureSchema(db, { migrate: false })).applied, []);
        assert.deepEqual((await ensureSchema(db, { migrate: true })).applied, []);
      });
    });

    it('a schema newer than the code (migrated by a newer Lineup) stops with one line', async () => {
      await withEmptyStore(engine.name, async (db) => {
        await migrate(db);
        await db.pool.query(`INSERT INTO schema_migrations (version, name) VALUES (999, 'from_the_future')`);
        for (const allowed of [true, false]) {
          await assert.rejects(ensureSchema(db, { migrate: allowed }), (err: Error) => {
            assert.ok(err instanceof SchemaError);
            assert.match(err.message, /newer than this Lineup: it records migration 999, this version knows up to \d+/);
            return true;
          });
        }
      });
    });
  });
}

describe('schema check on a read-only database (PostgreSQL)', { skip: url ? false : 'set TEST_DATABASE_URL to run on PostgreSQL' }, () => {
  /** The store's one session made read-only, as on a hot standby or with default_transaction_read_only. */
  async function readOnly(db: Database): Promise<void> {
    await db.pool.query('SET default_transaction_read_only = on');
  }
  const open = (schema: string) => openDatabase({ engine: 'postgres', url: url! }, { schema, maxConnections: 1 });

  it('current: served without any DDL (even CREATE TABLE IF NOT EXISTS would fail there)', async () => {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const writer = await openDatabase({ engine: 'postgres', url: url! }, { schema });
    const reader = await open(schema);
    try {
      await migrate(writer);
      await readOnly(reader);
      assert.equal((await readSchemaState(reader)).readOnly, true);
      assert.deepEqual((await ensureSchema(reader, { migrate: true })).applied, []);
    } finally {
      await writer.pool.query(`DROP SCHEMA ${schema} CASCADE`);
      await writer.close();
      await reader.close();
    }
  });

  it('behind: one line naming the missing migrations and `lineup migrate` against the primary', async () => {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const writer = await openDatabase({ engine: 'postgres', url: url! }, { schema });
    const reader = await open(schema);
    try {
      await migrate(writer, all.slice(0, all.length - 1));
      await readOnly(reader);
      const last = all.at(-1)!;
      await assert.rejects(ensureSchema(reader, { migrate: true }), (err: Error) => {
        assert.ok(err instanceof SchemaError);
        assert.match(err.message, /the database is read-only \(a hot standby or a read-only role\)/);
        assert.match(err.message, new RegExp(`missing migrations ${String(last.version).padStart(3, '0')}_${last.name};`));
        assert.match(err.message, /`lineup migrate` against the primary/);
        return true;
      });
    } finally {
      await writer.pool.query(`DROP SCHEMA ${schema} CASCADE`);
      await writer.close();
      await reader.close();
    }
  });
});
