/**
 * The stored previews' JSON text (event_previews, read as text) → their rows, parsed once per
 * distinct text. The rows of one text are always the same, so a bounded memo keyed by the text
 * hands every request the same frozen arrays; the projection stage then renders each array once
 * (present/event.ts) instead of parsing, projecting and serializing the same previews on every
 * page (docs/performance.md, "Stored previews as text").
 *
 * Bounded by entry count, oldest entry first out: a page brings at most two texts per Event.
 */
import type { ArtistItemRow, VenueItemRow } from './items.js';

const MAX_ENTRIES = 4_096;
const parsed = new Map<string, unknown>();

/**
 * The column is written by json_agg of the preview statements' rows (catalogue/event-previews.ts):
 * an array, frozen with its rows since every request shares it. Anything else is returned as it
 * is, for the projection to refuse (a sanitized 500, present/event.ts).
 */
function frozenRows(text: string): unknown {
  const rows = JSON.parse(text) as unknown;
  if (!Array.isArray(rows)) return rows;
  for (const row of rows) Object.freeze(row);
  return Object.freeze(rows);
}

function rowsOf(text: string): unknown {
  let rows = parsed.get(text);
  if (rows === undefined) {
    rows = frozenRows(text);
    if (parsed.size >= MAX_ENTRIES) parsed.delete(parsed.keys().next().value as string);
    parsed.set(text, rows);
  }
  return rows;
}

export const storedArtistRows = (text: string) => rowsOf(text) as readonly ArtistItemRow[];
export const storedVenueRows = (text: string) => rowsOf(text) as readonly VenueItemRow[];
