/**
 * One read of a page of Events: the page statement, then one statement per selected
 * relationship (at most 5 in all, whatever the page size: spec Limits allow 8). The relationship
 * statements run concurrently (at most 3 at once, enforced by the Reader).
 */
import type { Reader } from '../db/reader.js';
import type { EventsPlan } from '../plan/events.js';
import type { EventField, EventInclude } from '../plan/event-fields.js';
import {
  artistPreviewsStatement,
  directSeriesStatement,
  editionProgramsStatement,
  venuePreviewsStatement,
  type EditionProgramRow,
  type SeriesRefRow,
} from './event-relations.js';
import { eventsPageStatement, type EventRow } from './events.js';
import type { ArtistItemRow, VenueItemRow } from './items.js';
import { splitPage } from './page.js';

export interface EventRelationRows {
  readonly artists: Map<string, ArtistItemRow[]>;
  readonly venues: Map<string, VenueItemRow[]>;
  readonly series: Map<string, SeriesRefRow[]>;
  readonly editions: Map<string, EditionProgramRow[]>;
}

export interface EventsPageRows {
  readonly rows: EventRow[];
  readonly hasMore: boolean;
  readonly relations: EventRelationRows;
}

function groupByOwner<R extends { owner_id?: string }>(rows: R[]): Map<string, R[]> {
  const groups = new Map<string, R[]>();
  for (const row of rows) {
    const key = row.owner_id as string;
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

/** Reads the relationships of the given Events for the selected fields. */
export async function fetchEventRelations(
  reader: Reader,
  ids: string[],
  fields: readonly EventField[],
  include: readonly EventInclude[],
): Promise<EventRelationRows> {
  const none = Promise.resolve([]);
  const want = (f: EventField) => ids.length > 0 && fields.includes(f);
  const [artists, venues, series, editions] = await Promise.all([
    want('artists') ? reader.rows<ArtistItemRow>(artistPreviewsStatement(ids, include.includes('artists'))) : none,
    want('venues') ? reader.rows<VenueItemRow>(venuePreviewsStatement(ids, include.includes('venues'))) : none,
    want('directEventSeries') ? reader.rows<SeriesRefRow>(directSeriesStatement(ids)) : none,
    want('editionPrograms') ? reader.rows<EditionProgramRow>(editionProgramsStatement(ids)) : none,
  ]);
  return {
    artists: groupByOwner(artists as ArtistItemRow[]),
    venues: groupByOwner(venues as VenueItemRow[]),
    series: groupByOwner(series as SeriesRefRow[]),
    editions: groupByOwner(editions as EditionProgramRow[]),
  };
}

export async function fetchEventsPage(reader: Reader, plan: EventsPlan): Promise<EventsPageRows> {
  const { rows, hasMore } = splitPage(await reader.rows<EventRow>(eventsPageStatement(plan)), plan.limit);
  const relations = await fetchEventRelations(
    reader,
    rows.map((r) => r.id),
    plan.controls.fields,
    plan.controls.include,
  );
  return { rows, hasMore, relations };
}
