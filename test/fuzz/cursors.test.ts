/**
 * A cursor is untrusted input: its checksum is not a secret, so a client can seal a
 * cursor with any key values for the right controls. On every list route, cursors harvested from
 * real pages are re-sealed with hostile keys (NUL, lone surrogates, 5,000-character strings,
 * empty strings, wrong types, huge and fractional numbers, impossible dates and instants, arrays
 * and objects, wrong arity, malformed compact boundaries): never a 5xx, and every key that is
 * not a value of its kind is a 400 invalid_query asking to restart without a cursor.
 *
 * Then fast-check mixes hostile and real key values: LINEUP_FUZZ_RUNS requests per route (default
 * 300; a count, not a time, so that a slow machine makes the same requests).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { OPERATIONS } from '../../src/http/openapi.js';
import { controlsFingerprint, openCursor, sealCursor } from '../../src/controls/cursor.js';
import { engines, openTestDatabase, startServer, type TestDatabase, type TestServer } from '../helper.js';
import { CURSOR_SOURCES, assertContractResponse, importCanaryCatalogue, rawRequest } from './support.js';

const FUZZ_RUNS = Number(process.env.LINEUP_FUZZ_RUNS ?? 300);

/** Values no cursor key of any kind may carry: each is a 400 wherever it stands. */
const NEVER_A_KEY: readonly unknown[] = [
  '\u0000', 'Caf\u0000', 'a'.repeat(20) + '\u0000', '\uD800', 'x\uDC00', '\uDBFF\uDBFF', 'x'.repeat(5000), 'x'.repeat(1200), 'x'.repeat(1025),
  1.5, -1, 2, 1e308, -1e308, 2 ** 53 + 2, 0.1, -0.5, true, false, [], {}, ['a'], { a: 1 }, [null], [[0]],
];
/** Values of some kind that are not of another: a 400 or a page, never a 5xx. */
const WRONG_KIND: readonly unknown[] = [
  '', ' ', 'a', '0', '1', '1e0', '0x1', ' 1', 'NaN', 'Infinity', '-infinity', 'infinity', 'EvFete000001', 'EvFete00000%', 'evfete000001',
  '2025-02-29', '2024-02-29', '2025-13-01', '0000-01-01', '9999-12-31', '10000-01-01', '2025-07-01T10:00:00Z',
  '2025-07-01 10:00:00+00', '2025-07-01 10:00:00.5+00', '2025-07-01 10:00:00.500000+00', '2025-07-01 24:00:00+00', '2025-02-30 10:00:00+00',
  '2025-07-01 10:00:00.1234567+00', '2025-07-01 10:00:00+02', '2025-07-01 10:00:60+00', 'x'.repeat(1024), 0, 1, null, -0, 1e21, '💥',
];

/** Sealed exactly as the server seals: [version, fingerprint, position]. */
const reseal = (fingerprint: unknown, position: unknown) => encodeURIComponent(sealCursor([1, fingerprint, position]));

interface Harvested {
  readonly route: string;
  readonly path: string;
  readonly fingerprint: unknown;
  readonly keys: unknown[];
}

