/**
 * Each Artist's and Venue's rich preview — its item in `include=artists` / `include=venues` — as
 * the JSON text of one row: the allow-listed columns of queries/items.ts (rich) and its public
 * media. ONE definition, used three ways:
 *   - the importer stores it on the member's row (`rich_preview`, migration 017): rendered from
 *     the row it writes (src/catalogue/merge-statements.ts) and again for members it does not carry whose
 *     media it changed (src/catalogue/member-previews.ts);
 *   - the rich preview statements read the stored text (queries/event-relations.ts) and render
 *     this same expression only for a row that has none (written outside the importer);
 *   - test/catalogue/event-previews.test.ts requires every stored text to equal this rendering.
 * Stored, a page's rich previews read each member's text instead of joining its media and
 * rendering its row on every read (docs/architecture.md#schema).
 */
import { ARTIST_ITEM_COLUMNS, VENUE_ITEM_COLUMNS, artistMediaJoin, singleMediaJoin } from './items.js';

export type PreviewMember = 'artists' | 'venues';

const SHAPES: Record<PreviewMember, { readonly columns: (m: string) => string; readonly mediaJoin: (m: string) => string }> = {
  artists: { columns: (a) => ARTIST_ITEM_COLUMNS(a, true), mediaJoin: (a) => artistMediaJoin(a) },
  venues: { columns: (v) => VENUE_ITEM_COLUMNS(v, true), mediaJoin: (v) => singleMediaJoin(v) },
};

/**
 * The rich preview of the member row `m` (an alias whose columns carry the member table's names
 * and types: a stored row, or the values an upsert writes), as a scalar subquery: its public
 * media by primary key, then `row_to_json` of the allow-listed columns.
 */
export function renderRichPreview(member: PreviewMember, m: string): string {
  const shape = SHAPES[member];
  return `(SELECT row_to_json(r)::text FROM (SELECT) one ${shape.mediaJoin(m)} CROSS JOIN LATERAL (SELECT ${shape.columns(m)}) r)`;
}

/**
 * Stores the rich preview of the members listed by `targets` (a SELECT of ids; null: every
 * member), writing only the rows whose text changed.
 */
export function storeRichPreviewsSql(member: PreviewMember, targets: string | null): string {
  const listed = targets === null ? '' : `WHERE m.id IN (${targets})`;
  return `UPDATE ${member} t SET rich_preview = x.rich
      FROM (SELECT m.id, ${renderRichPreview(member, 'm')} AS rich FROM ${member} m ${listed}) x
     WHERE t.id = x.id AND t.rich_preview IS DISTINCT FROM x.rich`;
}
