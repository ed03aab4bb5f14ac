/**
 * Opaque continuation cursors (spec: Events rules 7-9; decisions §5 "Cursors").
 *
 * A cursor is a position, not a credential: `base64url(JSON [version, fingerprint, keys])`, a dot,
 * and a checksum of that payload, so any altered cursor is malformed (400) rather than a silently
 * different page. The fingerprint binds it to the effective controls (route, filters, sort,
 * limit, fields, include); the keys are the sort key of the last item returned, kept as exact
 * strings (instants with all six fractional digits).
 */
import { deepFreeze } from '../text/deep-freeze.js';
import { digestBytes } from '../text/digest.js';
import { InvalidQuery } from './errors.js';

export const MAX_CURSOR_LENGTH = 1024;
const VERSION = 1;

export type CursorKey = string | number | null;

const b64 = (buf: Buffer) => buf.toString('base64url');
const sha256 = (text: string) => digestBytes('sha256', text);

/**
 * The fingerprints of the controls seen last (every page computes its own; the same few queries
 * repeat): at most FINGERPRINTS, forgotten all at once when full.
 */
const FINGERPRINTS = 1_024;
const fingerprints = new Map<string, string>();

/** Fingerprint of the effective controls: the route path and its normalized query (no cursor). */
export function controlsFingerprint(path: string, normalizedQuery: string): string {
  const controls = `${path}?${normalizedQuery}`;
  const known = fingerprints.get(controls);
  if (known !== undefined) return known;
  if (fingerprints.size >= FINGERPRINTS) fingerprints.clear();
  const fingerprint = b64(sha256(controls).subarray(0, 12));
  fingerprints.set(controls, fingerprint);
  return fingerprint;
}

const checksum = (payload: string) => b64(sha256(`lineup-cursor:${payload}`).subarray(0, 9));

/** Seals a cursor body: base64url JSON, a dot, the checksum. */
export function sealCursor(body: readonly unknown[]): string {
  const payload = b64(Buffer.from(JSON.stringify(body), 'utf8'));
  return `${payload}.${checksum(payload)}`;
}

export function encodeCursor(fingerprint: string, keys: readonly CursorKey[]): string {
  return sealCursor([VERSION, fingerprint, keys]);
}

export const restartHint = 'Restart the traversal without a cursor.';

const malformed = () => new InvalidQuery('The cursor is invalid.', [{ parameter: 'cursor', message: `malformed cursor. ${restartHint}` }]);

/**
 * Opens a sealed cursor: length, checksum, JSON and version. Returns the issuing controls'
 * fingerprint and the position part (not yet checked). Throws 400 invalid_query when malformed.
 */
export function openCursor(cursor: string): OpenedCursor {
  const known = opened.get(cursor);
  if (known !== undefined) return known;
  const fresh = openSealed(cursor);
  if (opened.size >= OPENED) opened.clear();
  opened.set(cursor, fresh);
  return fresh;
}

/** What a sealed cursor holds: the issuing controls' fingerprint and the position (frozen, shared). */
export interface OpenedCursor {
  readonly fingerprint: unknown;
  readonly position: unknown;
}

/**
 * The cursors opened last, by their exact text (the same cursor comes back: every client that
 * follows a list's `next` link past its first page, retries, mirrors walking the same feed): at
 * most OPENED, forgotten all at once when full. Only cursors that opened are kept, their JSON
 * deep-frozen, so a caller cannot change what the next request with that text gets. Opening one
 * (its SHA-256 checksum, base64url and JSON) costs an order of magnitude more than finding it.
 */
const OPENED = 1_024;
const opened = new Map<string, OpenedCursor>();

function openSealed(cursor: string): OpenedCursor {
  if (cursor.length > MAX_CURSOR_LENGTH) {
    throw new InvalidQuery('The cursor is invalid.', [{ parameter: 'cursor', message: `must be at most ${MAX_CURSOR_LENGTH} characters. ${restartHint}` }]);
  }
  const dot = cursor.indexOf('.');
  if (dot <= 0) throw malformed();
  const payload = cursor.slice(0, dot);
  if (!/^[A-Za-z0-9_-]+$/.test(payload) || cursor.slice(dot + 1) !== checksum(payload)) throw malformed();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  if (!Array.isArray(decoded) || decoded.length !== 3 || decoded[0] !== VERSION) throw malformed();
  return Object.freeze({ fingerprint: decoded[1], position: deepFreeze(decoded[2]) });
}

/** Throws 400 invalid_query when a (well-formed) cursor was issued for other controls. */
export function checkFingerprint(actual: unknown, fingerprint: string): void {
  if (actual !== fingerprint) {
    throw new InvalidQuery('The cursor does not belong to this query.', [
      {
        parameter: 'cursor',
        message: `the cursor was issued for different controls (route, filters, sort, limit, fields or include). ${restartHint}`,
      },
    ]);
  }
}

/** Sort-key positions are finite numbers, strings or null. */
export function isKeyList(value: unknown, arity: number): value is readonly CursorKey[] {
  return (
    Array.isArray(value) &&
    value.length === arity &&
    value.every((k) => k === null || typeof k === 'string' || (typeof k === 'number' && Number.isFinite(k)))
  );
}

export { malformed as malformedCursor };

/**
 * Decodes a cursor issued for `fingerprint`; `arity` is the number of sort keys expected.
 * Throws 400 invalid_query when malformed, altered, or issued for other controls.
 */
export function decodeCursor(cursor: string, fingerprint: string, arity: number): readonly CursorKey[] {
  const { fingerprint: fp, position } = openCursor(cursor);
  if (!isKeyList(position, arity)) throw malformed();
  checkFingerprint(fp, fingerprint);
  return position;
}