for (const engine of engines()) {
  describe(`re-sealed hostile cursors on every list route on ${engine.name}`, { timeout: 900_000 } /* stops a hung run only */, () => {
    let t: TestDatabase;
    let server: TestServer;
    const harvested: Harvested[] = [];
    let total = 0;

    before(async () => {
      t = await openTestDatabase(engine);
      await importCanaryCatalogue(t.db);
      server = await startServer(t.db);
      for (const [route, source] of Object.entries(CURSOR_SOURCES)) {
        const res = await rawRequest(server.base, 'GET', source);
        assert.equal(res.status, 200, `${source}: ${res.text.slice(0, 200)}`);
        const next: string | null = JSON.parse(res.text).links.next;
        const url = new URL(next ?? source, server.base);
        if (next === null) {
          // a one-page list: its fingerprint is computed as the server does (checked below on
          // the lists that have a next page) and its keys are of the name order's kinds
          harvested.push({ route, path: source, fingerprint: controlsFingerprint(url.pathname, 'limit=1'), keys: ['M', 'AAAAAAAAAAAA'] });
          continue;
        }
        const { fingerprint, position } = openCursor(url.searchParams.get('cursor')!);
        assert.ok(Array.isArray(position), `${source}: an ordinary cursor`);
        assert.equal(fingerprint, controlsFingerprint(url.pathname, 'limit=1'), `${source}: the fingerprint of limit=1`);
        url.searchParams.delete('cursor');
        harvested.push({ route, path: `${url.pathname}${url.search}`, fingerprint, keys: position as unknown[] });
      }
      assert.equal(harvested.length, Object.keys(CURSOR_SOURCES).length);
    });
    after(async () => {
      await server.close();
      await t.drop();
      console.log(`re-sealed cursors on ${engine.name}: ${total} requests`);
    });

    async function send(h: Harvested, position: unknown, what: string) {
      const sep = h.path.includes('?') ? '&' : '?';
      const target = `${h.path}${sep}cursor=${reseal(h.fingerprint, position)}`;
      const res = await rawRequest(server.base, 'GET', target);
      total++;
      const op = OPERATIONS.find((o) => o.path === h.route)!;
      assertContractResponse(res, 'GET', `${what} on ${h.route}`, op.response);
      return res;
    }

    const assertRestart = (res: { status: number; text: string }, what: string) => {
      if (res.status === 414) return; // a 5,000-character key makes the URL itself too long
      assert.equal(res.status, 400, `${what}: ${res.text.slice(0, 300)}`);
      const body = JSON.parse(res.text);
      assert.equal(body.error.type, 'invalid_query', what);
      assert.ok(body.error.details.some((d: { parameter: string; message: string }) => d.parameter === 'cursor' && /Restart the traversal without a cursor/.test(d.message)), what);
    };

    it('the re-sealed real keys are accepted (the harness seals as the server does)', async () => {
      for (const h of harvested) {
        const res = await send(h, h.keys, 'the real keys');
        assert.equal(res.status, 200, `${h.route}: ${res.text.slice(0, 200)}`);
      }
    });

    it('a value no key may hold, at every key position of every list route, is a 400 asking to restart', async () => {
      for (const h of harvested) {
        for (let i = 0; i < h.keys.length; i++) {
          for (const value of NEVER_A_KEY) {
            const keys = h.keys.map((k, j) => (j === i ? value : k));
            assertRestart(await send(h, keys, `key ${i} = ${JSON.stringify(value).slice(0, 40)}`), `${h.route} key ${i} = ${JSON.stringify(value).slice(0, 40)}`);
          }
        }
      }
    });

    it('values of other kinds at every key position are a 400 or a page, never a 5xx', async () => {
      for (const h of harvested) {
        for (let i = 0; i < h.keys.length; i++) {
          for (const value of WRONG_KIND) await send(h, h.keys.map((k, j) => (j === i ? value : k)), `key ${i} = ${JSON.stringify(value).slice(0, 40)}`);
        }
      }
    });

    it('wrong shapes: arity, non-arrays, malformed compact boundaries', async () => {
      const shapes: unknown[] = [
        null, 0, 'x', true, [], {}, { c: [] }, { c: ['EvFete000001'] }, { c: ['\u0000'], h: 'a'.repeat(43) }, { c: [1], h: 'a'.repeat(43) },
        { c: ['EvFete000001'], h: '\u0000'.repeat(43) }, { c: 'EvFete000001', h: 'a'.repeat(43) }, { c: ['EvFete000001', 'EvFete000002', 'EvFete000003'], h: 'a'.repeat(43) },
      ];
      for (const h of harvested) {
        for (const shape of [...shapes, [...h.keys, 'extra'], h.keys.slice(1), [h.keys]]) {
          assertRestart(await send(h, shape, `position ${JSON.stringify(shape).slice(0, 60)}`), `${h.route}: ${JSON.stringify(shape).slice(0, 60)}`);
        }
      }
    });

    it(`random mixes of hostile and real keys (${FUZZ_RUNS} requests per route)`, async () => {
      const anyValue = fc.oneof(
        fc.constantFrom(...NEVER_A_KEY, ...WRONG_KIND),
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.double(),
        fc.integer(),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString().replace('T', ' ').replace('Z', '+00')),
        fc.jsonValue({ maxDepth: 2 }),
      );
      for (const h of harvested) {
        let runs = 0;
        const position = fc.oneof(
          fc.tuple(...h.keys.map((k) => fc.oneof({ weight: 1, arbitrary: fc.constant(k) }, { weight: 2, arbitrary: anyValue }))),
          fc.array(anyValue, { maxLength: 6 }),
        );
        await fc.assert(
          fc.asyncProperty(position, async (p) => {
            runs++;
            await send(h, p, `position ${JSON.stringify(p).slice(0, 200)}`);
          }),
          { numRuns: FUZZ_RUNS },
        );
        assert.equal(runs, FUZZ_RUNS, h.route);
      }
    });
  });
}
