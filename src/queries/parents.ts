/**
 * The addressed parent of a relationship, reverse, lineup or Edition route must exist and be
 * active (with its own ancestry), else 404 (decisions §2). One statement, before the page.
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

export function parentStatement(parent: Parent): Statement {
  const p = new Params();
  switch (parent.kind) {
    case 'event':
      return { name: 'parent.event', text: `SELECT 1 AS found FROM events WHERE public_id = ${p.add(parent.eventId)} AND active`, values: p.values, stablePlan: true };
    case 'artist':
      return { name: 'parent.artist', text: `SELECT 1 AS found FROM artists WHERE public_id = ${p.add(parent.artistId)} AND active`, values: p.values, stablePlan: true };
    case 'venue':
      return { name: 'parent.venue', text: `SELECT 1 AS found FROM venues WHERE public_id = ${p.add(parent.venueId)} AND active`, values: p.values, stablePlan: true };
    case 'series':
      return { name: 'parent.series', text: `SELECT 1 AS found FROM series WHERE public_id = ${p.add(parent.seriesId)} AND active`, values: p.values, stablePlan: true };
    case 'edition':
      return {
        name: 'parent.edition',
        text: `SELECT 1 AS found FROM editions ed JOIN series s ON s.id = ed.series_id
                WHERE s.public_id = ${p.add(parent.seriesId)} AND s.active
                  AND ed.public_id = ${p.add(parent.editionId)} AND ed.active`,
        values: p.values,
        stablePlan: true,
      };
  }
}

/** Throws 404 not_found (no-store, no validator) when the parent is missing or inactive. */
export async function requireParent(reader: Reader, parent: Parent): Promise<void> {
  const rows = await reader.rows(parentStatement(parent));
  if (rows.length === 0) throw new ResourceNotFound();
}
