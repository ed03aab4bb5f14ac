/**
 * The contract itself: openapi.json is what `lineup openapi` prints (generated from the TypeBox
 * schemas), it has exactly the 19 GET operations of decisions §2 and the 3 calendar feeds of
 * decisions §8 (extension), with HEAD and OPTIONS on all 22 paths, every status of the Errors table with its body and headers, inline schemas,
 * no servers; it lints clean with Redocly's recommended ruleset (redocly.yaml); every schema
 * compiles under ajv strict; the committed client types are generated from it; and the
 * response validator that test/helper.ts applies to every HTTP response rejects what it must.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openApiDocument } from '../../src/http/openapi.js';
import { RESOURCE_PATHS, OPERATIONAL_PATHS } from '../../src/http/routes/known-paths.js';
import { checkExchange, ContractViolation } from './validate.js';

const committed = JSON.parse(readFileSync('openapi.json', 'utf8'));
const templated = (p: string) => p.replace(/:([A-Za-z]+)/g, '{$1}');

describe('the OpenAPI contract (openapi.json)', () => {
  it('is exactly what `lineup openapi` prints (regenerate: npm run openapi)', () => {
    assert.deepEqual(committed, JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('OpenAPI 3.1.0, contract version 1.0.0, no servers, anonymous', () => {
    assert.equal(committed.openapi, '3.1.0');
    assert.equal(committed.info.version, '1.0.0');
    assert.equal(committed.servers, undefined);
    assert.deepEqual(committed.security, []);
    assert.ok(!JSON.stringify(committed).includes('"$ref"'), 'schemas are inline per operation');
    assert.equal(committed.components, undefined);
  });

  it('has exactly the 19 GET operations of decisions §2 and the 3 calendar feeds (§8), HEAD and OPTIONS on all 22 paths', () => {
    const paths = Object.keys(committed.paths).sort();
    assert.deepEqual(paths, [...RESOURCE_PATHS, ...OPERATIONAL_PATHS].map(templated).sort());
    const methods = (m: string) => paths.filter((p) => committed.paths[p][m] !== undefined);
    assert.equal(methods('get').length, 19 + 3);
    assert.deepEqual(paths.filter((p) => p.endsWith('/calendar.ics')), ['/v1/artists/{artistId}/calendar.ics', '/v1/series/{seriesId}/calendar.ics', '/v1/venues/{venueId}/calendar.ics']);
    // operational routes too: they answer HEAD and the preflight like resource routes
    assert.deepEqual(methods('head'), paths);
    assert.deepEqual(methods('options'), paths);
    for (const p of paths) {
      for (const m of ['put', 'post', 'delete', 'patch', 'trace']) assert.equal(committed.paths[p][m], undefined);
    }
    const ids = paths.flatMap((p) => Object.values(committed.paths[p]).map((op: any) => op.operationId));
    assert.equal(new Set(ids).size, ids.length);
  });

  it('documents every status of the Errors table with its body and headers', () => {
    for (const [path, item] of Object.entries<any>(committed.paths)) {
      const resource = !path.endsWith('/health') && !path.endsWith('/ready');
      for (const [method, op] of Object.entries<any>(item)) {
        const statuses = Object.keys(op.responses).sort();
        const expected =
          method === 'options' ? ['204', '414', '429', '500', '503'] : resource ? ['200', '304', '400', '404', '405', '414', '429', '500', '503'] : ['200', '400', '405', '414', '429', '500', '503'];
        assert.deepEqual(statuses, expected, `${method} ${path}`);
        for (const [status, res] of Object.entries<any>(op.responses)) {
          const where = `${method} ${path} ${status}`;
          assert.ok(res.headers['X-Request-ID']?.required, `${where}: X-Request-ID`);
          assert.ok(res.headers['Cache-Control'], `${where}: Cache-Control`);
          const error = Number(status) >= 400;
          if (error) assert.equal(res.headers['Cache-Control'].schema.const, 'no-store', where);
          if (status === '429' || status === '503') assert.ok(res.headers['Retry-After']?.required, `${where}: Retry-After`);
          if (status === '405') assert.ok(res.headers.Allow?.required, `${where}: Allow`);
          if (resource && (status === '200' || status === '304') && method !== 'options') assert.ok(res.headers.ETag?.required, `${where}: ETag`);
          const hasBody = res.content !== undefined;
          const bodied = method === 'get' ? status !== '304' : method === 'options' && error;
          assert.equal(hasBody, bodied, `${where}: a body is documented exactly where one is sent`);
        }
        if (method !== 'options') {
          for (const p of op.parameters) if (p.in === 'query') assert.ok(p.schema && p.description, `${method} ${path} ${p.name}`);
        }
      }
    }
    const limit = committed.paths['/v1/events'].get.parameters.find((p: any) => p.name === 'limit');
    assert.deepEqual({ min: limit.schema.minimum, max: limit.schema.maximum, def: limit.schema.default }, { min: 1, max: 50, def: 20 });
  });

  it('every schema compiles under ajv strict (JSON Schema 2020-12)', () => {
    const ajv = new Ajv2020({ strict: true });
    let n = 0;
    for (const item of Object.values<any>(committed.paths)) {
      for (const op of Object.values<any>(item)) {
        for (const p of op.parameters ?? []) (ajv.compile(p.schema), n++);
        for (const res of Object.values<any>(op.responses)) {
          for (const h of Object.values<any>(res.headers ?? {})) (ajv.compile(h.schema), n++);
          for (const media of Object.values<any>(res.content ?? {})) (ajv.compile(media.schema), n++);
        }
      }
    }
    assert.ok(n > 500);
  });

  it('lints clean with Redocly (recommended ruleset, redocly.yaml)', () => {
    const lint = spawnSync(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', 'openapi.json', '--format', 'json'], { encoding: 'utf8' });
    assert.equal(lint.status, 0, lint.stderr.slice(-2000));
    const report = JSON.parse(lint.stdout);
    assert.deepEqual(report.problems, [], JSON.stringify(report.problems.slice(0, 5), null, 2));
  });

  it('the committed client types are generated from it (regenerate: npm run client:types)', async () => {
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    const generated = astToString(await openapiTS(committed));
    const file = readFileSync('src/client/schema.ts', 'utf8');
    assert.ok(file.endsWith(generated), 'src/client/schema.ts is stale: run npm run client:types');
  });
});

describe('the response validator (test/contract/validate.ts)', () => {
  const ok = { ok: true, data: [], meta: { pagination: { limit: 20, hasMore: false } }, links: { next: null } };
  const headers = (extra: Record<string, string> = {}) =>
    new Headers({
      'X-Request-ID': 'r1',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'ETag, Retry-After, Age, X-Request-ID',
      'Cache-Control': 'public, max-age=60',
      ETag: 'W/"abc"',
      ...extra,
    });
  const x = (over: Partial<Parameters<typeof checkExchange>[0]>) => () =>
    checkExchange({ method: 'GET', url: '/v1/events?limit=20', status: 200, headers: headers(), text: JSON.stringify(ok), ...over });

  it('accepts a conforming response', () => {
    x({})();
    x({ method: 'HEAD', text: '' })();
    x({ url: '/v1/series/abc/editions/def/venues' })();
  });

  it('rejects undocumented statuses, wrong bodies and missing or wrong headers', () => {
    assert.throws(x({ status: 201 }), ContractViolation);
    assert.throws(x({ text: JSON.stringify({ ...ok, extra: 1 }) }), /must NOT have additional properties/);
    assert.throws(x({ text: JSON.stringify({ ...ok, data: [{ publicId: 'short' }] }) }), /publicId/);
    assert.throws(x({ headers: headers({ 'Cache-Control': 'no-store' }) }), /Cache-Control/);
    assert.throws(x({ method: 'HEAD' }), /expected no body/);
    assert.throws(x({ status: 429, text: JSON.stringify({ ok: false, error: { type: 'rate_limited', message: 'x' } }), headers: headers({ 'Cache-Control': 'no-store' }) }), /missing header Retry-After/);
    assert.throws(x({ url: '/nope', status: 200 }), /undocumented path/);
  });
});
