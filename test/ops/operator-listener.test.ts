/**
 * The operator listener (LINEUP_ADMIN_PORT): /live, /ready and /metrics on their own port, never
 * rate-limited nor gated, and metrics that move as requests, refusals and faults happen (read
 * with a real Prometheus text parser).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';
import { getFrom, holdStatements, scrape, startOpsServer } from './support.js';
import { loadConfig } from '../../src/config/config.js';
import { openDatabase } from '../../src/db/database.js';

for (const engine of engines()) {
  describe(`operator listener on ${engine.name}`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(engine);
    });
    after(async () => t.drop());

    it('is off by default and listens on 127.0.0.1 when LINEUP_ADMIN_PORT is set', () => {
      assert.equal(loadConfig({}).adminPort, null);
      const config = loadConfig({ LINEUP_ADMIN_PORT: '9090' });
      assert.equal(config.adminPort, 9090);
      assert.equal(config.adminHost, '127.0.0.1');
      assert.throws(() => loadConfig({ LINEUP_ADMIN_PORT: 'x' }), /LINEUP_ADMIN_PORT/);
    });

    it('answers /live, /ready and /metrics while the public listener refuses the same client, and serves no catalogue data', async () => {
      const server = await startOpsServer(t.db, { rateBurst: 1, rateRefillPerSec: 0.001 });
      try {
        assert.equal((await getFrom(server.base, '/v1/health')).status, 200);
        assert.equal((await getFrom(server.base, '/v1/health')).status, 429);
        for (let i = 0; i < 5; i++) {
          const live = await fetch(`${server.admin.url}/live`);
          assert.equal(live.status, 200);
          assert.deepEqual(await live.json(), { status: 'live' });
          const ready = await fetch(`${server.admin.url}/ready`);
          assert.equal(ready.status, 200);
          assert.deepEqual(await ready.json(), { status: 'ready' });
          assert.equal((await fetch(`${server.admin.url}/metrics`)).status, 200);
        }
        for (const path of ['/v1/events', '/v1/health', '/events']) {
          assert.equal((await fetch(`${server.admin.url}${path}`)).status, 404, path);
        }
        // the operator listener's own requests are not the public API's: not counted, not limited
        const m = await scrape(server.admin, { requests: 2 });
        assert.equal(m.value('lineup_http_requests_total'), 2);
        assert.equal(m.value('lineup_http_refusals_total', { reason: 'rate_limited' }), 1);
      } finally {
        await server.close();
      }
    });

    it('counts requests by route template, method and status, with durations, and the statements they ran', async () => {
      const server = await startOpsServer(t.db);
      try {
        const before = await scrape(server.admin);
        assert.equal(before.value('lineup_http_requests_total'), 0);
        assert.equal((await getFrom(server.base, '/v1/events?limit=2')).status, 200);
        assert.equal((await getFrom(server.base, '/v1/events/abcdefABCDEF')).status, 404);
        assert.equal((await getFrom(server.base, '/v1/events/zyxwvuZYXWVU')).status, 404);
        assert.equal((await getFrom(server.base, '/nowhere/at/all?x=1')).status, 404);
        const m = await scrape(server.admin, { requests: 4 });
        assert.equal(m.families.get('lineup_http_requests_total')?.type, 'COUNTER');
        assert.equal(m.value('lineup_http_requests_total', { route: '/v1/events', method: 'GET', status: '200' }), 1);
        // one series for both ids: the route template, never the raw URL
        assert.equal(m.value('lineup_http_requests_total', { route: '/v1/events/:eventId', method: 'GET', status: '404' }), 2);
        assert.equal(m.value('lineup_http_requests_total', { route: 'unmatched', status: '404' }), 1);
        assert.ok(!m.text.includes('abcdefABCDEF') && !m.text.includes('nowhere'), 'no raw URL in any label');
        assert.equal(m.count('lineup_http_request_duration_seconds', { route: '/v1/events', method: 'GET' }), 1);
        assert.ok(m.value('lineup_db_statements_total', { kind: 'events.page', outcome: 'ok' }) >= 1);
        assert.ok(m.count('lineup_db_statement_duration_seconds', { kind: 'events.page' }) >= 1);
        assert.equal(m.value('lineup_db_statement_timeouts_total'), 0);
        assert.equal(m.value('lineup_rate_limiter_identities'), 1);
        assert.equal(m.families.get('lineup_http_connections_waiting_turn')?.type, 'GAUGE');
        assert.equal(m.value('lineup_http_connections_waiting_turn'), 0, 'no connection waits its turn without overload');
        assert.equal(m.value('lineup_db_read_slots'), 1);
        assert.equal(m.value('lineup_db_read_slots_in_use'), 0);
        assert.ok(m.families.has('lineup_db_pool_connections'));
        // process metrics (prom-client's defaults) include the event-loop lag
        assert.ok(m.families.has('process_cpu_seconds_total'));
        assert.ok(m.families.has('process_resident_memory_bytes'));
        assert.ok(m.families.has('nodejs_eventloop_lag_seconds'));
        // a method outside the standard ones is one label value, whatever the client sends
        await new Promise<void>((resolve) => {
          const s = net.connect(Number(new URL(server.base).port), '127.0.0.1', () => s.end('BREW /v1/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
          s.on('data', () => {});
          s.on('close', () => resolve());
        });
        const after = await scrape(server.admin);
        assert.ok(!after.text.includes('BREW'));
      } finally {
        await server.close();
      }
    });

    it('counts every refusal by reason: rate limited, identity store full, executions full, reads full, stopping, parser', async () => {
      const server = await startOpsServer(t.db, { rateBurst: 2, rateRefillPerSec: 0.001, rateMaxIdentities: 1, maxActiveRequests: 2, dbReads: 1 });
      try {
        await getFrom(server.base, '/v1/health');
        await getFrom(server.base, '/v1/health');
        assert.equal((await getFrom(server.base, '/v1/health')).status, 429);
        assert.equal((await getFrom(server.base, '/v1/health', '127.0.0.2')).status, 503);
        const m = await scrape(server.admin);
        assert.equal(m.value('lineup_http_refusals_total', { reason: 'rate_limited' }), 1);
        assert.equal(m.value('lineup_http_refusals_total', { reason: 'identity_store_full' }), 1);
        assert.equal(m.value('lineup_rate_limiter_identities'), 1);
      } finally {
        await server.close();
      }

      const busy = await startOpsServer(t.db, { maxActiveRequests: 2, dbReads: 1 });
      const held = holdStatements(t.db);
      try {
        // one read holds the only database read slot (its statement waits): every other read
        // finds no read slot, the same outcome every run
        const first = getFrom(busy.base, '/v1/events');
        await held.reached;
        let m = await scrape(busy.admin);
        assert.equal(m.value('lineup_db_read_slots_in_use'), 1);
        assert.equal(m.value('lineup_http_route_executions_in_use'), 1);
        assert.equal((await getFrom(busy.base, '/v1/events/abcdefABCDEF')).status, 503);
        assert.equal((await getFrom(busy.base, '/v1/artists')).status, 503);
        m = await scrape(busy.admin);
        assert.equal(m.value('lineup_http_refusals_total', { reason: 'database_reads_full' }), 2);
        held.release();
        assert.equal((await first).status, 200);
      } finally {
        held.end();
        await busy.close();
      }
    });

    it('counts route executions full while every execution slot is taken', async () => {
      const server = await startOpsServer(t.db, { maxActiveRequests: 1, dbReads: 1 });
      const held = holdStatements(t.db);
      try {
        const first = getFrom(server.base, '/v1/events');
        await held.reached;
        const refused = await getFrom(server.base, '/v1/health');
        assert.equal(refused.status, 503);
        const m = await scrape(server.admin);
        assert.equal(m.value('lineup_http_refusals_total', { reason: 'route_executions_full' }), 1);
        held.release();
        assert.equal((await first).status, 200);
      } finally {
        held.end();
        await server.close();
      }
    });

    it('counts parser-level refusals and stopping; /ready says 503 while stopping, /live stays 200', async () => {
      const server = await startOpsServer(t.db);
      try {
        await new Promise<void>((resolve) => {
          const s = net.connect(Number(new URL(server.base).port), '127.0.0.1', () => s.write('GET / HTTP/1.1\r\nBad Header\r\n\r\n'));
          s.on('data', () => {});
          s.on('close', () => resolve());
        });
        let m = await scrape(server.admin);
        assert.equal(m.value('lineup_http_refusals_total', { reason: 'parser_malformed' }), 1);

        server.state.stopping = true;
        assert.equal((await getFrom(server.base, '/v1/events')).status, 503);
        assert.equal((await fetch(`${server.admin.url}/ready`)).status, 503);
        assert.equal((await fetch(`${server.admin.url}/live`)).status, 200);
        m = await scrape(server.admin);
        assert.equal(m.value('lineup_http_refusals_total', { reason: 'stopping' }), 1);
      } finally {
        await server.close();
      }
    });

    it('counts a statement past its timeout and the database-unavailable refusal it causes', async () => {
      const server = await startOpsServer(t.db, { statementTimeoutMs: 100 });
      const held = holdStatements(t.db);
      try {
        const res = await getFrom(server.base, '/v1/events');
        assert.equal(res.status, 503);
        const m = await scrape(server.admin);
        assert.equal(m.value('lineup_db_statement_timeouts_total', { kind: 'events.page' }), 1);
        assert.equal(m.value('lineup_db_statements_total', { kind: 'events.page', outcome: 'timeout' }), 1);
        assert.equal(m.value('lineup_http_refusals_total', { reason: 'database_unavailable' }), 1);
      } finally {
        held.end();
        await server.close();
      }
    });

    it('answers /ready 503 and counts database_unavailable when the database is gone', async () => {
      // a database closed under the server (on PostgreSQL without a test schema: nothing to drop)
      const gone = engine.name === 'pglite' ? (await openTestDatabase(engine)).db : await openDatabase(engine.target);
      const server = await startOpsServer(gone);
      try {
        assert.equal((await fetch(`${server.admin.url}/ready`)).status, 200);
        await gone.close();
        assert.equal((await fetch(`${server.admin.url}/ready`)).status, 503);
        assert.equal((await fetch(`${server.admin.url}/live`)).status, 200);
        assert.equal((await getFrom(server.base, '/v1/ready')).status, 503);
        assert.equal((await getFrom(server.base, '/v1/events')).status, 503);
        const m = await scrape(server.admin);
        assert.equal(m.value('lineup_http_refusals_total', { reason: 'database_unavailable' }), 2);
        assert.equal(m.value('lineup_db_statements_total', { outcome: 'unavailable' }), 1);
      } finally {
        await server.close();
      }
    });
  });
}
