/**
 * Shared by the fuzz and crawler suites: a raw HTTP client (the request target reaches the
 * server byte for byte: `%zz`, `%C0%AF`, `%00`… are not normalized as fetch would), the
 * fixture catalogue with a canary in every never-public field of every entity, and the checks
 * every response must pass (the error envelope or a contract-valid success, never a 5xx other
 * than admission's 503, never a leak).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { Readable } from 'node:stream';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { importCatalogue } from '../../src/catalogue/importer.js';
import type { CatalogueDocument } from '../../src/catalogue/document.js';
import type { Database } from '../../src/db/database.js';
import { ErrorEnvelope } from '../../src/contract/common.js';
import { CANARIES, EDITIONS, IDS, MEDIA, SERIES, eventsCatalogue } from '../fixtures/events-catalogue.js';

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
}

/** One request on a fresh connection; `path` is sent exactly as given. */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port: Number(port), method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer to ${method} ${path.slice(0, 120)} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

// ---------------------------------------------------------------------------------------------
// The catalogue: the Events fixture (canaries in media, Venue and Event never-public fields),
// extended so every entity kind carries authoring data and every media item the media canaries.

export const EXTRA_CANARIES = ['CANARY_EDITION_AUTHORING', 'CANARY_SERIES_AUTHORING', 'CANARY_MEDIA_AUTHORING'] as const;
export const ALL_CANARIES: readonly string[] = [...CANARIES, ...EXTRA_CANARIES];

export function canaryCatalogue(): CatalogueDocument {
  const doc = structuredClone(eventsCatalogue) as CatalogueDocument & Record<string, any[]>;
  for (const m of doc.media ?? []) {
    m.authoring ??= { revision: 7, actors: ['CANARY_ACTOR'], createdAt: 'CANARY_MEDIA_AUTHORING' };
    m.originalFilename ??= `CANARY_ORIGINAL_FILENAME-${m.publicId}.png`;
    m.uploadName ??= `CANARY_UPLOAD_NAME-${m.publicId}`;
    m.storageKey ??= `s3://CANARY_STORAGE_KEY/${m.publicId}`;
    m.blurDataUrl ??= 'data:image/png;base64,CANARY_BLUR_DATA';
  }
  for (const s of doc.series ?? []) s.authoring ??= { actors: ['CANARY_ACTOR'], updatedAt: 'CANARY_SERIES_AUTHORING' };
  for (const e of doc.editions ?? []) e.authoring ??= { actors: ['CANARY_ACTOR'], revision: 'CANARY_EDITION_AUTHORING' };
  for (const a of doc.artists ?? []) a.authoring ??= { actors: ['CANARY_ACTOR'], createdAt: 'CANARY_AUTHORING_TIMESTAMP' };
  for (const v of doc.venues ?? []) {
    v.addressProvenance ??= { source: 'CANARY_ADDRESS_PROVENANCE' };
    v.timeZoneSuggestion ??= 'CANARY_TZ_SUGGESTION';
  }
  // every active Event with a profile also gets gallery media
  for (const ev of doc.events ?? []) {
    if (ev.active !== false && ev.profileMediaId) ev.galleryMediaIds ??= [MEDIA.gallery];
  }
  return doc;
}

export async function importCanaryCatalogue(db: Database): Promise<void> {
  await importCatalogue(db, Readable.from([JSON.stringify(canaryCatalogue())]), {});
}

// ---------------------------------------------------------------------------------------------
// Checks

