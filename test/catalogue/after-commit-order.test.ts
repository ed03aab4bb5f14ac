/**
 * The order in which work after a first import's COMMIT is taken (src/catalogue/after-commit.ts,
 * PostgreSQL): a row whose table another transaction holds a lock on that its work would wait for
 * is taken only when no other row is left, so a finisher does the free work first instead of
 * waiting with its core idle. Each test holds such a lock on the largest table, whose rows the
 * longest-first order would otherwise take first, and requires everything else done before the
 * finisher waits; then releases it, and everything is done.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type pg from 'pg';
import type { Database } from '../../src/db/database.js';
import { finishAfterCommit } from '../../src/catalogue/after-commit.js';
import { CHOSEN, UNCHECKED, foreignKeys, indexes, leaveBuilds, leaveUnchecked, q, recorded } from './after-commit-fixtures.js';
import { fullDocument } from './fixture.js';
import { importDoc, storePerSuite, testEngines } from './support.js';

/**
 * Holds `lock` on `table` in another transaction while one finisher (the pool's other connections
 * taken, so it works alone) does the recorded work; resolves with the rows still recorded once the
 * finisher waits for a lock, then releases the lock and waits for the finisher to end.
 */
async function finishWhileLocked(db: Database, table: string, lock: string): Promise<{ leftWhenWaiting: string[]; done: number }> {
  const [other, own, spare, observer] = [await db.pool.connect(), await db.pool.connect(), await db.pool.connect(), await db.pool.connect()];
  const released: pg.PoolClient[] = [other, own, spare, observer];
  try {
    await other.query('BEGIN');
    await other.query(`LOCK TABLE ${table} IN ${lock} MODE`);
    const ownPid = (await q<{ pid: number }>(own, 'SELECT pg_backend_pid() AS pid'))[0]!.pid;
    let settled = false;
    const finishing = finishAfterCommit(db, own).finally(() => (settled = true));
    // the shape of the race, every time: the finisher has done what it would not wait for, and waits
    for (;;) {
      assert.equal(settled, false, 'the finisher returned while a lock it needs was held');
      const waiting = await q<{ n: number }>(observer, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'`, [ownPid]);
      if (waiting[0]!.n === 1) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const leftWhenWaiting = (await q<{ name: string }>(observer, 'SELECT name FROM catalogue_index_builds ORDER BY 1')).map((r) => r.name);
    await other.query('ROLLBACK');
    return { leftWhenWaiting, done: await finishing };
  } finally {
    await other.query('ROLLBACK').catch(() => {});
    for (const c of released) c.release();
  }
}

/**
 * The table of the row the longest-first order alone takes first (after-commit.ts: GIN, GiST, keys
 * to validate, btree, each by its table's size, then name): the lock is held on it, so that a
 * finisher that ignored locks would wait at once, everything still recorded.
 */
const firstByLength = async (db: Database) =>
  (await q<{ table: string }>(db.pool, `SELECT table_name AS table FROM catalogue_index_builds
    ORDER BY CASE method WHEN 'gin' THEN 1 WHEN 'gist' THEN 2 WHEN 'spgist' THEN 2 WHEN 'validate' THEN 3 ELSE 4 END,
             coalesce(pg_relation_size(to_regclass(table_name)), 0) DESC, name LIMIT 1`))[0]!.table;

for (const engine of testEngines().filter((e) => e.name === 'postgres')) {
  describe(`work after a first import's COMMIT: rows another transaction blocks are taken last (${engine.name})`, () => {
    const store = storePerSuite(engine);

    test('index builds: with the table of the first build written by another transaction, every other index is built first (three times over)', async () => {
      await importDoc(store.db, fullDocument());
      const before = await indexes(store.db);
      for (let round = 0; round < 3; round++) {
        await leaveBuilds(store.db);
        const blockedTable = await firstByLength(store.db);
        const onIt = (await q<{ name: string }>(store.db.pool, `SELECT name FROM catalogue_index_builds WHERE table_name = $1 ORDER BY 1`, [blockedTable])).map((r) => r.name);
        assert.ok(onIt.length < CHOSEN.length, onIt.join(', '));
        // what an import writing that table holds: an index build on it waits for it
        const { leftWhenWaiting, done } = await finishWhileLocked(store.db, blockedTable, 'ROW EXCLUSIVE');
        assert.deepEqual(leftWhenWaiting, onIt, `round ${round}`);
        assert.equal(done, CHOSEN.length);
        assert.deepEqual(await recorded(store.db), []);
        assert.deepEqual(await indexes(store.db), before);
      }
    });

    test('foreign keys: with a key of the same table being validated elsewhere, the other tables\' keys are validated first (three times over)', async () => {
      await importDoc(store.db, fullDocument());
      const fks = await foreignKeys(store.db);
      for (let round = 0; round < 3; round++) {
        await leaveUnchecked(store.db);
        const blockedTable = await firstByLength(store.db);
        const blockedKey = UNCHECKED.find(([table]) => table === blockedTable)?.[1];
        assert.ok(blockedKey, blockedTable);
        // what validating another key of that table holds
        const { leftWhenWaiting, done } = await finishWhileLocked(store.db, blockedTable, 'SHARE UPDATE EXCLUSIVE');
        assert.deepEqual(leftWhenWaiting, [blockedKey], `round ${round}`);
        assert.equal(done, UNCHECKED.length + 1); // and the recorded key dropped since
        assert.deepEqual(await recorded(store.db), []);
        assert.deepEqual(await foreignKeys(store.db), fks);
      }
    });
  });
}
