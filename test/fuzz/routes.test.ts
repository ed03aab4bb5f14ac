/**
 * Fuzzing: every route (all 19 operations) with every method, random and adversarial
 * query strings and path ids, sent raw so that `%zz`, `%`, `%00`, overlong UTF-8 (`%C0%AF`),
 * lone surrogates and random bytes reach the server unmodified. Every answer must be the error
 * envelope or a success that validates against the operation's schema; never a 500 (nor any 5xx
 * but admission's 503), never a canary, never internals.
 *
 * Bounded in count, not in time (a slow machine makes the same requests, only later):
 * LINEUP_FUZZ_RUNS requests per route (default 300), sequential (one admitted database read at a
 * time). fast-check prints the seed and the shrunk request of a
 * failure; replay it with LINEUP_FUZZ_SEED.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';
import { OPERATIONS, type OperationSpec } from '../../src/http/openapi.js';
import { engines, openTestDatabase, startServer, type TestDatabase, type TestServer } from '../helper.js';
import { ARTISTS, EDITIONS, IDS, SERIES, VENUES } from '../fixtures/events-catalogue.js';
import { CURSOR_SOURCES, assertContractResponse, assertErrorBody, importCanaryCatalogue, rawRequest } from './support.js';

const FUZZ_RUNS = Number(process.env.LINEUP_FUZZ_RUNS ?? 300);
const SEED = process.env.LINEUP_FUZZ_SEED === undefined ? undefined : Number(process.env.LINEUP_FUZZ_SEED);

// ---------------------------------------------------------------------------------------------
// Encoding: bytes → percent-encoding, keeping a few sub-delimiters raw (they are legal in a URL)

const RAW_OK = /[A-Za-z0-9\-._~!$'()*:@]/;
function encodeBytes(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    const ch = String.fromCharCode(b);
    out += b < 0x80 && RAW_OK.test(ch) ? ch : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
/** Any JS string (lone surrogates become U+FFFD on the way to UTF-8). */
const encodeText = (s: string) => encodeBytes(Buffer.from(s, 'utf8'));
/** Like encodeText, but `%` itself stays raw sometimes: produces broken escapes too. */
const looseText = (s: string) => encodeText(s).replace(/%25/g, '%');

// ---------------------------------------------------------------------------------------------
// Adversarial building blocks

const BROKEN_ESCAPES = ['%zz', '%', '%0', '%%', '%g0', '%00', '%C0%AF', '%C0%80', '%E0%80%AF', '%F0%80%80%AF', '%ED%A0%80', '%ED%BF%BF', '%F4%90%80%80', '%FF', '%FE%FF', '%C3', '%E2%82', '%80', '%EF%BB%BF'];
const NUMBERS = [
  '0', '-0', '-1', '1', '20', '50', '51', '1e1', '1E1', '5e0', '1e400', '-1e400', '0x10', '0b1', '0o7', '1.0', '1.5', '.5', '+1', '01', '050', '00000000001',
  'NaN', 'Infinity', '-Infinity', '9007199254740993', '99999999999999999999999999999', '-99999999999999999999', '9'.repeat(400), '%D9%A1', '%EF%BC%91', '1_0', '1,0',
];
const WHITESPACE = ['%20', '+', '%09', '%0A', '%0D%0A', '%C2%A0', '%E2%80%8B', '%E3%80%80', '%0B', '%0C', '%20%20', '+x+', '%20name%20', 'name%20', '%09name'];
const INSTANTS = [
  '2025-07-01T10:30:00Z', '2025-07-01T10:30:00.123456Z', '2025-07-01T10:30:00.1234567Z', '2025-07-01T10:30Z', '2025-07-01T10:30:00%2B02:00', '2025-07-01T10:30:00+02:00',
  '2025-07-01%2010:30:00Z', '2025-07-01T24:00:00Z', '2025-02-29T00:00:00Z', '2024-02-29T23:59:60Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999999Z', '+002025-07-01T00:00:00Z', '2025-07-01t10:30:00z', '2025-07-01T10:30:00.Z',
];
const DATES = ['2025-07-01', '2024-02-29', '2025-02-29', '0001-01-01', '0000-12-31', '9999-12-31', '10000-01-01', '2025-7-1', '2025-13-01', '2025-00-10', '2025-07-32', '20250701', '2025/07/01', '-2025-07-01'];
const CURSOR_LIKE = ['a'.repeat(1024), 'a'.repeat(1025), 'A'.repeat(4000), '_'.repeat(1024), '-', '=', 'e30', 'eyJ9', 'null', 'undefined', '[]', '{}', '%7B%7D', '..%2F..%2F'];
const UNKNOWN_NAMES = [
  'LIMIT', 'Limit', 'Fields', 'FIELDS', 'fIeLdS', 'Cursor', 'SORT', 'NameContains', 'namecontains', 'Include', 'fields.name', 'fields[]', 'fields[0]', 'data.name', 'a.b', 'x',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'limit%00', 'limit%20', '%20limit', '', 'cursor%2E', 'x'.repeat(300), 'offset', 'page', 'q', 'callback', 'format', 'debug',
];

