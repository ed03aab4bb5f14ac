/**
 * Logs an operator can act on: refusals are one counted summary per interval (never a line
 * each), while the metrics count every one; at debug level each refusal says why, with the
 * request id, route template, peer identity key and database time, and parser-level refusals
 * carry the request id they answered with; a client's valid W3C traceparent is logged with its
 * request; pool errors are logged and counted.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import pg from 'pg';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';
import { getFrom, holdStatements, scrape, startOpsServer } from './support.js';
import { validTraceparent } from '../../src/http/observe.js';

const TRACE = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

async function until<T>(find: () => T | undefined): Promise<T> {
  for (let i = 0; i < 3000; i++) { // polls for up to ~30 s: a bound for a hung run, not a latency
    const found = find();
    if (found !== undefined) return found;
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('never happened');
}

/** A malformed request line: Node's parser refuses it before any route. */
function parserRefusal(base: string): Promise<string> {
  return new Promise<string>((resolve) => {
    let data = '';
    const s = net.connect(Number(new URL(base).port), '127.0.0.1', () => s.write('GET / HTTP/1.1\r\nBad Header\r\n\r\n'));
    s.on('data', (c) => (data += c));
    s.on('close', () => resolve(data));
  });
}

describe('traceparent (W3C Trace Context)', () => {
  it('accepts the valid forms and nothing else', () => {
    assert.equal(validTraceparent(TRACE), TRACE);
    assert.equal(validTraceparent(` ${TRACE}`), TRACE);
    // a later version may add fields: its known fields are kept, the rest is not logged
    assert.equal(validTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-whatever'), '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    for (const bad of [
      undefined,
      '',
      'garbage',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra', // version 00 has exactly four fields
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', // version ff is invalid
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01', // all-zero trace id
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01', // all-zero parent id
      '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01', // upper case
      `${TRACE}, ${TRACE}`, // repeated header
      ['a', 'b'],
    ]) {
      assert.equal(validTraceparent(bad as string | undefined), null, String(bad));
    }
  });
});

for (const engine of engines()) {
  describe(`logs on ${engine.name}`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(engine);
    });
    after(async () => t.drop());

    it('at debug level, a rate-limited request logs its reason, request id, route template, peer and database time', async () => {
      const server = await startOpsServer(t.db, { rateBurst: 1, rateRefillPerSec: 0.001, logLevel: 'debug' });
      try {
        const served = await getFrom(server.base, '/v1/events/abcdefABCDEF', '127.0.0.1', { traceparent: TRACE });
        assert.equal(served.status, 404);
        const refused = await getFrom(server.base, '/v1/events/abcdefABCDEF');
        assert.equal(refused.status, 429);
        const servedLine = await until(() => server.logs.find((l) => l.reqId === served.headers['x-request-id']));
        assert.equal(servedLine.msg, 'request');
        assert.equal(servedLine.route, '/v1/events/:eventId');
        assert.equal(servedLine.peer, '127.0.0.1');
        assert.ok(servedLine.dbMs > 0, 'the detail read took database time');
        assert.equal(servedLine.traceparent, TRACE);
        assert.notEqual(served.headers['x-request-id'], TRACE);
        const line = await until(() => server.logs.find((l) => l.reqId === refused.headers['x-request-id']));
        assert.equal(line.msg, 'refused');
        assert.equal(line.level, 20);
        assert.equal(line.reason, 'rate_limited');
        assert.equal(line.route, '/v1/events/:eventId');
        assert.equal(line.peer, '127.0.0.1');
        assert.equal(line.dbMs, 0);
        assert.equal(line.status, 429);
        assert.equal(line.traceparent, undefined);
      } finally {
        await server.close();
      }
    });

    it('at debug level, a statement past its timeout logs database_unavailable with the database time spent', async () => {
      const server = await startOpsServer(t.db, { statementTimeoutMs: 100, logLevel: 'debug' });
      const held = holdStatements(t.db);
      try {
        const res = await getFrom(server.base, '/v1/events', '127.0.0.1', { traceparent: TRACE });
        assert.equal(res.status, 503);
        const line = await until(() => server.logs.find((l) => l.reqId === res.headers['x-request-id'] && l.msg === 'refused'));
        assert.equal(line.reason, 'database_unavailable');
        assert.equal(line.route, '/v1/events');
        assert.ok(line.dbMs >= 100, `dbMs ${line.dbMs}`);
        assert.equal(line.traceparent, TRACE);
      } finally {
        held.end();
        await server.close();
      }
    });

    it('at debug level, a parser-level refusal is logged with the request id it answered with', async () => {
      const server = await startOpsServer(t.db, { logLevel: 'debug' });
      try {
        const answer = await new Promise<string>((resolve) => {
          let data = '';
          const s = net.connect(Number(new URL(server.base).port), '127.0.0.1', () => s.write('GET / HTTP/1.1\r\nBad Header\r\n\r\n'));
          s.on('data', (c) => (data += c));
          s.on('close', () => resolve(data));
        });
        const id = /X-Request-ID: ([0-9a-f-]{36})/i.exec(answer)?.[1];
        assert.ok(id, answer);
        const line = await until(() => server.logs.find((l) => l.reqId === id));
        assert.equal(line.msg, 'refused');
        assert.equal(line.reason, 'parser_malformed');
        assert.equal(line.peer, '127.0.0.1');
        assert.equal(line.status, 400);
      } finally {
        await server.close();
      }
    });

    it('refusals write no line each: one counted summary per interval, and the metrics count every one', async () => {
      // an interval that never elapses during the test: the summary is written when the app closes
      const server = await startOpsServer(t.db, { rateBurst: 1, rateRefillPerSec: 0.001, refusalLogIntervalMs: 3_600_000 });
      let closed = false;
      try {
        const served = await getFrom(server.base, '/v1/health');
        assert.equal(served.status, 200);
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const refused = await getFrom(server.base, '/v1/health');
          assert.equal(refused.status, 429);
          ids.push(String(refused.headers['x-request-id']));
        }
        await parserRefusal(server.base);
        const m = await scrape(server.admin);
        assert.equal(m.value('lineup_http_refusals_total', { reason: 'rate_limited' }), 5);
        assert.equal(m.value('lineup_http_refusals_total', { reason: 'parser_malformed' }), 1);
        assert.equal(m.value('lineup_http_requests_total', { status: '429' }), 5);
        await until(() => server.logs.find((l) => l.msg === 'request')); // the served request's line
        assert.deepEqual(server.logs.filter((l) => ids.includes(l.reqId)), [], 'no line for a refused request');
        assert.deepEqual(server.logs.filter((l) => String(l.msg).startsWith('refused')), [], 'no summary before its interval');
        closed = true;
        await server.close();
        const summaries = server.logs.filter((l) => String(l.msg).startsWith('refused'));
        assert.equal(summaries.length, 1);
        const summary = summaries[0]!;
        assert.equal(summary.level, 40);
        assert.equal(summary.total, 6);
        assert.deepEqual(summary.refused, { rate_limited: 5, parser_malformed: 1 });
        assert.match(summary.msg, /^refused 6 requests in the last [\d.]+ s: rate_limited 5, parser_malformed 1$/);
      } finally {
        if (!closed) await server.close();
      }
    });

    it('the summary is written every LINEUP_REFUSAL_LOG_INTERVAL_MS while refusals go on', async () => {
      const server = await startOpsServer(t.db, { rateBurst: 1, rateRefillPerSec: 0.001, refusalLogIntervalMs: 20 });
      try {
        assert.equal((await getFrom(server.base, '/v1/health')).status, 200);
        assert.equal((await getFrom(server.base, '/v1/health')).status, 429);
        const first = await until(() => server.logs.find((l) => String(l.msg).startsWith('refused')));
        assert.deepEqual(first.refused, { rate_limited: 1 });
        assert.equal((await getFrom(server.base, '/v1/health')).status, 429);
        assert.equal((await getFrom(server.base, '/v1/health')).status, 429);
        const second = await until(() => server.logs.filter((l) => String(l.msg).startsWith('refused'))[1]);
        assert.deepEqual(second.refused, { rate_limited: 2 }, 'each summary counts its own interval');
      } finally {
        await server.close();
      }
    });

    it('a pool error is logged and counted, not swallowed', { skip: engine.name === 'pglite' ? 'PGlite has no server to lose' : false }, async () => {
      const server = await startOpsServer(t.db);
      const killer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await killer.connect();
      try {
        const client = await t.db.pool.connect();
        const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        client.release(); // idle in the pool now
        await killer.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        const line = await until(() => server.logs.find((l) => l.msg === 'database pool error'));
        assert.equal(line.level, 40);
        assert.ok(line.err?.message, 'the error is in the line');
        const m = await scrape(server.admin);
        assert.equal(m.value('lineup_db_pool_errors_total'), 1);
        assert.equal((await getFrom(server.base, '/v1/events')).status, 200, 'the pool replaced the connection');
      } finally {
        await killer.end();
        await server.close();
      }
    });
  });
}
