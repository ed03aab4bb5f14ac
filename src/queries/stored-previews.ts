/**
 * The stored previews' JSON text (event_previews, read as text) → their rows, parsed once per
 * distinct text. The rows of one text are always the same, so a bounded memo of the texts
 * hands every request the same frozen arrays; the projection stage then renders each array once
 * (present/event.ts) instead of parsing, projecting and serializing the same previews on every
 * page (docs/performance.md, "Stored previews as text").
 *
 * A page brings at most two texts per Event. The column is written by json_agg of the preview
 * statements' rows (catalogue/event-previews.ts): an array of rows. Anything else is returned as
 * it is, for the projection to refuse (a sanitized 500, present/event.ts).
 */
import type { ArtistItemRow, VenueItemRow } from './items.js';
import { TextMemo, deepFrozenJson } from './text-memo.js';

const artists = new TextMemo<unknown>(2_048, deepFrozenJson);
const venues = new TextMemo<unknown>(2_048, deepFrozenJson);

/** The stored previews of the Event with this (internal) id. */
export const storedArtistRows = (eventId: string, text: string) => artists.get(eventId, text) as readonly ArtistItemRow[];
export const storedVenueRows = (eventId: string, text: string) => venues.get(eventId, text) as readonly VenueItemRow[];
