/**
 * The operator settings of the scale-out (decisions §1, §7): their defaults, and that the demo
 * catalogue is seeded only on the embedded store unless asked for.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const PG = 'postgresql://lineup:secret@db.internal:5432/lineup';

describe('configuration', () => {
  test('demo seeding: on for the embedded PGlite store, off on PostgreSQL unless LINEUP_SEED_DEMO=true', () => {
    assert.equal(loadConfig({}).seedDemo, true, 'npm start on the default store');
    assert.equal(loadConfig({ DATABASE_URL: 'pglite:memory' }).seedDemo, true);
    assert.equal(loadConfig({ DATABASE_URL: PG }).seedDemo, false);
    assert.equal(loadConfig({ DATABASE_URL: PG, LINEUP_SEED_DEMO: 'true' }).seedDemo, true);
    assert.equal(loadConfig({ LINEUP_SEED_DEMO: 'false' }).seedDemo, false);
  });

  test('LINEUP_MIGRATE, LINEUP_PREPARED_STATEMENTS, LINEUP_SHUTDOWN_DELAY_MS: defaults and values', () => {
    const d = loadConfig({});
    assert.equal(d.migrate, true);
    assert.equal(d.preparedStatements, true);
    assert.equal(d.shutdownDelayMs, 0);
    const c = loadConfig({ LINEUP_MIGRATE: 'false', LINEUP_PREPARED_STATEMENTS: 'false', LINEUP_SHUTDOWN_DELAY_MS: '2500' });
    assert.equal(c.migrate, false);
    assert.equal(c.preparedStatements, false);
    assert.equal(c.shutdownDelayMs, 2500);
  });

  test('LINEUP_DB_PIPELINE: none by default, a count of connections up to 64', () => {
    assert.equal(loadConfig({}).dbPipeline, 0);
    assert.equal(loadConfig({ LINEUP_DB_PIPELINE: '2' }).dbPipeline, 2);
    // they carry only named statements: with naming off (behind a pooler) none are opened
    assert.equal(loadConfig({ LINEUP_DB_PIPELINE: '2', LINEUP_PREPARED_STATEMENTS: 'false' }).dbPipeline, 0);
    for (const value of ['-1', '65', 'two', '1.5']) {
      assert.throws(() => loadConfig({ LINEUP_DB_PIPELINE: value }), (err: Error) => err instanceof ConfigError && err.message.startsWith('LINEUP_DB_PIPELINE:'));
    }
  });

  test('a bad value names its variable', () => {
    for (const [name, value] of [['LINEUP_MIGRATE', 'maybe'], ['LINEUP_PREPARED_STATEMENTS', '2'], ['LINEUP_SHUTDOWN_DELAY_MS', '-5'], ['LINEUP_SHUTDOWN_DELAY_MS', '700000']] as const) {
      assert.throws(() => loadConfig({ [name]: value }), (err: Error) => err instanceof ConfigError && err.message.startsWith(`${name}:`));
    }
  });
});
