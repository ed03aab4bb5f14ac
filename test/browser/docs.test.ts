/**
 * The interactive reference in a real browser (headless Chromium, as test/browser/cors.test.ts):
 * GET /docs renders every operation of openapi.json; its "try it" console, driven by clicks,
 * calls GET /v1/events on the same server and gets a 200; and no request of the page (its
 * script, the document, the call) leaves the server's origin, nor does the page's CSP refuse one.
 * Skipped, with the reason, only when no Chromium executable exists.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { engines, openTestDatabase, startServer, type TestDatabase, type TestServer } from '../helper.js';
import { importDoc } from '../fixtures/events-setup.js';
import { resourcesCatalogue } from '../fixtures/resources.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `Chromium is not installed at ${CHROMIUM} (.ci/run installs Debian's chromium; set CHROMIUM_PATH otherwise)`;
const engine = engines()[0]!;

/** Every operation of the committed document, as `METHOD /path/{param}`. */
function documentedOperations(): string[] {
  const doc = JSON.parse(readFileSync('openapi.json', 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
}

/** The operations the page links to (its navigation: `#tag/<tag>/<METHOD>/<path>`), each once. */
async function renderedOperations(page: Page): Promise<string[]> {
  const hrefs = await page.$$eval('a[href^="#tag/"]', (links) => links.map((a) => a.getAttribute('href') ?? ''));
  const operations = hrefs.map((h) => /^#tag\/[^/]+\/(GET|HEAD|OPTIONS)(\/.*)$/.exec(h)).filter((m) => m !== null);
  return [...new Set(operations.map((m) => `${m[1]} ${m[2]}`))];
}

describe('the /docs page in a browser', { skip, timeout: 600_000 /* stops a hung browser only */ }, () => {
  let t: TestDatabase;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  const refusals: string[] = [];

  before(async () => {
    t = await openTestDatabase(engine);
    await importDoc(t.db, resourcesCatalogue);
    server = await startServer(t.db);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // every request of the page, its frames and workers, whatever answers it
    context.on('request', (request) => requested.push(request.url()));
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refusals.push(message.text());
    });
    page.on('pageerror', (err) => refusals.push(`page error: ${err.message}`));
    await page.goto(`${server.base}/docs`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await t?.drop();
  });

  it('lists every operation of openapi.json', async () => {
    const expected = documentedOperations().sort();
    assert.equal(expected.length, 66);
    // (a page expression: `document` is the page's)
    const linked = `new Set([...document.querySelectorAll('a[href^="#tag/"]')].map((a) => a.getAttribute('href'))).size`;
    await page.waitForFunction(`${linked} >= ${expected.length}`, undefined, { timeout: 60_000 });
    assert.deepEqual((await renderedOperations(page)).sort(), expected);
  });

  it('its "try it" console calls GET /v1/events on the same server and gets a 200', async () => {
    await page.click('a[href="#tag/events/GET/v1/events"]');
    await page.locator('button').filter({ hasText: /Test Request\s*\(get \/v1\/events\)$/ }).first().click();
    const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/v1/events', { timeout: 60_000 });
    await page.getByRole('button', { name: /^Send/ }).first().click();
    const res = await answered;
    assert.equal(new URL(res.url()).origin, server.base);
    assert.equal(res.request().method(), 'GET');
    assert.equal(res.status(), 200);
    const body = (await res.json()) as { ok: boolean; data: unknown[] };
    assert.equal(body.ok, true);
    assert.ok(body.data.length > 0);
  });

  it('no request leaves the origin, and the page refused none', async () => {
    assert.ok(requested.length >= 4, `the page, its script, the document and the call: ${requested.join(', ')}`);
    for (const url of requested) assert.equal(new URL(url).origin, server.base, url);
    const paths = requested.map((url) => new URL(url).pathname);
    assert.deepEqual(paths.slice(0, 3), ['/docs', paths[1], '/openapi.json']);
    assert.match(paths[1]!, /^\/docs\/scalar-[0-9a-f]{16}\.js$/);
    assert.deepEqual(refusals, []);
  });
});
