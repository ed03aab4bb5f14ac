/**
 * A read's connection lost (a standby restarted, a backend terminated), mid-statement or while
 * checked out between statements, is a 503 for that read, never the end of the process: pg-pool
 * removes its error listener from a checked-out client, so every client listens for its own
 * errors from its creation (db/raw-text.ts), and an 'error' nobody hears would be an uncaught
 * exception. Failing to get a connection at all is a 503 whatever the cause; a statement's own
 * error is not. PostgreSQL only (PGlite has no server connection to lose).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { DatabaseUnavailableError } from '../../src/db/errors.js';
import { Reader } from '../../src/db/reader.js';
import type { Statement } from '../../src/queries/statement.js';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';

/** The socket of a checked-out pg client (pg's Connection keeps it as `stream`). */
type PgClientWithSocket = pg.PoolClient & { processID: number; connection: { stream: { destroy(err: Error): void } } };

const postgres = engines().find((e) => e.name === 'postgres');

/** A read of one statement that sleeps on the server, marked so that its backend can be found. */
function slowRead(t: TestDatabase, marker: string): Promise<unknown> {
  const slow: Statement = { name: 'slow', text: `SELECT pg_sleep(10) AS ${marker}`, values: [], stablePlan: false };
  // its failure is taken at once (as a value): the rejection may come while the test still works
  return new Reader(t.db).rows(slow).then(
    () => null,
    (err: unknown) => err,
  );
}

/** The pid of the backend running the marked statement, once it is active (polled, up to ~30 s). */
async function activeBackend(t: TestDatabase, marker: string): Promise<number> {
  for (let i = 0; i < 3000; i++) {
    const { rows } = await t.db.pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()`,
      [`%${marker}%`],
    );
    if (rows[0]) return rows[0].pid;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the statement ${marker} was never seen running`);
}

/** Collects uncaught exceptions until `stop()`: a connection error nobody listens to ends up there. */
function catchUncaught(): { readonly uncaught: unknown[]; stop(): void } {
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  return { uncaught, stop: () => process.off('uncaughtException', onUncaught) };
}

const ok: Statement = { name: 'ok', text: 'SELECT 1::int AS n', values: [], stablePlan: false };

describe('a connection lost during a read (PostgreSQL)', { skip: postgres ? false : 'set TEST_DATABASE_URL to run on PostgreSQL' }, () => {
  let t: TestDatabase;
  before(async () => {
    t = await openTestDatabase(postgres!);
  });
  after(async () => t?.drop());

  it('the read fails as unavailable; no uncaught error; the next read is served', async () => {
    const errors = catchUncaught();
    try {
      for (let round = 0; round < 3; round++) {
        const marker = `lineup_lost_${process.pid}_${round}`;
        const read = slowRead(t, marker);
        // terminate the backend running it, from another connection
        const pid = await activeBackend(t, marker);
        await t.db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
        assert.ok((await read) instanceof DatabaseUnavailableError, 'the read failed as unavailable');
        await new Promise((r) => setImmediate(r));
        assert.deepEqual(await new Reader(t.db).rows(ok), [{ n: 1 }]);
      }
      assert.deepEqual(errors.uncaught, []);
    } finally {
      errors.stop();
    }
  });

  it('a socket error mid-statement (a reset connection) fails the read as unavailable, not the process', async () => {
    const errors = catchUncaught();
    // The read's own client, seen as the pool hands it out. (Not by replacing pool.connect: pg-pool's
    // query() takes its client through this.connect(callback), and a replacement that drops the
    // callback leaves that query waiting with a checked-out client, so pool.end() never finishes
    // and the test process never exits.)
    const clients: PgClientWithSocket[] = [];
    const onAcquire = (client: pg.PoolClient) => clients.push(client as PgClientWithSocket);
    t.db.pool.on('acquire', onAcquire);
    const marker = `lineup_reset_${process.pid}`;
    let pid = 0;
    try {
      const read = slowRead(t, marker);
      pid = await activeBackend(t, marker);
      const client = clients.find((c) => c.processID === pid);
      assert.ok(client, "the read's client");
      client.connection.stream.destroy(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
      assert.ok((await read) instanceof DatabaseUnavailableError, 'the read failed as unavailable');
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(errors.uncaught, []);
    } finally {
      t.db.pool.off('acquire', onAcquire);
      errors.stop();
      // the server does not notice the lost client until its pg_sleep ends: end that backend now
      if (pid) await t.db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
    }
    assert.deepEqual(await new Reader(t.db).rows(ok), [{ n: 1 }]);
  });

  it('a checked-out client whose backend is terminated while it runs nothing: no uncaught error, and it is not reused', async () => {
    const errors = catchUncaught();
    try {
      // as the Reader holds it between statements: checked out, no statement running
      const client = (await t.db.pool.connect()) as PgClientWithSocket;
      const pid = client.processID;
      await t.db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
      // the server's FATAL and the socket's end reach the client; pg emits them as 'error'
      await new Promise<void>((resolve) => client.once('end', () => resolve()));
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(errors.uncaught, []);
      await assert.rejects(client.query('SELECT 1'), /not queryable/);
      client.release(new Error('lost'));
      const again = await t.db.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      assert.notEqual(again.rows[0]!.pid, pid, 'a new connection');
    } finally {
      errors.stop();
    }
  });

  it('failing to get a connection, for any reason, fails the read as unavailable', async () => {
    const target = postgres!.target;
    assert.equal(target.engine, 'postgres');
    const url = new URL(target.url);
    const wrong = (change: (u: URL) => void) => {
      const u = new URL(url);
      change(u);
      return u.toString();
    };
    const targets = {
      'password rejected (28P01)': wrong((u) => (u.password = `${u.password}-rotated`)),
      'database missing (3D000)': wrong((u) => (u.pathname = `/lineup_missing_${process.pid}`)),
      'role missing (28000 or 28P01)': wrong((u) => (u.username = `lineup_missing_${process.pid}`)),
      'connection refused': wrong((u) => (u.port = '1')),
      'host name not found': wrong((u) => (u.hostname = 'lineup-database.invalid')),
    };
    for (const [what, wrongUrl] of Object.entries(targets)) {
      const db = await openDatabase({ engine: 'postgres', url: wrongUrl }, { connectionTimeoutMs: 3000 });
      try {
        const err = await new Reader(db).rows(ok).then(
          () => null,
          (e: unknown) => e,
        );
        assert.ok(err instanceof DatabaseUnavailableError, `${what}: ${String(err)}`);
        assert.match(err.message, /^no database connection: /, what);
      } finally {
        await db.close();
      }
    }
  });

  it("a statement's own error (a missing table) stays an error, not unavailability", async () => {
    const missing: Statement = { name: 'missing', text: 'SELECT * FROM lineup_no_such_table', values: [], stablePlan: false };
    const err = await new Reader(t.db).rows(missing).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof Error && !(err instanceof DatabaseUnavailableError), String(err));
    assert.equal((err as { code?: string }).code, '42P01');
  });
});
