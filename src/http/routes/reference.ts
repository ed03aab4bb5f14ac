/**
 * The API reference, outside /v1 (LINEUP_DOCS, on by default): GET /openapi.json answers the
 * committed contract (the bytes `lineup openapi` prints), GET /docs an interactive reference
 * whose one script, GET /docs/<name>, is served from here too. They pass the same request stages
 * as the API (rate limit included), carry a weak ETag and answer 304 like resource reads, and
 * accept no query parameters.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { searchOf } from '../../controls/query-string.js';
import { weakEtag } from '../../present/envelope.js';
import { invalidQuery, notFound } from '../errors.js';
import { openApiText } from '../openapi.js';
import { docsPage } from '../reference/page.js';
import { requireRenderer, scalarBundle } from '../reference/scalar-bundle.js';
import { CACHE_RESOURCE, JSON_TYPE, sendAsset, type Asset } from '../respond.js';

/** The script's name is its content digest: a new bundle is a new URL, so it may be kept for good. */
const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';

function refuseQuery(request: FastifyRequest): void {
  if (searchOf(request.raw.url ?? '') !== '') {
    throw invalidQuery('This address accepts no query parameters.', [{ parameter: '*', message: 'no query parameters are accepted' }]);
  }
}

const memo = <T>(make: () => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= make());
};

const documentAsset = memo((): Asset => {
  const body = Buffer.from(openApiText(), 'utf8');
  return { body, etag: weakEtag(body), type: JSON_TYPE, cacheControl: CACHE_RESOURCE };
});

const pageAsset = memo(async (): Promise<Asset> => {
  const { html, csp } = docsPage((await scalarBundle()).name);
  const body = Buffer.from(html, 'utf8');
  return { body, etag: weakEtag(body), type: 'text/html; charset=utf-8', cacheControl: CACHE_RESOURCE, headers: { 'Content-Security-Policy': csp } };
});

export function referenceRoutes(app: FastifyInstance): void {
  requireRenderer();
  app.get('/openapi.json', async (request, reply) => {
    refuseQuery(request);
    return sendAsset(request, reply, documentAsset());
  });
  app.get('/docs', async (request, reply) => {
    refuseQuery(request);
    return sendAsset(request, reply, await pageAsset());
  });
  app.get<{ Params: { asset: string } }>('/docs/:asset', async (request, reply: FastifyReply) => {
    refuseQuery(request);
    const bundle = await scalarBundle();
    if (request.params.asset !== bundle.name) throw notFound();
    return sendAsset(request, reply, { body: bundle.body, etag: bundle.etag, type: 'text/javascript; charset=utf-8', cacheControl: CACHE_IMMUTABLE });
  });
}
