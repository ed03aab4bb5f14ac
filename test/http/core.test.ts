/**
 * The HTTP core every route shares: operational reads, request ids, CORS and preflight, 404/405,
 * 414, refused bodies, the error envelope, rate limiting, admission and database faults.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Value } from '@sinclair/typebox/value';
import { engines, openTestDatabase, startServer, type TestDatabase, type TestServer } from '../helper.js';
import { ErrorEnvelope } from '../../src/contract/common.js';
import { openDatabase } from '../../src/db/database.js';

function assertErrorEnvelope(body: unknown, type: string): void {
  assert.ok(Value.Check(ErrorEnvelope, body), `not an error envelope: ${JSON.stringify(body)}`);
  assert.equal((body as { error: { type: string } }).error.type, type);
}

/** Sends raw bytes and returns the raw response text (what fetch cannot express). */
function rawRequest(base: string, text: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('end', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
    setTimeout(() => socket.destroy(), 30_000).unref(); // a guard only: Connection: close ends it
  });
}

for (const engine of engines()) {
  describe(`HTTP core on ${engine.name}`, () => {
    let t: TestDatabase;
    let server: TestServer;
    before(async () => {
      t = await openTestDatabase(engine);
      server = await startServer(t.db);
    });
    after(async () => {
      await server.close();
      await t.drop();
    });

    it('health answers ok, uncached, with a request id and CORS', async () => {
      const res = await server.json('/v1/health');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { ok: true, data: { status: 'ok' } });
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(res.headers.get('etag'), null);
    });

    it('ready probes the database', async () => {
      const res = await server.json('/v1/ready');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { ok: true, data: { status: 'ready' } });
      assert.equal(res.headers.get('cache-control'), 'no-store');
    });

    it('health and ready refuse query parameters', async () => {
      for (const path of ['/v1/health?x=1', '/v1/ready?verbose', '/v1/health?']) {
        const res = await server.json(path);
        if (path.endsWith('?')) {
          assert.equal(res.status, 200, path);
          continue;
        }
        assert.equal(res.status, 400, path);
        assertErrorEnvelope(res.body, 'invalid_query');
        assert.equal(res.headers.get('cache-control'), 'no-store');
      }
    });

    it('concurrent ready callers share one in-flight probe', async () => {
      const original = t.db.pool.query.bind(t.db.pool);
      let probes = 0;
      // the probe is held until all eight requests have reached the server (and a turn of the
      // event loop has let their handlers run): every caller finds it in flight, every run
      let arrived = 0;
      let allArrived!: () => void;
      const gate = new Promise<void>((r) => (allArrived = r));
      const onRequest = (req: { url?: string }) => {
        if (req.url === '/v1/ready' && ++arrived === 8) setImmediate(allArrived);
      };
      server.app.server.on('request', onRequest);
      (t.db.pool as { query: unknown }).query = (...args: unknown[]) => {
        if (typeof args[0] !== 'string' || !args[0].startsWith('SELECT 1 AS ok')) return (original as (...a: unknown[]) => unknown)(...args);
        probes++;
        return gate.then(() => (original as (...a: unknown[]) => Promise<unknown>)(...args));
      };
      try {
        const results = await Promise.all(Array.from({ length: 8 }, () => server.get('/v1/ready')));
        assert.ok(results.every((r) => r.status === 200));
        assert.equal(probes, 1, `expected one shared probe, saw ${probes}`);
      } finally {
        server.app.server.off('request', onRequest);
        allArrived();
        (t.db.pool as { query: unknown }).query = original;
      }
    });

    it('request ids are server-generated and unique; an incoming one is ignored', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) {
        const res = await server.get('/v1/events', { headers: { 'X-Request-ID': 'client-chosen' } });
        await res.arrayBuffer();
        const id = res.headers.get('x-request-id') ?? '';
        assert.notEqual(id, 'client-chosen');
        ids.add(id);
      }
      assert.equal(ids.size, 5);
    });

    it('unknown routes are 404 whatever the method; known paths with other methods are 405 with Allow', async () => {
      for (const [method, path] of [
        ['GET', '/v1/nope'],
        ['POST', '/v1/nope'],
        ['GET', '/events'],
        ['GET', '/v2/events'],
        ['GET', '/v1/events/'],
      ] as const) {
        const res = await server.json(path, { method });
        assert.equal(res.status, 404, `${method} ${path}`);
        assertErrorEnvelope(res.body, 'not_found');
        assert.equal(res.headers.get('cache-control'), 'no-store');
        assert.ok(res.headers.get('x-request-id'));
      }
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await server.json('/v1/events', { method });
        assert.equal(res.status, 405, method);
        assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
        assertErrorEnvelope(res.body, 'method_not_allowed');
      }
      const health = await server.json('/v1/health', { method: 'DELETE' });
      assert.equal(health.status, 405);
      assert.equal(health.headers.get('allow'), 'GET, HEAD, OPTIONS');
    });

    it('answers browser preflight for resource paths, no-store, anonymous', async () => {
      const res = await server.get('/v1/events', {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match' },
      });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.equal(res.headers.get('access-control-allow-methods'), 'GET, HEAD, OPTIONS');
      assert.equal(res.headers.get('access-control-allow-headers'), 'If-None-Match');
      assert.equal(res.headers.get('access-control-allow-credentials'), null);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.ok(res.headers.get('x-request-id'));
      const get = await server.get('/v1/events');
      await get.arrayBuffer();
      assert.equal(get.headers.get('access-control-expose-headers'), 'ETag, Retry-After, Age, X-Request-ID');
    });

    it('refuses URLs longer than 4,096 bytes with 414', async () => {
      const res = await server.json(`/v1/events?nameContains=${'a'.repeat(4100)}`);
      assert.equal(res.status, 414);
      assertErrorEnvelope(res.body, 'invalid_query');
      assert.ok(res.headers.get('x-request-id'));
    });

    it('refuses request bodies', async () => {
      const res = await server.json('/v1/events', { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': '2' } as never });
      // fetch cannot send a GET body; send one raw instead
      void res;
      const raw = await rawRequest(server.base, 'GET /v1/events HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
      assert.match(raw, /^HTTP\/1\.1 400 /);
      assert.match(raw, /x-request-id: /i);
      assert.match(raw, /"invalid_query"/);
    });

    it('renders unexpected failures as a generic 500 without internals', async () => {
      await t.db.pool.query('ALTER TABLE events RENAME TO events_hidden');
      try {
        const res = await server.json('/v1/events');
        assert.equal(res.status, 500);
        assertErrorEnvelope(res.body, 'internal_error');
        assert.equal(res.body.error.message, 'An unexpected error occurred.');
        assert.doesNotMatch(JSON.stringify(res.body), /events_hidden|relation|SELECT|at /);
        assert.equal(res.headers.get('cache-control'), 'no-store');
        assert.equal(res.headers.get('etag'), null);
      } finally {
        await t.db.pool.query('ALTER TABLE events_hidden RENAME TO events');
      }
    });
  });

  describe(`limits on ${engine.name}`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(engine);
    });
    after(async () => t.drop());

    it('the 61st rapid request is 429 with Retry-After digits; forwarded headers make no new identity', async () => {
      // no token comes back during the run however slow it is (at 1 token/s, sixty requests
      // that took more than a second would earn the 61st its token)
      const server = await startServer(t.db, { rateBurst: 60, rateRefillPerSec: 0.001 });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 60; i++) {
          // preflights and invalid requests spend tokens too
          const kind = i % 3;
          const res =
            kind === 0
              ? await server.get('/v1/events', { method: 'OPTIONS' })
              : kind === 1
                ? await server.get('/v1/events?bogus=1')
                : await server.get('/v1/health', { headers: { 'X-Forwarded-For': `10.0.0.${i}` } });
          await res.arrayBuffer();
          statuses.push(res.status);
        }
        assert.ok(!statuses.includes(429), `limited too early: ${statuses.join(',')}`);
        const res = await server.json('/v1/health', { headers: { 'X-Forwarded-For': '192.0.2.77', Forwarded: 'for=192.0.2.78' } });
        assert.equal(res.status, 429);
        assertErrorEnvelope(res.body, 'rate_limited');
        assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
        assert.equal(res.headers.get('cache-control'), 'no-store');
        assert.equal(res.headers.get('access-control-allow-origin'), '*');
      } finally {
        await server.close();
      }
    });

    it('admits one database read at a time without a queue: some 503, the rest correct 200, no 500', async () => {
      const server = await startServer(t.db, { dbReads: 1 });
      try {
        const results = await Promise.all(Array.from({ length: 24 }, () => server.json('/v1/events?limit=50')));
        const statuses = results.map((r) => r.status);
        assert.ok(statuses.every((s) => s === 200 || s === 503), statuses.join(','));
        assert.ok(statuses.includes(200));
        for (const r of results.filter((x) => x.status === 503)) {
          assertErrorEnvelope(r.body, 'unavailable');
          assert.match(r.headers.get('retry-after') ?? '', /^\d+$/);
        }
        for (const r of results.filter((x) => x.status === 200)) assert.equal(r.body.ok, true);
      } finally {
        await server.close();
      }
    });

    it('a database that cannot be reached gives 503 and ready 503, never 500', async () => {
      // PGlite lives in-process: a closed pool is its "unreachable" database
      const db =
        engine.name === 'postgres'
          ? await openDatabase({ engine: 'postgres', url: 'postgresql://app:app@127.0.0.1:1/app' }, { connectionTimeoutMs: 500 })
          : await openDatabase({ engine: 'pglite', dataDir: null });
      if (engine.name === 'pglite') await db.pool.end();
      const server = await startServer(db);
      try {
        const res = await server.json('/v1/events');
        assert.equal(res.status, 503);
        assertErrorEnvelope(res.body, 'unavailable');
        const ready = await server.json('/v1/ready');
        assert.equal(ready.status, 503);
        assertErrorEnvelope(ready.body, 'unavailable');
        assert.match(ready.headers.get('retry-after') ?? '', /^\d+$/);
      } finally {
        await server.close();
        if (engine.name === 'postgres') await db.close();
      }
    });
  });
}
