/**
 * Pipelined connections (src/db/pipeline.ts, LINEUP_DB_PIPELINE): statements share a connection
 * without waiting for each other, each still gets its own answer, a failing one fails alone, and
 * a connection that cannot take a statement now (connecting, full, stalled, failed) returns null
 * so that the statement goes to the pool: nothing ever queues behind a slow statement beyond the
 * bounds. Time is the test's own clock: no sleeps. PostgreSQL only.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import pg from 'pg';
import { PipelinedConnections, type PipelinedQuery } from '../../src/db/pipeline.js';
import { Reader } from '../../src/db/reader.js';
import { PreparedStatements } from '../../src/db/prepared.js';
import { openDatabase } from '../../src/db/database.js';
import { isUnavailable } from '../../src/db/unavailable.js';
import { Metrics } from '../../src/metrics/metrics.js';

const url = process.env.TEST_DATABASE_URL;
const skip = url ? false : 'set TEST_DATABASE_URL to run on PostgreSQL';

const echo = (n: number): PipelinedQuery => ({ name: 'pipeline_echo', text: 'SELECT $1::int AS n, pg_backend_pid() AS pid', values: [n] });
const sleepy = (seconds: number): PipelinedQuery => ({ name: 'pipeline_sleep', text: 'SELECT pg_sleep($1::float8) IS NULL AS slept', values: [seconds] });

/** Calls tryQuery until the connections are open (they open on first use; null meanwhile). */
async function connected(p: PipelinedConnections): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const r = p.tryQuery(echo(0));
    if (r) {
      await r;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 5)); // a connection being opened
  }
  throw new Error('the pipelined connection never opened');
}

