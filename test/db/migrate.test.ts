/**
 * Migrations: versioned, recorded, idempotent, and safe when two processes start at once on
 * PostgreSQL (the advisory lock makes the second wait, then find nothing to apply).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../src/db/database.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';

const url = process.env.TEST_DATABASE_URL;

describe('migrations', () => {
  it('are numbered files applied in order and recorded once (PGlite)', async () => {
    const migrations = loadMigrations();
    assert.ok(migrations.length >= 1);
    assert.deepEqual(
      migrations.map((m) => m.version),
      [...migrations.map((m) => m.version)].sort((a, b) => a - b),
    );
    const db = await openDatabase({ engine: 'pglite', dataDir: null });
    try {
      assert.deepEqual(await migrate(db), migrations.map((m) => m.version));
      assert.deepEqual(await migrate(db), []);
      const { rows } = await db.pool.query('SELECT version FROM schema_migrations ORDER BY version');
      assert.deepEqual(rows.map((r) => r.version), migrations.map((m) => m.version));
    } finally {
      await db.close();
    }
  });

  it('two processes migrating one PostgreSQL database at once apply each version exactly once', { skip: url ? false : 'set TEST_DATABASE_URL to run on PostgreSQL' }, async () => {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const a = await openDatabase({ engine: 'postgres', url: url! }, { schema });
    const b = await openDatabase({ engine: 'postgres', url: url! }, { schema });
    try {
      const [first, second] = await Promise.all([migrate(a), migrate(b)]);
      const all = loadMigrations().map((m) => m.version);
      assert.deepEqual([...first, ...second].sort((x, y) => x - y), all);
      const { rows } = await a.pool.query('SELECT count(*)::int AS n FROM schema_migrations');
      assert.equal(rows[0].n, all.length);
    } finally {
      await a.pool.query(`DROP SCHEMA ${schema} CASCADE`);
      await a.close();
      await b.close();
    }
  });

  it('a migration longer than the API timeouts completes, and a second process waits for it instead of failing', { skip: url ? false : 'set TEST_DATABASE_URL to run on PostgreSQL' }, async () => {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    // the API's session settings (short statement and lock timeouts), as serve opens the store
    const opts = { schema, statementTimeoutMs: 300, lockTimeoutMs: 100 };
    const a = await openDatabase({ engine: 'postgres', url: url! }, opts);
    const b = await openDatabase({ engine: 'postgres', url: url! }, opts);
    // 1.2 s: longer than the statement timeout, and both starts overlap it (they begin together)
    const slow = [{ version: 1, name: 'slow', sql: 'CREATE TABLE slow_marker (x int); SELECT pg_sleep(1.2);' }];
    try {
      const [first, second] = await Promise.all([migrate(a, slow), migrate(b, slow)]);
      assert.deepEqual([...first, ...second], [1], 'applied once, by one of them');
      const { rows } = await a.pool.query('SELECT version FROM schema_migrations');
      assert.deepEqual(rows.map((r) => r.version), [1]);
      // the pool's sessions keep the API's timeouts: the migration's own settings never leak into it
      const settings = await a.pool.query<{ st: string; lt: string }>(`SELECT current_setting('statement_timeout') AS st, current_setting('lock_timeout') AS lt`);
      assert.deepEqual(settings.rows[0], { st: '300ms', lt: '100ms' });
    } finally {
      await a.pool.query(`DROP SCHEMA ${schema} CASCADE`);
      await a.close();
      await b.close();
    }
  });
});
