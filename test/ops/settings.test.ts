/**
 * The limits an operator tunes are settings (decisions §1): listener deadlines, requests per
 * connection, lock and connection timeouts and the limiter's idle expiry, the spec's values by
 * default, validated like the others, and in effect when set.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { loadConfig, configWith } from '../../src/config/config.js';
import { buildApp } from '../../src/app.js';
import { openStore } from '../../src/server.js';
import { engines, openTestDatabase, startServer, type TestDatabase } from '../helper.js';

const engine = engines()[0]!;

describe('operator settings', () => {
  it('default to the spec Limits table', () => {
    const c = loadConfig({});
    assert.equal(c.headersTimeoutMs, 5000);
    assert.equal(c.requestTimeoutMs, 5000);
    assert.equal(c.keepAliveTimeoutMs, 5000);
    assert.equal(c.maxRequestsPerConnection, 100);
    assert.equal(c.lockTimeoutMs, 500);
    assert.equal(c.connectionTimeoutMs, 2000);
    assert.equal(c.rateIdleMs, 300_000);
    assert.equal(c.refusalLogIntervalMs, 10_000);
  });

  it('read their variables and refuse bad values naming the variable', () => {
    const c = loadConfig({
      LINEUP_HEADERS_TIMEOUT_MS: '2000',
      LINEUP_REQUEST_TIMEOUT_MS: '3000',
      LINEUP_KEEP_ALIVE_TIMEOUT_MS: '65000',
      LINEUP_MAX_REQUESTS_PER_CONNECTION: '1000',
      LINEUP_LOCK_TIMEOUT_MS: '250',
      LINEUP_CONNECTION_TIMEOUT_MS: '1000',
      LINEUP_RATE_IDLE_MS: '60000',
      LINEUP_REFUSAL_LOG_INTERVAL_MS: '60000',
    });
    assert.deepEqual(
      [c.headersTimeoutMs, c.requestTimeoutMs, c.keepAliveTimeoutMs, c.maxRequestsPerConnection, c.lockTimeoutMs, c.connectionTimeoutMs, c.rateIdleMs, c.refusalLogIntervalMs],
      [2000, 3000, 65000, 1000, 250, 1000, 60000, 60000],
    );
    for (const name of [
      'LINEUP_HEADERS_TIMEOUT_MS',
      'LINEUP_REQUEST_TIMEOUT_MS',
      'LINEUP_KEEP_ALIVE_TIMEOUT_MS',
      'LINEUP_MAX_REQUESTS_PER_CONNECTION',
      'LINEUP_LOCK_TIMEOUT_MS',
      'LINEUP_CONNECTION_TIMEOUT_MS',
      'LINEUP_RATE_IDLE_MS',
      'LINEUP_REFUSAL_LOG_INTERVAL_MS',
    ]) {
      for (const bad of ['0', '-1', 'soon', '1.5']) assert.throws(() => loadConfig({ [name]: bad }), new RegExp(name), `${name}=${bad}`);
    }
    // Node refuses a header deadline longer than the request deadline: said at start, by name
    assert.throws(() => loadConfig({ LINEUP_HEADERS_TIMEOUT_MS: '6000' }), /LINEUP_REQUEST_TIMEOUT_MS: must be at least LINEUP_HEADERS_TIMEOUT_MS/);
  });

  describe('in effect', () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(engine);
    });
    after(async () => t.drop());

    it('the listener takes its deadlines from the settings', async () => {
      const server = await startServer(t.db, { headersTimeoutMs: 1500, requestTimeoutMs: 2500, keepAliveTimeoutMs: 65_000 });
      try {
        assert.equal(server.app.server.headersTimeout, 1500);
        assert.equal(server.app.server.requestTimeout, 2500);
        assert.equal(server.app.server.keepAliveTimeout, 65_000);
      } finally {
        await server.close();
      }
    });

    it('the n-th response of a connection closes it (LINEUP_MAX_REQUESTS_PER_CONNECTION)', async () => {
      const server = await startServer(t.db, { maxRequestsPerConnection: 3 });
      try {
        const raw = await new Promise<string>((resolve, reject) => {
          let data = '';
          const s = net.connect(Number(new URL(server.base).port), '127.0.0.1', () =>
            s.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(5)),
          );
          s.on('data', (c) => (data += c));
          s.on('error', reject);
          s.on('close', () => resolve(data));
        });
        const statuses = [...raw.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => m[1]);
        assert.deepEqual(statuses, ['200', '200', '200'], 'three answers, then the connection is closed');
        assert.equal([...raw.matchAll(/^Connection: close/gim)].length, 1);
      } finally {
        await server.close();
      }
    });

    it('the limiter forgets an identity idle for LINEUP_RATE_IDLE_MS', async () => {
      let now = 0;
      const config = configWith({ logLevel: 'silent', rateBurst: 1, rateRefillPerSec: 0.0001, rateIdleMs: 1000 });
      const app = await buildApp({ config, db: t.db, limiterNow: () => now });
      try {
        const status = async () => (await app.inject({ method: 'GET', url: '/v1/health', remoteAddress: '192.0.2.1' })).statusCode;
        assert.equal(await status(), 200);
        assert.equal(await status(), 429);
        now += 999;
        assert.equal(await status(), 429, 'still held (the refused attempt counted as activity)');
        now += 1000;
        assert.equal(await status(), 200, 'forgotten: a fresh bucket');
      } finally {
        await app.close();
      }
    });

    it('the database session takes the lock timeout (LINEUP_LOCK_TIMEOUT_MS)', { skip: engine.name !== 'pglite' && 'openStore migrates the public schema' }, async () => {
      const db = await openStore(configWith({ database: { engine: 'pglite', dataDir: null }, lockTimeoutMs: 1234 }));
      try {
        const { rows } = await db.pool.query<{ lock_timeout: string }>('SHOW lock_timeout');
        assert.equal(rows[0]?.lock_timeout, '1234ms');
      } finally {
        await db.close();
      }
    });
  });
});