const rawBytes = (max: number) => fc.uint8Array({ minLength: 1, maxLength: max }).map(encodeBytes);
const anyText = (max: number) => fc.string({ unit: 'binary', maxLength: max }).map(encodeText);
const looseAnyText = (max: number) => fc.string({ unit: 'binary', maxLength: max }).map(looseText);
const base64url = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: min, maxLength: max });

// ---------------------------------------------------------------------------------------------
// What each operation accepts, read from its contract parameters

type Schemaish = TSchema & { anyOf?: { const?: string }[]; pattern?: string; description?: string };

const PATH_IDS: Record<string, readonly string[]> = {
  eventId: [IDS.allFields, IDS.sevenArtists, IDS.fiveEligibleArtists, 'EvFest25Day2', 'EvJazz000003', IDS.pendingMedia, IDS.inactive, IDS.tbaOnly],
  artistId: Object.values(ARTISTS),
  venueId: Object.values(VENUES),
  seriesId: [SERIES.editioned, SERIES.editioned, SERIES.direct, SERIES.directInactive, SERIES.editionedInactive, SERIES.directEmpty],
  editionId: Object.values(EDITIONS),
};
const ALL_IDS = Object.values(PATH_IDS).flat();

function pathIdArb(name: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 14, arbitrary: fc.constantFrom(...(PATH_IDS[name] ?? ALL_IDS)) },
    { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'), minLength: 12, maxLength: 12 }) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        ...BROKEN_ESCAPES, '..', '.', '%2e%2e', '%2F', '%5C', '%3F', '%23', ';', '%3B', '~', '+', '*', '$', '@', ':', '%20',
        'EvFete000001%00', 'EvFete00000', 'EvFete0000011', 'evfete000001', 'EVFETE000001', '%45vFete000001', 'EvFete000001;x=1', 'a'.repeat(500), 'a'.repeat(501), 'a'.repeat(2000),
      ),
    },
    { weight: 2, arbitrary: anyText(40).filter((s) => s.length > 0) },
    { weight: 1, arbitrary: rawBytes(30) },
    { weight: 1, arbitrary: looseAnyText(20).filter((s) => s.length > 0 && !s.includes('/')) },
  );
}

function csvMembers(schema: Schemaish): string[] | null {
  const m = /members of: (.*)$/.exec(schema.description ?? '');
  return m ? m[1]!.split(', ') : null;
}