/** Text a sanitized response never contains: internals, stack frames, framework errors. */
const INTERNALS: readonly RegExp[] = [
  /\n\s+at [^\n]*\(/, // stack frame
  /\bat (async )?[\w.$<>]+ \((file:|node:|\/)/,
  /node_modules|file:\/\/|\/work\//,
  /FST_ERR|ERR_[A-Z_]{4,}|"statusCode"/,
  /\b(TypeError|RangeError|SyntaxError|ReferenceError|URIError)\b/,
  /\b(syntax error at or near|relation "|column "|violates|pg_catalog|postgres(ql)?:\/\/)/i,
];

/** A leak is a canary anywhere, or internals in an error body's fixed text. */
export function assertNoLeak(text: string, what: string): void {
  for (const canary of ALL_CANARIES) assert.ok(!text.includes(canary), `${what} leaks ${canary}`);
}

export function assertErrorBody(res: RawResponse, what: string): void {
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    assert.fail(`${what}: ${res.status} body is not JSON: ${res.text.slice(0, 200)}`);
  }
  if (!Value.Check(ErrorEnvelope, body)) {
    const first = [...Value.Errors(ErrorEnvelope, body)].slice(0, 3).map((e) => `${e.path}: ${e.message}`);
    assert.fail(`${what}: ${res.status} body is not the error envelope (${first.join('; ')}): ${res.text.slice(0, 300)}`);
  }
  const { message } = (body as { error: { message: string } }).error;
  for (const pattern of INTERNALS) assert.doesNotMatch(message, pattern, `${what}: error message shows internals`);
}

/** Headers every answer carries (spec: Errors, Pre-flight and CORS, "What the service does" 7). */
export function assertCommonHeaders(res: RawResponse, what: string): void {
  assert.match(String(res.headers['x-request-id'] ?? ''), /^[0-9a-f-]{36}$/, `${what}: X-Request-ID`);
  assert.equal(res.headers['access-control-allow-origin'], '*', `${what}: Access-Control-Allow-Origin`);
  assert.equal(res.headers['access-control-allow-credentials'], undefined, `${what}: credentials must stay disabled`);
}

/**
 * The contract's promise for any request: a status it lists, never a 500 (nor any other 5xx
 * but admission's 503), an envelope on failures with no-store and no validators, a success that
 * validates against the operation's schema, no canary anywhere.
 */
export function assertContractResponse(res: RawResponse, method: string, what: string, success: TSchema | null): void {
  assert.ok([200, 204, 304, 400, 404, 405, 414, 429, 503].includes(res.status), `${what}: status ${res.status}: ${res.text.slice(0, 300)}`);
  assertCommonHeaders(res, what);
  assertNoLeak(res.text, what);
  const head = method === 'HEAD';
  if (head) assert.equal(res.body.length, 0, `${what}: HEAD answered with a body`);
  if (res.status >= 400) {
    assert.equal(res.headers['cache-control'], 'no-store', `${what}: error responses are no-store`);
    assert.equal(res.headers.etag, undefined, `${what}: error responses carry no ETag`);
    assert.match(String(res.headers['content-type'] ?? ''), /^application\/json/, `${what}: error content type`);
    if (!head) assertErrorBody(res, what);
    if (res.status === 405) assert.ok(res.headers.allow, `${what}: 405 without Allow`);
    if (res.status === 429 || res.status === 503) assert.match(String(res.headers['retry-after'] ?? ''), /^\d+$/, `${what}: Retry-After`);
    return;
  }
  if (res.status === 204) {
    assert.equal(method, 'OPTIONS', `${what}: 204 to ${method}`);
    assert.equal(res.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
    assert.equal(res.headers['cache-control'], 'no-store');
    return;
  }
  if (res.status === 304) {
    assert.equal(res.body.length, 0, `${what}: 304 with a body`);
    assert.ok(res.headers.etag, `${what}: 304 without ETag`);
    return;
  }
  // 200
  assert.ok(method === 'GET' || method === 'HEAD', `${what}: 200 to ${method}`);
  if (head) return;
  if (success !== null && (success as { type?: string }).type === 'string') {
    // the calendar feeds (extension, decisions §8): iCalendar text
    assert.equal(res.headers['content-type'], 'text/calendar; charset=utf-8', `${what}: content type`);
    assert.match(res.text, /^BEGIN:VCALENDAR\r\n[^]*\r\nEND:VCALENDAR\r\n$/, `${what}: an iCalendar body`);
    return;
  }
  assert.match(String(res.headers['content-type'] ?? ''), /^application\/json/, `${what}: content type`);
  const body = JSON.parse(res.text);
  if (success !== null && !Value.Check(success, body)) {
    const first = [...Value.Errors(success, body)].slice(0, 3).map((e) => `${e.path}: ${e.message}`);
    assert.fail(`${what}: 200 body does not match the operation's schema: ${first.join('; ')}`);
  }
}

// ---------------------------------------------------------------------------------------------

/** A real request per route for the parent ids used below, to harvest real cursors. */
export const CURSOR_SOURCES: Record<string, string> = {
  '/v1/events': '/v1/events?limit=1',
  '/v1/events/:eventId/artists': `/v1/events/${IDS.sevenArtists}/artists?limit=1`,
  '/v1/events/:eventId/venues': `/v1/events/${IDS.sevenArtists}/venues?limit=1`,
  '/v1/events/:eventId/series': `/v1/events/${IDS.allFields}/series?limit=1`,
  '/v1/events/:eventId/editions': `/v1/events/${IDS.allFields}/editions?limit=1`,
  '/v1/artists': '/v1/artists?limit=1',
  '/v1/venues': '/v1/venues?limit=1',
  '/v1/series': '/v1/series?limit=1',
  '/v1/series/:seriesId/artists': `/v1/series/${SERIES.direct}/artists?limit=1`,
  '/v1/series/:seriesId/editions': `/v1/series/${SERIES.editioned}/editions?limit=1`,
  '/v1/series/:seriesId/editions/:editionId/venues': `/v1/series/${SERIES.editioned}/editions/${EDITIONS.ed2025}/venues?limit=1`,
  '/v1/series/:seriesId/editions/:editionId/artists': `/v1/series/${SERIES.editioned}/editions/${EDITIONS.ed2024}/artists?limit=1`,
};

