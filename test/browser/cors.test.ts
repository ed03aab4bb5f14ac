/**
 * CORS in a real browser: headless Chromium (Debian's `chromium`, installed by .ci/run) driven
 * by playwright-core. A page served from another origin (another port) calls the API with
 * fetch, as the CORS rules of the spec promise (Pre-flight and CORS, Authentication):
 * - a simple GET succeeds and the page reads ETag and X-Request-ID (exposed headers);
 * - If-None-Match triggers a preflight that succeeds, then the 304 reaches the page, ETag readable;
 * - a request with credentials is not given access (ACAO * with credentials is refused);
 * - a 429 exposes Retry-After.
 * Skipped, with the reason, only when no Chromium executable exists.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { configWith } from '../../src/config/config.js';
import { engines, openTestDatabase, startServer, type TestDatabase, type TestServer } from '../helper.js';
import { importDoc } from '../fixtures/events-setup.js';
import { resourcesCatalogue } from '../fixtures/resources.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `Chromium is not installed at ${CHROMIUM} (.ci/run installs Debian's chromium; set CHROMIUM_PATH otherwise)`;
const engine = engines()[0]!;

interface Logged {
  method: string;
  url: string;
  status: number;
}

/** The API with a logger whose request lines the test reads (to see the preflight). */
async function loggedApi(t: TestDatabase, rateBurst: number): Promise<{ app: FastifyInstance; base: string; log: Logged[] }> {
  const log: Logged[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) {
        if (!line) continue;
        const entry = JSON.parse(line);
        if (entry.msg === 'request') log.push({ method: entry.method, url: entry.url, status: entry.status });
      }
      done();
    },
  });
  const app = await buildApp({ config: configWith({ logLevel: 'info', rateBurst, rateRefillPerSec: 0.001 }), db: t.db, logger: pino({ level: 'info' }, sink) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, log };
}

describe('a browser on another origin uses the API as the CORS rules promise', { skip, timeout: 600_000 /* stops a hung browser only */ }, () => {
  let t: TestDatabase;
  let api: { app: FastifyInstance; base: string; log: Logged[] };
  let limited: TestServer;
  let pageServer: http.Server;
  let pageOrigin: string;
  let browser: Browser;
  let page: Page;

  before(async () => {
    t = await openTestDatabase(engine);
    await importDoc(t.db, resourcesCatalogue);
    api = await loggedApi(t, 1_000_000);
    limited = await startServer(t.db, { rateBurst: 3, rateRefillPerSec: 0.001 });
    pageServer = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Lineup CORS test page</title><p>another origin</p>');
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    // "localhost" and 127.0.0.1 on different ports: a different origin in every sense
    pageOrigin = `http://localhost:${(pageServer.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage();
    await page.goto(`${pageOrigin}/`);
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => pageServer?.close(resolve));
    await api?.app.close();
    await limited?.close();
    await t?.drop();
  });

  it('a simple GET succeeds and the page reads ETag and X-Request-ID', async () => {
    const got = await page.evaluate(async (url) => {
      const res = await fetch(url);
      const body = (await res.json()) as { ok: boolean; data: unknown[] };
      // (runs in the page: its `location`, which Node's types do not declare)
      const { origin } = (globalThis as unknown as { location: { origin: string } }).location;
      return { status: res.status, etag: res.headers.get('ETag'), id: res.headers.get('X-Request-ID'), ok: body.ok, n: body.data.length, origin };
    }, `${api.base}/v1/venues?limit=3`);
    assert.notEqual(got.origin, new URL(api.base).origin);
    assert.equal(got.status, 200);
    assert.equal(got.ok, true);
    assert.equal(got.n, 3);
    assert.match(got.etag ?? '', /^W\/".+"$/);
    assert.match(got.id ?? '', /^[0-9a-f-]{36}$/);
    const simple = api.log.filter((l) => l.url === '/v1/venues?limit=3');
    assert.deepEqual(simple.map((l) => l.method), ['GET'], 'a simple GET needs no preflight');
  });

  it('If-None-Match triggers a successful preflight, then the 304 reaches the page with its ETag', async () => {
    const url = `${api.base}/v1/artists?limit=2`;
    const got = await page.evaluate(async (u) => {
      // (the browser's RequestInit has `cache`; Node's types do not)
      const first = await fetch(u, { cache: 'no-store' } as unknown as RequestInit);
      const etag = first.headers.get('ETag')!;
      await first.text();
      const second = await fetch(u, { cache: 'no-store', headers: { 'If-None-Match': etag } } as unknown as RequestInit);
      return { etag, status: second.status, etag304: second.headers.get('ETag'), id: second.headers.get('X-Request-ID'), body: await second.text() };
    }, url);
    assert.equal(got.status, 304);
    assert.equal(got.etag304, got.etag);
    assert.match(got.id ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(got.body, '');
    const seen = api.log.filter((l) => l.url === '/v1/artists?limit=2').map((l) => `${l.method} ${l.status}`);
    assert.deepEqual(seen, ['GET 200', 'OPTIONS 204', 'GET 304']);
  });

  it('an error envelope is readable cross-origin', async () => {
    const got = await page.evaluate(async (u) => {
      const res = await fetch(u);
      return { status: res.status, id: res.headers.get('X-Request-ID'), body: (await res.json()) as { error: { type: string } } };
    }, `${api.base}/v1/venues?bogus=1`);
    assert.equal(got.status, 400);
    assert.equal(got.body.error.type, 'invalid_query');
    assert.match(got.id ?? '', /^[0-9a-f-]{36}$/);
  });

  it('a request with credentials is not given access', async () => {
    const got = await page.evaluate(async (u) => {
      try {
        const res = await fetch(u, { credentials: 'include' });
        return { outcome: `answered ${res.status}` };
      } catch (err) {
        return { outcome: `refused: ${(err as Error).name}` };
      }
    }, `${api.base}/v1/series?limit=1`);
    assert.equal(got.outcome, 'refused: TypeError');
    // the server answered (the browser withheld it): anonymous CORS, no credentials allowed
    assert.ok(api.log.some((l) => l.url === '/v1/series?limit=1' && l.status === 200));
  });

  it('a 429 exposes Retry-After to the page', async () => {
    const got = await page.evaluate(async (u) => {
      const seen: { status: number; retryAfter: string | null; type?: string }[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await fetch(u, { cache: 'no-store' } as unknown as RequestInit);
        const body = (await res.json()) as { error?: { type: string } };
        seen.push({ status: res.status, retryAfter: res.headers.get('Retry-After'), type: body.error?.type });
      }
      return seen;
    }, `${limited.base}/v1/health`);
    assert.deepEqual(got.map((s) => s.status), [200, 200, 200, 429, 429]);
    const limitedAnswer = got[3]!;
    assert.match(limitedAnswer.retryAfter ?? '', /^\d+$/);
    assert.equal(limitedAnswer.type, 'rate_limited');
  });
});