function validValueArb(name: string, schema: Schemaish, cursors: readonly string[]): fc.Arbitrary<string> {
  const literals = schema.anyOf?.map((s) => s.const).filter((c): c is string => typeof c === 'string');
  if (literals && literals.length > 0) return fc.constantFrom(...literals);
  const members = csvMembers(schema);
  if (members) {
    return fc
      .tuple(fc.subarray(members, { minLength: 1 }), fc.constantFrom(',', ',', '%2C', '%20,', ',%20', '%2C%20'), fc.boolean())
      .map(([picked, sep, dup]) => [...picked, ...(dup ? [picked[0]!] : [])].join(sep));
  }
  if (name === 'limit') return fc.integer({ min: 1, max: 50 }).map(String);
  if (name === 'cursor') return cursors.length > 0 ? fc.constantFrom(...cursors) : base64url(1, 60);
  if (schema.pattern === '^[0-9A-Za-z]{12}$') return fc.constantFrom(...ALL_IDS);
  if (/instant|updatedSince/i.test(name)) return fc.constantFrom(...INSTANTS);
  if (/Date/.test(name)) return fc.constantFrom(...DATES);
  if (name === 'countryCode') return fc.constantFrom('FR', 'DE', 'NL', 'fr', 'F', 'FRA', 'ZZ');
  return fc.constantFrom('a', 'fest', 'Paris', '%25', '_', '%5C', '!', 'F%C3%AAte', 'FE%CC%82TE', 'x'.repeat(200), 'x'.repeat(201), '%20%20Jazz%20%20');
}

/** A cursor altered the ways a client might: one character, truncated, extended, re-encoded. */
function mutatedCursorArb(cursors: readonly string[]): fc.Arbitrary<string> {
  if (cursors.length === 0) return base64url(1, 100);
  return fc
    .tuple(fc.constantFrom(...cursors), fc.nat(), fc.constantFrom('flip', 'cut', 'grow', 'case', 'pad'))
    .map(([c, n, how]) => {
      const i = n % c.length;
      if (how === 'flip') return c.slice(0, i) + (c[i] === 'A' ? 'B' : 'A') + c.slice(i + 1);
      if (how === 'cut') return c.slice(0, i);
      if (how === 'grow') return c + 'A'.repeat(1 + (n % 1100));
      if (how === 'case') return c.toUpperCase();
      return `${c}%3D%3D`;
    })
    .filter((c) => c.length > 0);
}

function valueArb(name: string, schema: Schemaish | undefined, cursors: readonly string[]): fc.Arbitrary<string> {
  const anyName = fc.constantFrom('fields', 'include', 'sort');
  return fc.oneof(
    { weight: 5, arbitrary: schema ? validValueArb(name, schema, cursors) : fc.constant('1') },
    { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
    { weight: 2, arbitrary: fc.constantFrom(...BROKEN_ESCAPES, ...WHITESPACE, '', '%2C', ',', ',,', 'a,', ',a', 'a.b', 'name.first', 'artists.name', 'a%2Eb') },
    { weight: 1, arbitrary: fc.constantFrom(...INSTANTS, ...DATES) },
    { weight: 2, arbitrary: fc.constantFrom(...CURSOR_LIKE) },
    { weight: 2, arbitrary: mutatedCursorArb(cursors) },
    { weight: 1, arbitrary: base64url(1, 1100) },
    { weight: 1, arbitrary: rawBytes(200) },
    { weight: 2, arbitrary: anyText(60) },
    { weight: 1, arbitrary: looseAnyText(30) },
    { weight: 1, arbitrary: fc.integer({ min: -(2 ** 53), max: 2 ** 53 }).map(String) },
    { weight: 1, arbitrary: fc.double().map(String) },
    // long CSV lists of valid and invalid members, with whitespace variants
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.array(fc.oneof(fc.constantFrom('name', 'slug', 'publicId', 'artists', 'venues', 'updatedAt', 'schedule', 'links', 'nope', 'a.b', ''), anyText(8)), { minLength: 2, maxLength: 300 }),
          fc.constantFrom(',', '%2C', '%20,%20', ',+', '%2C%09'),
          anyName,
        )
        .map(([items, sep]) => items.join(sep)),
    },
  );
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
}

