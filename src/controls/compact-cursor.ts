/**
 * Boundaries of name-ordered lists (spec: Events rule 8, GET /v1/venues; decisions §2).
 *
 * An ordinary cursor carries the boundary's sort keys (names included). When that encoded
 * cursor would pass 1,024 characters (long names), the compact boundary is used instead: the
 * boundary member's identity (its publicIds) plus a SHA-256 fingerprint of its names. Resolving
 * a compact boundary needs the member itself: it must still be listed under every original
 * filter with the same names, otherwise the client has to restart (`restartRequired`).
 *
 * Pure: encoding and decoding; the query layer resolves the member.
 */
import { digest } from '../text/digest.js';
import { InvalidQuery } from './errors.js';
import {
  MAX_CURSOR_LENGTH,
  checkFingerprint,
  encodeCursor,
  isKeyList,
  malformedCursor,
  openCursor,
  restartHint,
  sealCursor,
  type CursorKey,
} from './cursor.js';
import { PUBLIC_ID } from './formats.js';

/** What identifies a list member and what its compact boundary fingerprints. */
export interface BoundaryIdentity {
  /** publicIds of the member, e.g. [venueId] or [seriesId, editionId]. */
  readonly ids: readonly string[];
  /** Its names in sort order, e.g. [venueName] or [seriesName, editionName]. */
  readonly names: readonly string[];
}

export type Boundary =
  | { readonly kind: 'keys'; readonly keys: readonly CursorKey[] }
  | { readonly kind: 'compact'; readonly ids: string[]; readonly namesHash: string };

const VERSION = 1;
const IDS_KEY = 'c';

/** SHA-256 fingerprint of names (base64url, 43 characters). */
export function namesFingerprint(names: readonly string[]): string {
  return digest('sha256', JSON.stringify(names), 'base64url');
}

/** The ordinary cursor when it fits in 1,024 characters, else the compact boundary. */
export function encodeBoundary(fingerprint: string, keys: readonly CursorKey[], identity: BoundaryIdentity): string {
  const ordinary = encodeCursor(fingerprint, keys);
  if (ordinary.length <= MAX_CURSOR_LENGTH) return ordinary;
  return sealCursor([VERSION, fingerprint, { [IDS_KEY]: [...identity.ids], h: namesFingerprint(identity.names) }]);
}

/**
 * Decodes either form. `arity`: sort keys of an ordinary cursor; `idCount`: publicIds of a
 * compact one. Malformed or foreign cursors are 400 invalid_query, before any read.
 */
export function decodeBoundary(cursor: string, fingerprint: string, arity: number, idCount: number): Boundary {
  const { fingerprint: fp, position } = openCursor(cursor);
  let boundary: Boundary;
  if (isKeyList(position, arity)) {
    boundary = { kind: 'keys', keys: position };
  } else if (typeof position === 'object' && position !== null && !Array.isArray(position)) {
    const { c: ids, h: namesHash, ...rest } = position as Record<string, unknown>;
    const wellFormed =
      Object.keys(rest).length === 0 &&
      Array.isArray(ids) &&
      ids.length === idCount &&
      ids.every((id) => typeof id === 'string' && PUBLIC_ID.test(id)) &&
      typeof namesHash === 'string' &&
      /^[A-Za-z0-9_-]{43}$/.test(namesHash);
    if (!wellFormed) throw malformedCursor();
    boundary = { kind: 'compact', ids: ids as string[], namesHash: namesHash as string };
  } else {
    throw malformedCursor();
  }
  checkFingerprint(fp, fingerprint);
  return boundary;
}

/** Checks a resolved member against a compact boundary; throws the restart 400 when it changed. */
export function checkResolved(boundary: Extract<Boundary, { kind: 'compact' }>, resolvedNames: readonly string[] | null): void {
  if (resolvedNames === null || namesFingerprint(resolvedNames) !== boundary.namesHash) throw restartRequired();
}

/** The boundary member was renamed, deactivated, unlinked, removed or no longer matches the filters. */
export function restartRequired() {
  return new InvalidQuery('The cursor can no longer be continued.', [
    {
      parameter: 'cursor',
      message: `the item this page continues from was renamed, deactivated, unlinked, removed or no longer matches the filters. ${restartHint}`,
    },
  ]);
}
