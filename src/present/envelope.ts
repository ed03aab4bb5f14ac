/**
 * Success envelopes (spec: Resources › Response envelopes) and the weak ETag over the whole
 * serialized body (spec: GET /v1/events, Conditional reads).
 */
import { createHash } from 'node:crypto';

export interface PageEnvelope {
  ok: true;
  data: unknown[];
  meta: { pagination: { limit: number; hasMore: boolean } };
  links: { next: string | null };
}

export function pageEnvelope(data: unknown[], limit: number, next: string | null): PageEnvelope {
  return { ok: true, data, meta: { pagination: { limit, hasMore: next !== null } }, links: { next } };
}

export function objectEnvelope(data: unknown): { ok: true; data: unknown } {
  return { ok: true, data };
}

/** A weak validator of the exact bytes served; request id and delivery time are not in the body. */
export function weakEtag(body: string | Buffer): string {
  return `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}
