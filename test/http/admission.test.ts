/**
 * Admission and budgets through the real server: per-statement deadline (what bounds a read on
 * PGlite, which does not enforce statement_timeout), the active-execution gate, client
 * identities by socket peer and the full limiter store.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { engines, holdStatements, openTestDatabase, startServer, type TestDatabase } from '../helper.js';
import { getFrom } from '../ops/support.js';

const engine = engines()[0]!;

describe(`admission on ${engine.name}`, () => {
  let t: TestDatabase;
  before(async () => {
    t = await openTestDatabase(engine);
  });
  after(async () => t.drop());

  it('a statement past its deadline is a 503 while it still runs, and the service recovers', async () => {
    const server = await startServer(t.db, { statementTimeoutMs: 1000 });
    // (were there no deadline, the statement would go on after the hold's guard and answer 200)
    const held = holdStatements(t.db);
    try {
      const res = await server.json('/v1/events');
      assert.equal(held.held, 1, 'answered while its statement was still held');
      assert.equal(res.status, 503);
      assert.equal(res.body.error.type, 'unavailable');
      assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
      // the abandoned statement finishes (the one read slot comes back only then): the next read is served
      held.release();
      await held.drained();
      held.restore();
      assert.equal((await server.json('/v1/events')).status, 200);
    } finally {
      held.end();
      await server.close(); // also when an assertion failed: a server left open keeps the test process alive
    }
  });

  it('beyond LINEUP_MAX_ACTIVE_REQUESTS executions, 503 at once; the others complete', async () => {
    // no deadline while the two admitted reads are held
    const server = await startServer(t.db, { maxActiveRequests: 2, dbReads: 10, statementTimeoutMs: 600_000 });
    const held = holdStatements(t.db);
    try {
      const first = [server.json('/v1/events'), server.json('/v1/events')];
      await held.untilHeld(2);
      // both execution slots are taken until the held statements go on: every other request is refused at once
      const refused = await Promise.all(Array.from({ length: 4 }, () => server.json('/v1/events')));
      for (const r of refused) {
        assert.equal(r.status, 503);
        assert.equal(r.body.error.type, 'unavailable');
      }
      assert.equal(held.held, 2, 'the refused requests reached no statement');
      held.release();
      for (const r of await Promise.all(first)) assert.equal(r.status, 200);
    } finally {
      held.end();
      await server.close();
    }
  });

  it('identities are socket peers: another address has its own bucket; a full store refuses new clients with 503', async () => {
    const server = await startServer(t.db, { rateBurst: 2, rateMaxIdentities: 1, rateRefillPerSec: 0.001 });
    try {
      assert.equal((await getFrom(server.base, '/v1/health', '127.0.0.1')).status, 200);
      assert.equal((await getFrom(server.base, '/v1/health', '127.0.0.1')).status, 200);
      const limited = await getFrom(server.base, '/v1/health', '127.0.0.1');
      assert.equal(limited.status, 429);
      assert.match(String(limited.headers['retry-after']), /^\d+$/);
      // the store holds one identity: a new peer is refused with 503 while the known one stays known
      const full = await getFrom(server.base, '/v1/health', '127.0.0.2');
      assert.equal(full.status, 503);
      assert.equal(full.body.error.type, 'unavailable');
      assert.match(String(full.headers['retry-after']), /^\d+$/);
    } finally {
      await server.close();
    }
  });

  it('a second peer address gets a fresh bucket', async () => {
    const server = await startServer(t.db, { rateBurst: 1, rateRefillPerSec: 0.001 });
    try {
      assert.equal((await getFrom(server.base, '/v1/health', '127.0.0.1')).status, 200);
      assert.equal((await getFrom(server.base, '/v1/health', '127.0.0.1')).status, 429);
      assert.equal((await getFrom(server.base, '/v1/health', '127.0.0.3')).status, 200);
    } finally {
      await server.close();
    }
  });
});
