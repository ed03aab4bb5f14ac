/**
 * A read's connection lost mid-statement (a standby restarted, a backend terminated) is a 503
 * for that read, never the end of the process. A read takes a connection of its own
 * (pool.connect), and pg-pool removes its error listener from a checked-out client: without one
 * of the reader's, the client's 'error' event would be an uncaught exception. PostgreSQL only
 * (PGlite has no server connection to lose).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { DatabaseUnavailableError } from '../../src/http/errors.js';
import { Reader } from '../../src/db/reader.js';
import type { Statement } from '../../src/queries/statement.js';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';

/** The socket of a checked-out pg client (pg's Connection keeps it as `stream`). */
type PgClientWithSocket = pg.PoolClient & { processID: number; connection: { stream: { destroy(err: Error): void } } };

const postgres = engines().find((e) => e.name === 'postgres');

describe('a connection lost during a read (PostgreSQL)', { skip: postgres ? false : 'set TEST_DATABASE_URL to run on PostgreSQL' }, () => {
  let t: TestDatabase;
  before(async () => {
    t = await openTestDatabase(postgres!);
  });
  after(async () => t?.drop());

  it('the read fails as unavailable; no uncaught error; the next read is served', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      for (let round = 0; round < 3; round++) {
        const marker = `lineup_lost_${process.pid}_${round}`;
        const slow: Statement = { name: 'slow', text: `SELECT pg_sleep(10) AS ${marker}`, values: [], stablePlan: false };
        // its failure is taken at once: the rejection may come while the loop below still runs
        const read = new Reader(t.db).rows(slow).then(
          () => null,
          (err: unknown) => err,
        );
        // terminate the backend running it, from another connection
        let killed = false;
        for (let i = 0; i < 200 && !killed; i++) {
          const { rows } = await t.db.pool.query<{ ok: boolean }>(
            `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()`,
            [`%${marker}%`],
          );
          killed = rows.some((r) => r.ok);
          if (!killed) await new Promise((r) => setTimeout(r, 10));
        }
        assert.ok(killed, 'the statement was seen running and terminated');
        assert.ok((await read) instanceof DatabaseUnavailableError, 'the read failed as unavailable');
        await new Promise((r) => setImmediate(r));
        const ok: Statement = { name: 'ok', text: 'SELECT 1::int AS n', values: [], stablePlan: false };
        assert.deepEqual(await new Reader(t.db).rows(ok), [{ n: 1 }]);
      }
      assert.deepEqual(uncaught, []);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('a socket error mid-statement (a reset connection) fails the read as unavailable, not the process', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    // The read's own client, seen as the pool hands it out. (Not by replacing pool.connect: pg-pool's
    // query() takes its client through this.connect(callback), and a replacement that drops the
    // callback leaves that query waiting with a checked-out client, so pool.end() never finishes
    // and the test process never exits.)
    const pool = t.db.pool;
    let taken: PgClientWithSocket | undefined;
    const onAcquire = (client: pg.PoolClient) => (taken ??= client as PgClientWithSocket);
    pool.on('acquire', onAcquire);
    const marker = `lineup_reset_${process.pid}`;
    let pid = 0;
    try {
      const slow: Statement = { name: 'slow', text: `SELECT pg_sleep(10) AS ${marker}`, values: [], stablePlan: false };
      const read = new Reader(t.db).rows(slow).then(
        () => null,
        (err: unknown) => err,
      );
      // the statement is running on the server (its backend is the read's client's)
      let running = false;
      for (let i = 0; i < 500 && !running; i++) {
        if (taken) {
          pid = taken.processID;
          const { rows } = await pool.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query LIKE $2`, [pid, `%${marker}%`]);
          running = rows.length === 1;
        }
        if (!running) await new Promise((r) => setTimeout(r, 10));
      }
      assert.ok(running, 'the statement was seen running');
      taken!.connection.stream.destroy(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
      assert.ok((await read) instanceof DatabaseUnavailableError, 'the read failed as unavailable');
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(uncaught, []);
    } finally {
      pool.off('acquire', onAcquire);
      process.off('uncaughtException', onUncaught);
      // the server does not notice the lost client until its pg_sleep ends: end that backend now
      if (pid) await pool.query('SELECT pg_terminate_backend($1)', [pid]);
    }
    const ok: Statement = { name: 'ok', text: 'SELECT 1::int AS n', values: [], stablePlan: false };
    assert.deepEqual(await new Reader(t.db).rows(ok), [{ n: 1 }]);
  });
});
