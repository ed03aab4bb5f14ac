/**
 * Bounded error bodies: no request of at most 4,096 bytes gets an error body above
 * 6 KiB. The query stops being read past the parameter limit, and error.details lists at most
 * 10 problems plus one summary entry. Worst shapes on every route: thousands of malformed
 * segments, 32 or more unknown names that JSON must escape, long invalid values of every
 * parameter, each repeated.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATIONS } from '../../src/http/openapi.js';
const MAX_DETAILS = 10; // problems listed before the summary entry
import { engines, serveForSuite } from '../helper.js';
import { assertErrorBody, rawRequest } from '../fuzz/support.js';

const MAX_ERROR_BODY = 6144; // the worst shape measured: 4,129 bytes (32 unknown names of escaped characters on /v1/events)
const MAX_TARGET = 4000; // request line target: the request stays under 4,096 bytes with its headers

/** Repeats `unit` (joined by `sep`) while the target stays under MAX_TARGET bytes. */
function fill(prefix: string, unit: (i: number) => string, sep = '&'): string {
  let out = prefix;
  for (let i = 0; ; i++) {
    const next = `${out}${i === 0 ? '' : sep}${unit(i)}`;
    if (Buffer.byteLength(next) > MAX_TARGET) return out;
    out = next;
  }
}

const control = '%01%02%1F%22%5C'; // \u0001 \u0002 \u001f " \ : escaped by JSON (6, 6, 6, 2, 2 bytes)

function worstShapes(path: string, names: readonly string[]): Record<string, string> {
  const base = `${path}?`;
  const shapes: Record<string, string> = {
    'malformed segments %&%&…': fill(base, () => '%'),
    'malformed names %zz=1&…': fill(base, (i) => `%zz${i}=1`),
    'malformed values x=%&…': fill(base, (i) => `x${i}=%`),
    'NUL names': fill(base, (i) => `%00${i}=1`),
    '32 unknown names of JSON-escaped characters': base + Array.from({ length: 32 }, (_, i) => `${control.repeat(4)}${i}=1`).join('&'),
    '32 long unknown names': base + Array.from({ length: 32 }, (_, i) => `${'%22'.repeat(30)}${i}=1`).join('&'),
    '33 unknown names': base + Array.from({ length: 33 }, (_, i) => `${'%5C'.repeat(30)}${i}=1`).join('&'),
    'many empty names': fill(base, () => '=1'),
    'dotted names': fill(base, (i) => `${'a.'.repeat(20)}${i}=1`),
  };
  for (const name of names) {
    shapes[`${name} repeated, long invalid values`] = fill(base, () => `${name}=${control.repeat(40)}`);
    shapes[`${name} once, as long as fits`] = fill(`${base}${name}=`, () => `${control}${'%22'.repeat(3)}`, '');
    shapes[`${name} with a long invalid CSV`] = fill(`${base}${name}=`, (i) => `${control}${i}`, ',');
  }
  // every name of the route once with a long invalid value, then unknown names up to the limit
  shapes['every parameter invalid'] = fill(base + names.map((n) => `${n}=${control.repeat(6)}`).join('&'), (i) => `${control.repeat(8)}${i}=1`);
  return shapes;
}

for (const engine of engines()) {
  describe(`error bodies stay small on ${engine.name}`, { timeout: 600_000 /* stops a hung run only */ }, () => {
    const suite = serveForSuite(engine);

    it(`every route, the worst shapes of a request under 4,096 bytes: an error body of at most ${MAX_ERROR_BODY} bytes`, async () => {
      let largest = { bytes: 0, what: '' };
      for (const op of OPERATIONS) {
        const path = op.path.replace(/:(\w+)/g, 'AAAAAAAAAAAA');
        const names = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
        for (const [shape, target] of Object.entries(worstShapes(path, names))) {
          assert.ok(Buffer.byteLength(target) <= MAX_TARGET, `${shape}: ${Buffer.byteLength(target)} bytes`);
          const res = await rawRequest(suite.server.base, 'GET', target);
          const what = `${op.path} ${shape}`;
          assert.ok(res.status === 400 || res.status === 414, `${what}: ${res.status} ${res.text.slice(0, 200)}`);
          assertErrorBody(res, what);
          assert.ok(res.body.length <= MAX_ERROR_BODY, `${what}: a ${res.body.length}-byte error body`);
          const details = JSON.parse(res.text).error.details ?? [];
          assert.ok(details.length <= MAX_DETAILS + 1, `${what}: ${details.length} details`);
          if (res.body.length > largest.bytes) largest = { bytes: res.body.length, what };
        }
      }
      console.log(`largest error body on ${engine.name}: ${largest.bytes} bytes (${largest.what})`);
    });

    it('a query past the parameter limit is refused for the limit, and the rest of it is not read', async () => {
      const res = await rawRequest(suite.server.base, 'GET', `/v1/events?${Array.from({ length: 40 }, (_, i) => `x${i}=%`).join('&')}`);
      assert.equal(res.status, 400);
      const { details } = JSON.parse(res.text).error;
      assert.deepEqual(details[0], { parameter: '*', message: 'at most 32 query parameters are accepted' });
      // the 32 segments that were read are malformed: 10 listed, then one summary of the other 22
      assert.equal(details.length, MAX_DETAILS + 1);
      assert.deepEqual(details.at(-1), { parameter: '*', message: '23 more problems not listed' });
    });
  });
}
