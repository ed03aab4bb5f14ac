/**
 * Writing responses: successful resource reads get their weak ETag, the 60 s public cache
 * policy and 304 on a matching `If-None-Match`; operational reads get `no-store`; failures get
 * the error envelope. CORS and X-Request-ID are set for every response by the hooks.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from './errors.js';
import { ifNoneMatchMatches } from './conditional.js';
import { renderBody, weakEtag, type RenderedBody } from '../present/envelope.js';

export const CACHE_RESOURCE = 'public, max-age=60';
export const CACHE_NONE = 'no-store';
export const JSON_TYPE = 'application/json; charset=utf-8';

/** A successful resource read: the same work for GET, HEAD and conditional requests. */
export function sendResource(request: FastifyRequest, reply: FastifyReply, payload: unknown): FastifyReply {
  // Encoded once: the tag hashes these bytes and the socket writes them (a string body would be
  // encoded twice, and a large string is written by Node's writev with a slower per-call path).
  return sendRendered(request, reply, renderBody(payload));
}

/** A successful resource read already rendered (present/envelope.ts, present/page-memo.ts), sent as sendResource sends it. */
export function sendRendered(request: FastifyRequest, reply: FastifyReply, { body, etag }: RenderedBody): FastifyReply {
  reply.header('ETag', etag).header('Cache-Control', CACHE_RESOURCE);
  if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) {
    return reply.code(304).removeHeader('Content-Type').send();
  }
  return reply.code(200).type(JSON_TYPE).send(body);
}

/**
 * A successful resource read in another media type (the calendar feeds, decisions §8): the same
 * weak ETag over the body, 304, cache policy and HEAD handling as sendResource.
 */
export function sendResourceText(request: FastifyRequest, reply: FastifyReply, text: string, contentType: string): FastifyReply {
  const body = Buffer.from(text, 'utf8');
  const etag = weakEtag(body);
  reply.header('ETag', etag).header('Cache-Control', CACHE_RESOURCE);
  if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) {
    return reply.code(304).removeHeader('Content-Type').send();
  }
  return reply.code(200).type(contentType).send(body);
}

/** A fixed answer (the API reference's document, page and script), rendered once. */
export interface Asset {
  readonly body: Buffer;
  readonly etag: string;
  readonly type: string;
  readonly cacheControl: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** An Asset, with its ETag and 304 on a matching `If-None-Match` as for resource reads. */
export function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset): FastifyReply {
  reply.header('ETag', asset.etag).header('Cache-Control', asset.cacheControl).header('X-Content-Type-Options', 'nosniff');
  for (const [name, value] of Object.entries(asset.headers ?? {})) reply.header(name, value);
  if (ifNoneMatchMatches(request.headers['if-none-match'], asset.etag)) {
    return reply.code(304).removeHeader('Content-Type').send();
  }
  return reply.code(200).type(asset.type).send(asset.body);
}

/** A successful operational read (health, ready): never cached. */
export function sendUncached(reply: FastifyReply, payload: unknown): FastifyReply {
  return reply.code(200).header('Cache-Control', CACHE_NONE).type(JSON_TYPE).send(JSON.stringify(payload));
}

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  reply.removeHeader('ETag');
  reply.removeHeader('Last-Modified');
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply.code(err.status).header('Cache-Control', CACHE_NONE).type(JSON_TYPE).send(errorBody(err));
}
