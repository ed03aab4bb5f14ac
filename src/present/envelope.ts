/**
 * Success envelopes (spec: Resources › Response envelopes) and the weak ETag over the whole
 * serialized body (spec: GET /v1/events, Conditional reads).
 */
import { digest } from '../text/digest.js';

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

/**
 * JSON text already rendered by a projection (an Event's preview, present/event.ts), written into
 * the body as it is by serializeEnvelope. Only projections create it, from values they checked.
 */
export class RawJson {
  constructor(readonly json: string) {}
}

/** Where RawJson may stand: envelope → data → item → field (a page) or a field's value (a detail). */
const RAW_DEPTH = 3;

/**
 * The body of a success envelope: JSON.stringify's bytes, except that RawJson values are spliced
 * in. Written here because JSON.rawJSON accepts only primitive JSON texts, not the objects and
 * arrays a projection renders. The top RAW_DEPTH levels of objects and arrays are walked as JSON.stringify walks them
 * (own enumerable keys in order, undefined, functions and symbols skipped); below them, and for
 * every other value, JSON.stringify writes its own output.
 */
export function serializeEnvelope(envelope: unknown): string {
  return envelopeParts(envelope).join('');
}

/**
 * The body's UTF-8 bytes, written part by part into one buffer: the parts (the rendered items and
 * the text between them) are never joined into one string first. A joined page was copied twice
 * more before it reached the socket (the join, then the flattening of the string Buffer.from
 * encodes), and both copies were garbage at once: ≈ 300 KB allocated per Events page before.
 */
export function envelopeBytes(envelope: unknown): Buffer {
  const parts = envelopeParts(envelope);
  if (parts.length === 1) return Buffer.from(parts[0]!, 'utf8');
  let size = 0;
  for (const part of parts) size += Buffer.byteLength(part, 'utf8');
  const bytes = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const part of parts) offset += bytes.write(part, offset, 'utf8');
  return bytes;
}

function envelopeParts(envelope: unknown): string[] {
  // most resources hold no RawJson: one JSON.stringify, not one per value of the top levels
  if (!holdsRaw(envelope, RAW_DEPTH)) return [JSON.stringify(envelope) ?? 'null'];
  const parts: string[] = [];
  serialize(envelope, RAW_DEPTH, parts);
  return parts;
}

/** Whether a RawJson stands anywhere serialize would splice it (the top RAW_DEPTH levels). */
function holdsRaw(value: unknown, depth: number): boolean {
  if (value instanceof RawJson) return true;
  if (depth === 0 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => holdsRaw(v, depth - 1));
  for (const key in value) if (holdsRaw((value as Record<string, unknown>)[key], depth - 1)) return true;
  return false;
}

/** Appends the JSON text of `value` to `parts`, as JSON.stringify would write it. */
function serialize(value: unknown, depth: number, parts: string[]): void {
  if (value instanceof RawJson) {
    parts.push(value.json);
    return;
  }
  if (depth === 0 || value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    parts.push(JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    parts.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) parts.push(',');
      serialize(value[i], depth - 1, parts);
    }
    parts.push(']');
    return;
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    parts.push(`${first ? '{' : ','}${JSON.stringify(key)}:`);
    first = false;
    serialize(v, depth - 1, parts);
  }
  parts.push(first ? '{}' : '}');
}

/** A success body as the socket writes it, and its weak ETag. */
export interface RenderedBody {
  readonly body: Buffer;
  readonly etag: string;
}

/** The body's bytes and their tag, computed. */
export function renderBody(envelope: unknown): RenderedBody {
  const body = envelopeBytes(envelope);
  return { body, etag: weakEtag(body) };
}

/** A weak validator of the exact bytes served; request id and delivery time are not in the body. */
export function weakEtag(body: string | Buffer): string {
  return `W/"${digest('sha256', body, 'base64url').slice(0, 32)}"`;
}
