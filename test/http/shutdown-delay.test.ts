/**
 * LINEUP_SHUTDOWN_DELAY_MS: on SIGTERM, /v1/ready answers 503 at once (a load balancer stops
 * sending) while requests are still served for the delay; then the drain closes the listener.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { configWith } from '../../src/config/config.js';
import { delayedShutdown, gracefulShutdown } from '../../src/server.js';
import type { ServiceState } from '../../src/http/service-state.js';
import { engines, openTestDatabase } from '../helper.js';

const engine = engines()[0]!;

describe('shutdown delay', () => {
  it('ready is 503 at once, requests are still served during the delay, then the listener closes', async () => {
    const t = await openTestDatabase(engine);
    const state: ServiceState = { stopping: false };
    const app = await buildApp({ config: configWith({ logLevel: 'silent', rateBurst: 1000 }), db: t.db, state });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const logger = pino({ level: 'silent' });
    // the requests below must all fall within the delay: their first-use costs are paid before it,
    // and the delay (5 s) is long next to three warm requests, however loaded the machine
    const stop = delayedShutdown(state, 5000, gracefulShutdown(app, t.db, state, 1000, logger), logger);
    assert.equal((await fetch(`${base}/v1/ready`)).status, 200);
    for (const path of ['/v1/events', '/v1/venues', '/v1/health']) await (await fetch(`${base}${path}`)).arrayBuffer();

    const stopped = stop();
    const ready = await fetch(`${base}/v1/ready`);
    assert.equal(ready.status, 503);
    assert.equal(((await ready.json()) as { error: { type: string } }).error.type, 'unavailable');
    for (const path of ['/v1/events', '/v1/venues', '/v1/health']) {
      const res = await fetch(`${base}${path}`);
      assert.equal(res.status, 200, `${path} still served during the delay`);
      await res.arrayBuffer();
    }
    assert.equal(stop(), stopped, 'idempotent');
    await stopped;
    await assert.rejects(fetch(`${base}/v1/health`), 'the listener is closed after the drain');
  });
});