function requestArb(op: OperationSpec, cursors: readonly string[]): fc.Arbitrary<FuzzRequest> {
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const names = queryParams.map((p) => p.name);
  const schemaOf = (name: string) => queryParams.find((p) => p.name === name)?.schema as Schemaish | undefined;
  const segments = op.path.split('/').slice(1);
  const pathArb = fc
    .tuple(...segments.map((s) => (s.startsWith(':') ? pathIdArb(s.slice(1)) : fc.constant(s))))
    .map((parts) => `/${parts.join('/')}`);
  const nameArb = fc.oneof(
    { weight: names.length > 0 ? 8 : 0, arbitrary: names.length > 0 ? fc.constantFrom(...names) : fc.constant('x') },
    { weight: 2, arbitrary: fc.constantFrom(...UNKNOWN_NAMES, ...BROKEN_ESCAPES) },
    { weight: 1, arbitrary: anyText(12) },
  );
  const paramArb = fc
    .tuple(nameArb, fc.nat(), fc.constantFrom('=', '=', '=', '=', '', '=='))
    .chain(([name, , eq]) => valueArb(name, schemaOf(name), cursors).map((value) => (eq === '' ? name : `${name}${eq}${value}`)));
  // well-formed members only (combinations may still be refused): reaches the reads
  const validQueryArb = fc
    .subarray(names.length > 0 ? names : ['x'], { minLength: 1, maxLength: Math.min(4, Math.max(1, names.length)) })
    .chain((picked) => fc.tuple(...picked.map((name) => validValueArb(name, schemaOf(name)!, cursors).map((v) => `${name}=${v}`))))
    .map((ps) => ps.join('&'));
  const queryArb = fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: names.length > 0 ? 8 : 0, arbitrary: names.length > 0 ? validQueryArb : fc.constant('') },
    { weight: 1, arbitrary: fc.constant('') },
    {
      weight: 10,
      arbitrary: fc
        .tuple(fc.array(paramArb, { minLength: 1, maxLength: 8 }), fc.constantFrom('&', '&', '&', '&&', '&;'), fc.boolean())
        .map(([ps, sep, lead]) => (lead ? sep : '') + ps.join(sep)),
    },
    // many parameters: around and beyond the limit of 32, repeated names included
    { weight: 2, arbitrary: fc.array(paramArb, { minLength: 30, maxLength: 40 }).map((ps) => ps.join('&')) },
  );
  const methodArb = fc.oneof(
    { weight: 12, arbitrary: fc.constant('GET') },
    { weight: 3, arbitrary: fc.constant('HEAD') },
    { weight: 3, arbitrary: fc.constant('OPTIONS') },
    { weight: 3, arbitrary: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'PROPFIND', 'PURGE', 'SEARCH', 'LINK') },
  );
  const headersArb = fc.record(
    {
      'If-None-Match': fc.constantFrom('*', 'W/"x"', '"x", W/"y"', 'garbage', '"', 'W/', ',,,', `W/"${'a'.repeat(2000)}"`, '*, W/"x"'),
      Origin: fc.constantFrom('https://app.example', 'null', 'http://127.0.0.1:1'),
      'Access-Control-Request-Method': fc.constantFrom('GET', 'POST', 'DELETE'),
      'Access-Control-Request-Headers': fc.constantFrom('if-none-match', 'authorization', 'x-custom, if-none-match'),
      'X-Forwarded-For': fc.constantFrom('10.1.2.3', '::1', 'garbage'),
    },
    { requiredKeys: [] },
  );
  return fc
    .record({ method: methodArb, path: pathArb, query: queryArb, headers: headersArb })
    .map(({ method, path, query, headers }) => ({ method, path: query === null ? path : `${path}?${query}`, headers: headers as Record<string, string> }));
}

// ---------------------------------------------------------------------------------------------

assert.equal(OPERATIONS.length, 19 + 3, 'the contract has 19 operations and the 3 calendar feeds (extension)');

