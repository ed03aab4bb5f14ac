/**
 * The API reference the service answers outside /v1: GET /openapi.json is the committed contract
 * byte for byte, GET /docs the interactive page whose script is served by the same origin; both
 * pass the request stages (a 405 for other methods, preflights, the rate limit), answer 304 on a
 * matching ETag, and LINEUP_DOCS=false turns them into 404 envelopes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { engines, serveForSuite } from '../helper.js';

const COMMITTED = readFileSync('openapi.json');

/** The script the page loads (its name is its content digest). */
const scriptOf = (html: string): string => {
  const src = /<script src="(\/docs\/scalar-[0-9a-f]{16}\.js)"><\/script>/.exec(html)?.[1];
  assert.ok(src, 'the page loads its script from /docs/');
  return src;
};

for (const engine of engines()) {
  describe(`the API reference (${engine.name})`, () => {
    const suite = serveForSuite(engine);
    const fetchFrom = (path: string, init?: RequestInit) => fetch(`${suite.server.base}${path}`, init);

    it('GET /openapi.json answers the committed openapi.json, byte for byte', async () => {
      const res = await fetchFrom('/openapi.json');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(res.headers.get('cache-control'), 'public, max-age=60');
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(COMMITTED), 'the served bytes are the committed file');
    });

    it('answers 304 to a matching If-None-Match, and HEAD with the headers only', async () => {
      const first = await fetchFrom('/openapi.json');
      await first.arrayBuffer();
      const etag = first.headers.get('etag');
      assert.match(etag ?? '', /^W\/".+"$/);
      const again = await fetchFrom('/openapi.json', { headers: { 'If-None-Match': etag! } });
      assert.equal(again.status, 304);
      assert.equal(await again.text(), '');
      const head = await fetchFrom('/openapi.json', { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('etag'), etag);
      assert.equal(await head.text(), '');
    });

    it('GET /docs answers the page, and its script is served from /docs/ for good', async () => {
      const page = await fetchFrom('/docs');
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'.*connect-src 'self'/);
      const html = await page.text();
      assert.doesNotMatch(html, /https?:\/\//, 'the page names no other origin');
      const script = await fetchFrom(scriptOf(html));
      assert.equal(script.status, 200);
      assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
      assert.equal(script.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.ok((await script.arrayBuffer()).byteLength > 1_000_000, 'the renderer bundle');
      const revalidated = await fetchFrom('/docs', { headers: { 'If-None-Match': page.headers.get('etag')! } });
      assert.equal(revalidated.status, 304);
    });

    it('another script name is a 404 envelope, another method a 405, a query a 400', async () => {
      const missing = await suite.server.json('/docs/scalar-0000000000000000.js');
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.type, 'not_found');
      for (const path of ['/openapi.json', '/docs', '/docs/x.js']) {
        const refused = await suite.server.json(path, { method: 'DELETE' });
        assert.equal(refused.status, 405, path);
        assert.equal(refused.headers.get('allow'), 'GET, HEAD, OPTIONS');
        assert.equal(refused.body.error.type, 'method_not_allowed');
      }
      const query = await suite.server.json('/docs?theme=dark');
      assert.equal(query.status, 400);
      assert.equal(query.body.error.type, 'invalid_query');
      const preflight = await fetchFrom('/openapi.json', { method: 'OPTIONS', headers: { Origin: 'http://elsewhere.test', 'Access-Control-Request-Method': 'GET' } });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, HEAD, OPTIONS');
    });
  });

  describe(`LINEUP_DOCS=false (${engine.name})`, () => {
    const suite = serveForSuite(engine, { docs: false });

    it('/openapi.json and /docs are 404 envelopes, for every method', async () => {
      for (const path of ['/openapi.json', '/docs', '/docs/x.js']) {
        for (const method of ['GET', 'DELETE', 'OPTIONS']) {
          const res = await suite.server.json(path, { method });
          assert.equal(res.status, 404, `${method} ${path}`);
          assert.equal(res.body.error.type, 'not_found');
          assert.equal(res.headers.get('allow'), null);
        }
      }
      assert.equal((await suite.server.json('/v1/health')).status, 200);
    });
  });

  describe(`the reference is rate-limited like any request (${engine.name})`, () => {
    const suite = serveForSuite(engine, { rateBurst: 3, rateRefillPerSec: 0.001 });

    it('its answers spend the tokens, then it is refused with 429 and Retry-After', async () => {
      const statuses = [];
      for (const path of ['/openapi.json', '/docs', '/v1/health', '/docs', '/openapi.json']) {
        const res = await fetch(`${suite.server.base}${path}`);
        statuses.push(res.status);
        if (res.status === 429) {
          assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
          assert.equal(((await res.json()) as { error: { type: string } }).error.type, 'rate_limited');
        } else await res.arrayBuffer();
      }
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    });
  });
}

describe('LINEUP_DOCS', () => {
  it('is on by default, turned off by false, and anything else stops the start', () => {
    assert.equal(loadConfig({}).docs, true);
    assert.equal(loadConfig({ LINEUP_DOCS: 'false' }).docs, false);
    assert.equal(loadConfig({ LINEUP_DOCS: 'true' }).docs, true);
    assert.throws(() => loadConfig({ LINEUP_DOCS: 'maybe' }), (err: unknown) => err instanceof ConfigError && err.variable === 'LINEUP_DOCS');
  });
});
