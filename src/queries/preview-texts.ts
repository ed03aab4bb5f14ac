/**
 * An Event's previews as JSON text → their rows, parsed once per distinct text: the stored
 * previews (event_previews, read as text) and the preview statements' own (rich previews with
 * `include`, or an Event without a stored row: queries/event-relations.ts previewText). The rows
 * of one text are always the same, so a bounded memo of the texts hands every request the same
 * frozen arrays; the projection stage then renders each array once (present/event.ts) instead of
 * parsing, projecting and serializing the same previews on every page
 * (docs/architecture.md#texts-the-rows-stage-only-compares).
 *
 * A slot (an Event) sees at most two texts of a kind: its plain previews and its rich ones. A
 * text is an array of rows. The stored previews write each row as the array of its values
 * (event-relations.ts `STORED_PREVIEW_NAMES`), zipped here with their names; the live statements
 * write objects (`row_to_json`), as do stored previews in the older object form, which stay
 * valid. Anything else, a stored row of another length included, is returned as it is, for
 * the projection to refuse (a sanitized 500, present/event.ts).
 */
import { STORED_PREVIEW_NAMES } from './event-relations.js';
import type { ArtistItemRow, VenueItemRow } from './items.js';
import type { TextValue } from '../db/raw-text.js';
import { deepFreeze } from '../text/deep-freeze.js';
import { TextMemo } from './text-memo.js';

/** A preview text → its rows (frozen: they are shared by requests); `names`: a stored row's. */
export function parsePreviewText(text: string, names: readonly string[]): unknown {
  const value = JSON.parse(text) as unknown;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const values = value[i] as unknown;
      if (!Array.isArray(values) || values.length !== names.length) continue;
      const row: Record<string, unknown> = {};
      for (let j = 0; j < names.length; j++) row[names[j]!] = values[j];
      value[i] = row;
    }
  }
  return deepFreeze(value);
}

const artists = new TextMemo<unknown>(2_048, (text) => parsePreviewText(text, STORED_PREVIEW_NAMES.artists));
const venues = new TextMemo<unknown>(2_048, (text) => parsePreviewText(text, STORED_PREVIEW_NAMES.venues));

/** The previews of the Event with this (internal) id, from their text. */
export const artistPreviewRows = (eventId: string, text: TextValue) => artists.get(eventId, text) as readonly ArtistItemRow[];
export const venuePreviewRows = (eventId: string, text: TextValue) => venues.get(eventId, text) as readonly VenueItemRow[];