for (const engine of engines()) {
  // the timeout only stops a hung run: the suite makes a fixed number of requests however long they take
  describe(`fuzzing all ${OPERATIONS.length} routes on ${engine.name} (${FUZZ_RUNS} requests per route)`, { timeout: 900_000 }, () => {
    let t: TestDatabase;
    let server: TestServer;
    const cursors: string[] = [];
    let total = 0;
    const statuses = new Map<number, number>();

    before(async () => {
      t = await openTestDatabase(engine);
      await importCanaryCatalogue(t.db);
      server = await startServer(t.db);
      for (const path of Object.values(CURSOR_SOURCES)) {
        const res = await rawRequest(server.base, 'GET', path);
        assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 200)}`);
        const next: string | null = JSON.parse(res.text).links.next;
        const cursor = next === null ? null : new URL(next, server.base).searchParams.get('cursor');
        if (cursor) cursors.push(encodeURIComponent(cursor));
      }
      assert.ok(cursors.length >= 8, `harvested ${cursors.length} cursors`);
    });
    after(async () => {
      await server.close();
      await t.drop();
      const summary = [...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(' ');
      console.log(`fuzz on ${engine.name}: ${total} requests: ${summary}`);
    });

    for (const op of OPERATIONS) {
      it(`${op.path}: no 5xx, envelope or contract-valid success, no leak`, async () => {
        let runs = 0;
        await fc.assert(
          fc.asyncProperty(requestArb(op, cursors), async (req) => {
            runs++;
            const what = `${req.method} ${req.path.slice(0, 300)}${req.path.length > 300 ? '…' : ''} ${JSON.stringify(req.headers)}`;
            const res = await rawRequest(server.base, req.method, req.path, req.headers);
            total++;
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            assertContractResponse(res, req.method, what, req.method === 'GET' ? op.response : null);
          }),
          { numRuns: FUZZ_RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
        );
        assert.equal(runs, FUZZ_RUNS);
      });
    }

    it('a path id the router cannot decode or bound is a 404 envelope (405 for other methods), admitted like any request', async () => {
      // Fastify's own answers to these were a bare 400/414 without envelope, request id or CORS.
      const bad = ['%zz', '%', '%C0%AF', '%E2%82', '%ED%A0%80', 'a'.repeat(600)];
      for (const op of OPERATIONS.filter((o) => o.path.includes(':'))) {
        for (const id of bad) {
          const path = op.path.replace(/:(\w+)/, id).replace(/:(\w+)/g, (_m, name: string) => PATH_IDS[name]![0]!);
          for (const [method, status] of [['GET', 404], ['HEAD', 404], ['OPTIONS', 404], ['DELETE', 405]] as const) {
            const res = await rawRequest(server.base, method, path);
            assert.equal(res.status, status, `${method} ${path.slice(0, 80)}: ${res.text.slice(0, 200)}`);
            assertContractResponse(res, method, `${method} ${path.slice(0, 80)}`, null);
            if (method === 'GET') assert.equal(JSON.parse(res.text).error.type, 'not_found');
            if (method === 'DELETE') assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
          }
        }
      }
      const long = await rawRequest(server.base, 'GET', `/v1/events/%zz?${'a'.repeat(4100)}`);
      assert.equal(long.status, 414);
      assertErrorBody(long, 'a bad id in an overlong URL');
    });

    it('fixed adversarial requests on every route and method', async () => {
      const methods = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE'];
      const queries = [
        '%zz', '%', 'limit=%', 'limit=%zz', 'limit=%00', '%00=1', 'nameContains=%C0%AF', 'nameContains=%ED%A0%80', 'limit=1e1', 'limit=-1', 'limit=99999999999999999999',
        'limit=&limit=', 'limit=1&limit=1', '&&&', '=', '==', 'fields=name.first', `cursor=${'a'.repeat(1024)}`, `cursor=${'a'.repeat(1025)}`, 'LIMIT=1', 'fields=%20name%20,%20slug%20',
        `fields=${Array.from({ length: 400 }, () => 'name').join(',')}`, Array.from({ length: 33 }, (_, i) => `x${i}=1`).join('&'),
      ];
      for (const op of OPERATIONS) {
        const path = op.path.replace(/:(\w+)/g, (_m, name: string) => PATH_IDS[name]![0]!);
        for (const method of methods) {
          // every query with the reading methods; the others are refused whatever the query
          for (const q of method === 'GET' || method === 'HEAD' ? ['', ...queries] : ['', queries[0]!, queries[7]!]) {
            const target = q === '' ? path : `${path}?${q}`;
            const res = await rawRequest(server.base, method, target);
            assertContractResponse(res, method, `${method} ${target.slice(0, 200)}`, method === 'GET' ? op.response : null);
          }
        }
      }
    });
  });
}