describe('pipelined connections (PostgreSQL)', { skip }, () => {
  it('carry many statements at once on one connection, each answered with its own rows', async () => {
    const p = new PipelinedConnections({ connectionString: url }, { size: 1, depth: 64 });
    try {
      await connected(p);
      const sent = Array.from({ length: 40 }, (_, i) => p.tryQuery<{ n: number; pid: number }>(echo(i)));
      assert.ok(sent.every((r) => r !== null), 'every statement taken');
      assert.deepEqual(p.inFlight, [40], 'all 40 in flight together on the one connection');
      const results = await Promise.all(sent);
      assert.deepEqual(results.map((r) => r.rows[0]!.n), Array.from({ length: 40 }, (_, i) => i));
      assert.equal(new Set(results.map((r) => r.rows[0]!.pid)).size, 1, 'one backend');
      assert.deepEqual(p.inFlight, [0]);
    } finally {
      await p.close();
    }
  });

  it('the statements chosen in one turn of the event loop go to PostgreSQL in one write', async () => {
    const p = new PipelinedConnections({ connectionString: url }, { size: 1, depth: 64 });
    // every write a socket makes to the server's port, counted where the stream hands it to the OS
    const port = Number(new URL(url!).port || 5432);
    const proto = net.Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
    const original = { _write: proto._write, _writev: proto._writev };
    let writes = 0;
    for (const key of ['_write', '_writev'] as const) {
      proto[key] = function (this: net.Socket, ...args: unknown[]) {
        if (this.remotePort === port) writes++;
        return original[key].apply(this, args);
      };
    }
    try {
      await connected(p);
      for (let round = 0; round < 5; round++) {
        writes = 0;
        // ten statements from ten different callbacks of one poll phase, as requests make them
        const sent = await new Promise<Promise<pg.QueryResult<{ n: number }>>[]>((resolve) => {
          const taken: Promise<pg.QueryResult<{ n: number }>>[] = [];
          for (let i = 0; i < 10; i++) {
            process.nextTick(() => {
              taken.push(p.tryQuery<{ n: number }>(echo(i))!);
              if (taken.length === 10) resolve(taken);
            });
          }
        });
        assert.equal(writes, 0, 'nothing written while the turn lasts');
        const results = await Promise.all(sent);
        assert.deepEqual(results.map((r) => r.rows[0]!.n), Array.from({ length: 10 }, (_, i) => i));
        assert.equal(writes, 1, `round ${round}: one write for ten statements`);
      }
    } finally {
      Object.assign(proto, original);
      await p.close();
    }
  });

  it('a failing statement fails alone; the ones before and after it are answered', async () => {
    const p = new PipelinedConnections({ connectionString: url }, { size: 1, depth: 8 });
    try {
      await connected(p);
      const before = p.tryQuery<{ n: number }>(echo(1))!;
      const failing = p.tryQuery({ name: 'pipeline_fail', text: 'SELECT 1 / $1::int AS n', values: [0] })!;
      const after = p.tryQuery<{ n: number }>(echo(2))!;
      await assert.rejects(failing, /division by zero/);
      assert.equal((await before).rows[0]!.n, 1);
      assert.equal((await after).rows[0]!.n, 2);
    } finally {
      await p.close();
    }
  });

  it('take nothing while connecting, beyond their depth, or behind a statement first in line for stallMs: the caller uses the pool', async () => {
    let now = 0;
    const p = new PipelinedConnections({ connectionString: url }, { size: 1, depth: 2, stallMs: 20, now: () => now });
    try {
      assert.equal(p.tryQuery(echo(0)), null, 'connecting');
      await connected(p);
      const slow = p.tryQuery(sleepy(0.2));
      const second = p.tryQuery<{ n: number }>(echo(2));
      assert.ok(slow && second);
      assert.deepEqual(p.inFlight, [2]);
      assert.equal(p.tryQuery(echo(3)), null, 'depth 2 reached');
      await Promise.all([slow, second]);
      assert.deepEqual(p.inFlight, [0]);
      const stalling = p.tryQuery(sleepy(0.2))!; // sent at `now`
      now += 19;
      const behind = p.tryQuery<{ n: number }>(echo(4));
      assert.ok(behind, 'its oldest statement has run 19 ms: still taken');
      now += 1;
      assert.equal(p.tryQuery(echo(5)), null, 'its first statement in line has run 20 ms: stalled, nothing new behind it');
      await Promise.all([stalling, behind]);
      const after = p.tryQuery<{ n: number }>(echo(6));
      assert.ok(after, 'taken again once the stalled statement was answered');
      assert.equal((await after).rows[0]!.n, 6);
      // a long line that keeps moving is not a stall: the first in line counts from the last answer
      const first = p.tryQuery(sleepy(0.1))!; // both sent at `now`
      const next = p.tryQuery(sleepy(1))!; // still running when the checks below run
      now += 19;
      await first; // answered at now: `next` is first in line from here
      now += 6; // `next` was sent 25 ms ago, but has been first in line for 6
      const moving = p.tryQuery<{ n: number }>(echo(7));
      assert.ok(moving, 'the line moved 6 ms ago: taken');
      now += 14; // first in line for 20 ms, no answer since
      assert.equal(p.tryQuery(echo(8)), null, 'no answer for 20 ms: stalled');
      await Promise.all([next, moving]);
    } finally {
      await p.close();
    }
  });

  it('a lost connection fails its statements as unavailable, is not reopened before retryMs, then is', async () => {
    let now = 0;
    const p = new PipelinedConnections({ connectionString: url }, { size: 1, stallMs: 60_000, retryMs: 1000, now: () => now });
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    try {
      await connected(p);
      const first = p.tryQuery<{ pid: number }>(echo(1))!;
      const pid = (await first).rows[0]!.pid;
      const inFlight = p.tryQuery(sleepy(5))!;
      const behind = p.tryQuery(echo(2))!;
      await killer.query('SELECT pg_terminate_backend($1)', [pid]);
      for (const r of [inFlight, behind]) {
        const err = await r.then(
          () => null,
          (e: unknown) => e,
        );
        assert.ok(err instanceof Error && isUnavailable(err), `unavailable, got ${String(err)}`);
      }
      assert.equal(p.tryQuery(echo(3)), null, 'failed just now: not reopened');
      now += 1000;
      await connected(p);
      const again = await p.tryQuery<{ pid: number }>(echo(4))!;
      assert.notEqual(again.rows[0]!.pid, pid, 'a new backend');
    } finally {
      await killer.end();
      await p.close();
    }
  });

  it('close answers the statements already sent, then takes nothing', async () => {
    const p = new PipelinedConnections({ connectionString: url }, { size: 2 });
    await connected(p);
    const sent = [p.tryQuery<{ n: number }>(echo(1))!, p.tryQuery<{ n: number }>(echo(2))!];
    const closing = p.close();
    assert.equal(p.tryQuery(echo(3)), null);
    assert.deepEqual((await Promise.all(sent)).map((r) => r.rows[0]!.n), [1, 2]);
    await closing;
  });

  it('the metrics count statements sent and declined by reason, connections by state and statements in flight', async () => {
    let now = 0;
    const p = new PipelinedConnections({ connectionString: url }, { size: 1, depth: 1, stallMs: 20, now: () => now });
    const metrics = new Metrics();
    metrics.watch({ pipeline: p });
    const value = async (name: string, labels = '') => {
      const line = (await metrics.text()).body.split('\n').find((l) => l.startsWith(`${name}${labels} `));
      return Number(line?.split(' ')[1]);
    };
    try {
      assert.equal(p.tryQuery(echo(0)), null); // opening
      assert.equal(await value('lineup_db_pipeline_declined_total', '{reason="not_connected"}'), 1);
      assert.equal(await value('lineup_db_pipeline_connections', '{state="not_ready"}'), 1);
      await connected(p);
      const sentBefore = await value('lineup_db_pipelined_statements_total');
      const slow = p.tryQuery(sleepy(0.2))!;
      assert.equal(await value('lineup_db_pipeline_in_flight'), 1);
      assert.equal(p.tryQuery(echo(1)), null); // depth 1
      now += 20;
      assert.equal(p.tryQuery(echo(2)), null); // and now stalled too: stalled wins
      await slow;
      assert.equal(await value('lineup_db_pipelined_statements_total'), sentBefore + 1);
      assert.equal(await value('lineup_db_pipeline_declined_total', '{reason="full"}'), 1);
      assert.equal(await value('lineup_db_pipeline_declined_total', '{reason="stalled"}'), 1);
      assert.equal(await value('lineup_db_pipeline_connections', '{state="ready"}'), 1);
      assert.equal(await value('lineup_db_pipeline_in_flight'), 0);
    } finally {
      await p.close();
    }
  });

  it('a Reader sends named statements through them and unnamed ones through the pool', async () => {
    const db = await openDatabase({ engine: 'postgres', url: url! }, { pipelineConnections: 1, maxConnections: 2 });
    try {
      const pipeline = db.pipeline!;
      await connected(pipeline);
      const poolPid = (await db.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const reader = new Reader(db, undefined, undefined, new PreparedStatements(true));
      const probe = 'SELECT pg_backend_pid() AS pid, $1::int AS n';
      // stable plan: named, so offered to the pipelined connection
      const named = await Promise.all([1, 2, 3].map((n) => reader.rows<{ pid: number; n: number }>({ name: 'p', text: probe, values: [n], stablePlan: true })));
      assert.equal(new Set(named.map((r) => r[0]!.pid)).size, 1, 'one pipelined backend');
      assert.notEqual(named[0]![0]!.pid, poolPid);
      const unnamed = await new Reader(db, undefined, undefined, new PreparedStatements(true)).rows<{ pid: number }>({ name: 'u', text: probe, values: [4], stablePlan: false });
      assert.notEqual(unnamed[0]!.pid, named[0]![0]!.pid, 'a value-dependent statement never goes on the pipelined connection');
      // a heavy stable statement (a search the planner prices high): named, but on the pool
      const heavyProbe = `SELECT pg_backend_pid() AS pid, $1::int AS n,
        (SELECT count(*)::int FROM pg_prepared_statements WHERE statement LIKE '%heavy probe%') AS named -- heavy probe`;
      const heavy = await new Reader(db, undefined, undefined, new PreparedStatements(true)).rows<{ pid: number; named: number }>({ name: 'h', text: heavyProbe, values: [5], stablePlan: true, heavy: true });
      assert.notEqual(heavy[0]!.pid, named[0]![0]!.pid, 'a heavy statement never goes on the pipelined connection');
      assert.equal(heavy[0]!.named, 1, 'it is prepared all the same');
      assert.deepEqual(
        named.map((r) => r[0]!.n),
        [1, 2, 3],
      );
    } finally {
      await db.close();
    }
  });
});
