/**
 * An Event's previews as JSON text → their rows, parsed once per distinct text: the stored
 * previews (event_previews, read as text) and the preview statements' own (rich previews with
 * `include`, or an Event without a stored row: queries/event-relations.ts previewText). The rows
 * of one text are always the same, so a bounded memo of the texts hands every request the same
 * frozen arrays; the projection stage then renders each array once (present/event.ts) instead of
 * parsing, projecting and serializing the same previews on every page (docs/performance.md,
 * "Stored previews as text", "Rich previews as text").
 *
 * A slot (an Event) sees at most two texts of a kind: its plain previews and its rich ones. A
 * text is an array of rows, written by `to_jsonb` (stored) or `row_to_json` (live) of the
 * preview columns; anything else is returned as it is, for the projection to refuse (a
 * sanitized 500, present/event.ts).
 */
import type { ArtistItemRow, VenueItemRow } from './items.js';
import { TextMemo, deepFrozenJson } from './text-memo.js';

const artists = new TextMemo<unknown>(2_048, deepFrozenJson);
const venues = new TextMemo<unknown>(2_048, deepFrozenJson);

/** The previews of the Event with this (internal) id, from their text. */
export const artistPreviewRows = (eventId: string, text: string) => artists.get(eventId, text) as readonly ArtistItemRow[];
export const venuePreviewRows = (eventId: string, text: string) => venues.get(eventId, text) as readonly VenueItemRow[];
