/**
 * The relationships an Event row carries in its own statement (an Events page's, an Event
 * detail's), each as one text column per Event instead of a statement of its own:
 *   - the stored plain Artist and Venue previews (`event_previews`, LEFT JOIN: null for an Event
 *     without a stored row, whose previews the preview statements read);
 *   - the rich ones (`include`: queries/event-relations.ts `richPreviewColumns`);
 *   - the direct Series and the Edition programs (queries/event-programs.ts, JSON arrays).
 * An Events page reads them after its LIMIT (queries/events.ts), so whatever plan picks the page
 * probes the memberships for its rows only. Each column is the text its own statement would
 * return for that Event (test/catalogue/event-previews.test.ts, test/http/event-members.test.ts).
 */
import type { EventField, EventInclude } from '../plan/event-fields.js';
import type { EventRow } from './event-columns.js';
import {
  anyPlain,
  plainPreviews,
  richPreviewColumns,
  richPreviews,
  type PlainPreviews,
  type PreviewTextRow,
  type StoredPreviewsRow,
} from './event-relations.js';
import { directSeriesJsonColumn, editionProgramsJsonColumn, type EditionProgramRow, type SeriesRefRow } from './event-programs.js';

/** What the Events' own statement read: no statement of their own then (queries/events-read.ts). */
export interface PrefetchedRelations {
  readonly stored?: StoredPreviewsRow[];
  /** Rich previews (`include`): one row per Event with an active member. */
  readonly richArtists?: PreviewTextRow[];
  readonly richVenues?: PreviewTextRow[];
  readonly series?: SeriesRefRow[];
  readonly editions?: EditionProgramRow[];
}

/**
 * The stored previews a page (or an Event detail) reads: its plain Artist and Venue previews, as
 * their JSON text (parsed once per distinct text by queries/preview-texts.ts, not by the driver on
 * every read).
 */
function storedPreviewColumns(plain: PlainPreviews): string[] {
  return [...(plain.artists ? ['ep.artists::text AS stored_artists'] : []), ...(plain.venues ? ['ep.venues::text AS stored_venues'] : [])];
}

/** The select-list columns of what the rows carry, and the join they read `event_previews` through (as `ep`; '' when none). */
export interface CarriedColumns {
  readonly columns: readonly string[];
  readonly join: string;
}

/** The columns for a selection, the Event's id being the SQL expression `eventId`. */
export function carriedColumns(fields: readonly EventField[], include: readonly EventInclude[], eventId: string): CarriedColumns {
  const plain = plainPreviews(fields, include);
  return {
    columns: [
      ...storedPreviewColumns(plain),
      ...richPreviewColumns(richPreviews(fields, include), eventId),
      ...(fields.includes('directEventSeries') ? [directSeriesJsonColumn(eventId)] : []),
      ...(fields.includes('editionPrograms') ? [editionProgramsJsonColumn(eventId)] : []),
    ],
    join: anyPlain(plain) ? `LEFT JOIN event_previews ep ON ep.event_id = ${eventId}` : '',
  };
}

/**
 * What the rows carry, moved out of them: the page's relations hold it from then on, parsed, and
 * the rows keep only what the projection reads (a page's inputs, present/events-page.ts, are its
 * rows' values: a text as the driver hands it over may be a RawText, a new object on every read).
 * Each value is set to undefined, not deleted: the rows keep their shape. Only what the rows
 * carry is returned: what they do not is read by its own statement (fetchEventRelations).
 */
export function takeCarried(rows: readonly EventRow[], fields: readonly EventField[], include: readonly EventInclude[]): PrefetchedRelations {
  const rich = richPreviews(fields, include);
  return {
    ...(anyPlain(plainPreviews(fields, include)) ? { stored: takeStoredPreviews(rows) } : {}),
    ...(rich.artists ? { richArtists: takeRichPreviews(rows, 'rich_artists') } : {}),
    ...(rich.venues ? { richVenues: takeRichPreviews(rows, 'rich_venues') } : {}),
    ...(fields.includes('directEventSeries') ? { series: takeMemberships<SeriesRefRow>(rows, 'series_json') } : {}),
    ...(fields.includes('editionPrograms') ? { editions: takeMemberships<EditionProgramRow>(rows, 'editions_json') } : {}),
  };
}

function takeStoredPreviews(rows: readonly EventRow[]): StoredPreviewsRow[] {
  const stored: StoredPreviewsRow[] = [];
  for (const r of rows) {
    const artists = r.stored_artists;
    const venues = r.stored_venues;
    if (artists === undefined && venues === undefined) continue;
    if (artists !== undefined) r.stored_artists = undefined;
    if (venues !== undefined) r.stored_venues = undefined;
    if (artists == null && venues == null) continue; // no stored row (the LEFT JOIN found none)
    stored.push({ owner_id: r.id, ...(artists != null ? { artists } : {}), ...(venues != null ? { venues } : {}) });
  }
  return stored;
}

/** The rich previews of the rows: none for an Event without an active member (a null column). */
function takeRichPreviews(rows: readonly EventRow[], column: 'rich_artists' | 'rich_venues'): PreviewTextRow[] {
  const taken: PreviewTextRow[] = [];
  for (const r of rows) {
    const items = r[column];
    if (items === undefined) throw new Error(`the Events' statement did not read ${column}`);
    r[column] = undefined;
    if (items !== null) taken.push({ owner_id: r.id, items });
  }
  return taken;
}

/** A membership array of each row, its rows tagged with the Event as the membership statements tag theirs. */
function takeMemberships<R extends { owner_id: string }>(rows: readonly EventRow[], column: 'series_json' | 'editions_json'): R[] {
  const taken: R[] = [];
  for (const r of rows) {
    const json = r[column];
    if (json == null) throw new Error(`the Events' statement did not read ${column}`);
    r[column] = undefined;
    for (const row of JSON.parse(json) as Omit<R, 'owner_id'>[]) taken.push({ ...row, owner_id: r.id } as R);
  }
  return taken;
}
