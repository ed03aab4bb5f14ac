/**
 * Shared checks of the resource-read suites: one database per file with the resources
 * fixture, bytewise ordering for reference models, complete traversals, conditional reads and
 * the 404 rules.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { importCatalogue } from '../../src/catalogue/importer.js';
import type { Database } from '../../src/db/database.js';
import { ErrorEnvelope } from '../../src/contract/common.js';
import { resourcesCatalogue } from '../fixtures/resources.js';
import { after, before } from 'node:test';
import { openTestDatabase, startServer, type EngineUnderTest, type TestDatabase, type TestServer } from '../helper.js';

export async function loadResources(db: Database): Promise<void> {
  await importCatalogue(db, Readable.from([JSON.stringify(resourcesCatalogue)]));
}

/** Bytewise (UTF-8) comparison: the API's order for names and publicIds. */
export const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** Orders by successive keys, bytewise. */
export function byKeys<T>(...keys: ((item: T) => string)[]) {
  return (a: T, b: T) => {
    for (const key of keys) {
      const c = bytewise(key(a), key(b));
      if (c !== 0) return c;
    }
    return 0;
  };
}

export function assertSchema(schema: TSchema, body: unknown, what: string): void {
  if (!Value.Check(schema, body)) {
    const first = [...Value.Errors(schema, body)].slice(0, 3).map((e) => `${e.path}: ${e.message}`);
    assert.fail(`${what}: response does not match its schema: ${first.join('; ')}`);
  }
}

/** Follows links.next to the end; checks each page against the schema and the statement budget. */
export async function traverse(srv: TestServer, path: string, schema: TSchema): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let next: string | null = path;
  let pages = 0;
  while (next !== null) {
    srv.statements.length = 0;
    const res = await srv.json(next);
    assert.equal(res.status, 200, `${next}: ${JSON.stringify(res.body)}`);
    assertSchema(schema, res.body, next);
    assert.ok(srv.statements.length <= 8);
    assert.equal(res.body.meta.pagination.hasMore, res.body.links.next !== null);
    items.push(...res.body.data);
    next = res.body.links.next;
    pages++;
    assert.ok(pages < 100, 'traversal does not end');
  }
  return { items, pages };
}

/** 200 with ETag and cache policy; 304 on If-None-Match (weak, strong, list, *); HEAD alike. */
export async function assertConditional(srv: TestServer, path: string): Promise<void> {
  const first = await srv.get(path);
  assert.equal(first.status, 200);
  const etag = first.headers.get('etag');
  assert.match(etag ?? '', /^W\/"[^"]+"$/);
  assert.equal(first.headers.get('cache-control'), 'public, max-age=60');
  await first.text();
  for (const tag of [etag as string, (etag as string).slice(2), `"other", ${etag}`, '*']) {
    const res = await srv.get(path, { headers: { 'If-None-Match': tag } });
    assert.equal(res.status, 304, `If-None-Match: ${tag}`);
    assert.equal(res.headers.get('etag'), etag);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=60');
    assert.equal(await res.text(), '');
  }
  const stale = await srv.get(path, { headers: { 'If-None-Match': 'W/"stale"' } });
  assert.equal(stale.status, 200);
  await stale.text();
  const head = await srv.get(path, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('etag'), etag);
  assert.equal(await head.text(), '');
  const headMatch = await srv.get(path, { method: 'HEAD', headers: { 'If-None-Match': etag as string } });
  assert.equal(headMatch.status, 304);
}

/** 404 not_found, no-store, no validator — also for conditional requests and HEAD. */
export async function assertNotFound(srv: TestServer, path: string, expectReads = true): Promise<void> {
  for (const init of [{}, { headers: { 'If-None-Match': '*' } }]) {
    srv.statements.length = 0;
    const res = await srv.json(path, init);
    assert.equal(res.status, 404, `${path}: ${JSON.stringify(res.body)}`);
    assertSchema(ErrorEnvelope, res.body, path);
    assert.equal(res.body.error.type, 'not_found');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('etag'), null);
    if (!expectReads) assert.equal(srv.statements.length, 0, `${path} must not read the database`);
  }
  const head = await srv.get(path, { method: 'HEAD' });
  assert.equal(head.status, 404);
  await head.text();
}

export async function assertInvalid(srv: TestServer, path: string, parameter?: string): Promise<any> {
  srv.statements.length = 0;
  const res = await srv.json(path);
  assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
  assertSchema(ErrorEnvelope, res.body, path);
  assert.equal(res.body.error.type, 'invalid_query');
  assert.equal(res.headers.get('cache-control'), 'no-store');
  if (parameter !== undefined) assert.ok(res.body.error.details.some((d: any) => d.parameter === parameter), JSON.stringify(res.body));
  return res.body;
}

/** The 400 of a compact boundary whose member changed: restart without a cursor. */
export async function assertRestart(srv: TestServer, next: string): Promise<void> {
  const body = await assertInvalid(srv, next, 'cursor');
  assert.match(JSON.stringify(body), /restart the traversal without a cursor/i);
}

export const keysOf = (item: object) => Object.keys(item);

/**
 * One database per engine with the resources fixture and a server over it, opened before the
 * suite's tests and closed after them. Use inside a describe: `const t = resourceServer(engine)`.
 */
export function resourceServer(engine: EngineUnderTest): { readonly tdb: TestDatabase; readonly srv: TestServer } {
  const handle = {} as { tdb: TestDatabase; srv: TestServer };
  before(async () => {
    handle.tdb = await openTestDatabase(engine);
    await loadResources(handle.tdb.db);
    handle.srv = await startServer(handle.tdb.db);
  });
  after(async () => {
    await handle.srv?.close();
    await handle.tdb?.drop();
  });
  return handle;
}
