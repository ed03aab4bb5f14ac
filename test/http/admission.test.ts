/**
 * Admission and budgets through the real server: per-statement deadline (what bounds a read on
 * PGlite, which does not enforce statement_timeout), the active-execution gate, client
 * identities by socket peer and the full limiter store.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { engines, openTestDatabase, startServer, type TestDatabase } from '../helper.js';

const engine = engines()[0]!;

/** GET from a chosen loopback source address (each is its own rate-limit identity). */
function getFrom(base: string, path: string, localAddress: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path, localAddress, agent: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every statement waits `ms` before it gets its connection (reads take theirs with pool.connect). */
function slowDown(t: TestDatabase, ms: number): () => void {
  const pool = t.db.pool as unknown as Record<'query' | 'connect', (...a: unknown[]) => Promise<unknown>>;
  const originals = { query: pool.query.bind(t.db.pool), connect: pool.connect.bind(t.db.pool) };
  for (const name of ['query', 'connect'] as const) {
    pool[name] = async (...args: unknown[]) => {
      await new Promise((r) => setTimeout(r, ms));
      return originals[name](...args);
    };
  }
  return () => {
    pool.query = originals.query;
    pool.connect = originals.connect;
  };
}

describe(`admission on ${engine.name}`, () => {
  let t: TestDatabase;
  before(async () => {
    t = await openTestDatabase(engine);
  });
  after(async () => t.drop());

  it('a statement past its deadline is a 503 within about the timeout, and the service recovers', async () => {
    const server = await startServer(t.db, { statementTimeoutMs: 200 });
    try {
      // warm the server's and the contract checker's first-use paths, so the elapsed time below is the deadline's
      assert.equal((await server.json('/v1/events')).status, 200);
      assert.equal((await server.json('/v1/nowhere')).status, 404);
      const restore = slowDown(t, 1500);
      try {
        const started = Date.now();
        const res = await server.json('/v1/events');
        const elapsed = Date.now() - started;
        assert.equal(res.status, 503);
        assert.equal(res.body.error.type, 'unavailable');
        assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
        assert.ok(elapsed < 1200, `answered after ${elapsed} ms`);
      } finally {
        restore();
      }
      await new Promise((r) => setTimeout(r, 1600)); // let the abandoned statement finish
      assert.equal((await server.json('/v1/events')).status, 200);
    } finally {
      await server.close(); // also when an assertion failed: a server left open keeps the test process alive
    }
  });

  it('beyond LINEUP_MAX_ACTIVE_REQUESTS executions, 503 at once; the others complete', async () => {
    const server = await startServer(t.db, { maxActiveRequests: 2, dbReads: 10 });
    const restore = slowDown(t, 300);
    try {
      const results = await Promise.all(Array.from({ length: 6 }, () => server.json('/v1/events')));
      const statuses = results.map((r) => r.status).sort();
      assert.deepEqual(statuses.filter((s) => s === 200).length, 2, statuses.join(','));
      assert.ok(statuses.every((s) => s === 200 || s === 503));
      for (const r of results.filter((x) => x.status === 503)) assert.equal(r.body.error.type, 'unavailable');
    } finally {
      restore();
      await server.close();
    }
  });

  it('identities are socket peers: another address has its own bucket; a full store refuses new clients with 503', async () => {
    const server = await startServer(t.db, { rateBurst: 2, rateMaxIdentities: 1 });
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
    const server = await startServer(t.db, { rateBurst: 1 });
    try {
      assert.equal((await getFrom(server.base, '/v1/health', '127.0.0.1')).status, 200);
      assert.equal((await getFrom(server.base, '/v1/health', '127.0.0.1')).status, 429);
      assert.equal((await getFrom(server.base, '/v1/health', '127.0.0.3')).status, 200);
    } finally {
      await server.close();
    }
  });
});
