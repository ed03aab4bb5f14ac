/**
 * After COMMIT an import refreshes the planner's statistics (ANALYZE). Right after a large COMMIT
 * autovacuum analyzes the same tables, and ANALYZE waits for its lock; with the pool's short lock
 * timeout that wait would fail an import already committed. Here another session holds the lock
 * ANALYZE needs (as autovacuum does) for far longer than the pool's lock timeout: the import must
 * wait for it, not fail, and its catalogue is committed while it waits.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import pg from 'pg';
import { importCatalogue } from '../../src/catalogue/importer.js';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { fullDocument } from '../catalogue/fixture.js';
import { textStream } from '../catalogue/support.js';

const url = process.env.TEST_DATABASE_URL;
const LOCK_TIMEOUT_MS = 50;

describe('statistics after an import', { skip: url ? false : 'set TEST_DATABASE_URL to run on PostgreSQL' }, () => {
  it('wait for a session that holds the lock ANALYZE needs, longer than the lock timeout, instead of failing the committed import', async () => {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    // the API's session settings: a short lock timeout, as `lineup import` opens the store
    const db = await openDatabase({ engine: 'postgres', url: url! }, { schema, lockTimeoutMs: LOCK_TIMEOUT_MS, statementTimeoutMs: 5_000 });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await migrate(db);
      const doc = fullDocument();
      await importCatalogue(db, textStream(JSON.stringify(doc))); // a catalogue first: the next import merges into it
      for (let round = 0; round < 3; round++) {
        // SHARE UPDATE EXCLUSIVE: what autovacuum's ANALYZE holds; the merge's own locks do not conflict with it
        await holder.query('BEGIN');
        await holder.query(`LOCK TABLE ${schema}.events IN SHARE UPDATE EXCLUSIVE MODE`);
        let failed: unknown;
        const running = importCatalogue(db, textStream(JSON.stringify(doc))).catch((err) => {
          failed = err;
          return undefined;
        });
        // until the import's ANALYZE has waited ten lock timeouts (or the import has failed)
        for (;;) {
          if (failed) break;
          // asked from the pool, not from the holder: pg_stat_activity is read once per transaction
          const { rows } = await db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE application_name = 'lineup' AND wait_event_type = 'Lock' AND query LIKE 'ANALYZE %'
                AND clock_timestamp() - query_start > make_interval(secs => $1::float8 / 100)`,
            [LOCK_TIMEOUT_MS],
          );
          if (rows[0]!.n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        assert.equal(failed, undefined, `round ${round}: the import failed while ANALYZE waited: ${String(failed)}`);
        // the document is committed before ANALYZE: the holder (another session) sees it
        const { rows } = await holder.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.events`);
        assert.equal(rows[0]!.n, doc.events!.length);
        await holder.query('COMMIT');
        const summary = await running;
        assert.ok(summary, `round ${round}: the import resolved with its summary`);
        assert.equal(summary.entities, Object.values(doc).reduce((n, list) => n + (list as unknown[]).length, 0));
      }
      const { rows } = await db.pool.query<{ analyzed: boolean }>(
        `SELECT last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'events'`,
        [schema],
      );
      assert.deepEqual(rows, [{ analyzed: true }]);
      // the pool's sessions keep the API's timeouts: the import's own settings never leak into it
      const settings = await db.pool.query<{ lt: string }>(`SELECT current_setting('lock_timeout') AS lt`);
      assert.equal(settings.rows[0]!.lt, `${LOCK_TIMEOUT_MS}ms`);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
      await db.pool.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => {});
      await db.close();
    }
  });
});
