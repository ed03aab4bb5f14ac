/**
 * The addressed parent of a relationship, reverse, lineup or Edition route must exist and be
 * active (with its own ancestry), else 404 (decisions §2). A list's page statement checks it
 * itself (queries/list.ts); this statement runs only when that page is empty, or before a compact
 * boundary is resolved.
 */
import type { Reader } from '../db/reader.js';
import { ResourceNotFound } from '../controls/errors.js';
import { Params } from './sql.js';
import type { Statement } from './statement.js';

export type Parent =
  | { readonly kind: 'event'; readonly eventId: string }
  | { readonly kind: 'artist'; readonly artistId: string }
  | { readonly kind: 'venue'; readonly venueId: string }
  | { readonly kind: 'series'; readonly seriesId: string }
  | { readonly kind: 'edition'; readonly seriesId: string; readonly editionId: string };

/** The parent's row if it exists and is active (with its own ancestry), on the statement's parameters. */
export function parentSelect(parent: Parent, p: Params): string {
  switch (parent.kind) {
    case 'event':
      return `SELECT 1 AS found FROM events WHERE public_id = ${p.add(parent.eventId)} AND active`;
    case 'artist':
      return `SELECT 1 AS found FROM artists WHERE public_id = ${p.add(parent.artistId)} AND active`;
    case 'venue':
      return `SELECT 1 AS found FROM venues WHERE public_id = ${p.add(parent.venueId)} AND active`;
    case 'series':
      return `SELECT 1 AS found FROM series WHERE public_id = ${p.add(parent.seriesId)} AND active`;
    case 'edition':
      return `SELECT 1 AS found FROM editions ed JOIN series s ON s.id = ed.series_id
                WHERE s.public_id = ${p.add(parent.seriesId)} AND s.active
                  AND ed.public_id = ${p.add(parent.editionId)} AND ed.active`;
  }
}

export function parentStatement(parent: Parent): Statement {
  const p = new Params();
  const text = parentSelect(parent, p);
  return { name: `parent.${parent.kind}`, text, values: p.values, stablePlan: true };
}

/** Throws 404 not_found (no-store, no validator) when the parent is missing or inactive. */
export async function requireParent(reader: Reader, parent: Parent): Promise<void> {
  const rows = await reader.rows(parentStatement(parent));
  if (rows.length === 0) throw new ResourceNotFound();
}
