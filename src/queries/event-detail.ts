/**
 * GET /v1/events/{eventId}: one statement for what the Events page reads in several. The Event
 * row (the collection's allow-listed columns), its stored previews (LEFT JOIN, as the page
 * statement reads them) or rich ones (`include`, as the page statement reads them:
 * queries/event-relations.ts `richPreviewColumns`) and its direct Series and Edition programs
 * (each one JSON array text, the same rows as the page's relationship statements:
 * queries/event-programs.ts). Only an Event without stored previews takes more statements, the
 * collection's own (at most 2 more).
 */
import type { Reader } from '../db/reader.js';
import type { EventDetailControls } from '../controls/event-detail.js';
import { fetchEventRelations, takeCarriedPreviews, type EventRelationRows } from './events-read.js';
import { EVENT_RAW_TEXT } from './event-columns.js';
import { eventRows } from './event-own.js';
import { eventColumns, storedPreviewColumns, type EventRow } from './events.js';
import { anyPlain, plainPreviews, richPreviewColumns, richPreviews } from './event-relations.js';
import {
  directSeriesJsonColumn,
  editionProgramsJsonColumn,
  type EditionProgramRow,
  type SeriesRefRow,
} from './event-programs.js';
import { selectedMediaJoin } from './items.js';
import { Params } from './sql.js';
import type { Statement } from './statement.js';
import { ID_PROBES, NOW_PROBES, StatementMemo } from './statement-memo.js';

/** The detail's row: an Event row plus its memberships' JSON texts (when selected). */
interface EventDetailRow extends EventRow {
  series_json?: string;
  editions_json?: string;
}

export function eventDetailStatement(eventId: string, controls: EventDetailControls, now: string): Statement {
  const p = new Params();
  let nowParam: string | undefined;
  const columns = eventColumns(controls.fields, () => (nowParam ??= p.add(now, 'timestamptz')));
  const media = selectedMediaJoin('e', controls.fields);
  const plain = plainPreviews(controls.fields, controls.include);
  const related = [
    ...storedPreviewColumns(plain),
    ...richPreviewColumns(richPreviews(controls.fields, controls.include), 'e.id'),
    ...(controls.fields.includes('directEventSeries') ? [directSeriesJsonColumn()] : []),
    ...(controls.fields.includes('editionPrograms') ? [editionProgramsJsonColumn()] : []),
  ];
  const stored = anyPlain(plain) ? 'LEFT JOIN event_previews ep ON ep.event_id = e.id' : '';
  const text = `SELECT ${[columns, ...related].join(', ')}
    FROM events e ${media} ${stored}
    WHERE e.public_id = ${p.add(eventId)} AND e.active`;
  return { name: 'events.detail', text, values: p.values, stablePlan: true, rawText: EVENT_RAW_TEXT };
}

/** The detail's statement per field selection, the Event and the operation time as values (queries/statement-memo.ts). */
const details = new StatementMemo<{ readonly eventId: string; readonly controls: EventDetailControls; readonly now: string }>(
  64,
  ({ eventId, controls, now }) => eventDetailStatement(eventId, controls, now),
  { now: NOW_PROBES, eventId: ID_PROBES[0] },
);

/** eventDetailStatement, from the memo. */
export const detailStatement = (eventId: string, controls: EventDetailControls, now: string): Statement =>
  details.statement(JSON.stringify(controls), { eventId, controls, now });

/** A membership array of the detail's row, its rows tagged with the Event as the page's statements tag theirs. */
function ownedRows<R extends { owner_id: string }>(eventId: string, json: string | undefined): R[] | undefined {
  if (json === undefined) return undefined;
  return (JSON.parse(json) as Omit<R, 'owner_id'>[]).map((row) => ({ ...row, owner_id: eventId }) as R);
}

export async function fetchEventDetail(
  reader: Reader,
  eventId: string,
  controls: EventDetailControls,
  now: string,
): Promise<{ row: EventRow; relations: EventRelationRows } | null> {
  const [row] = (await eventRows(reader, detailStatement(eventId, controls, now))) as EventDetailRow[];
  if (row === undefined) return null;
  const relations = await fetchEventRelations(reader, [row.id], controls.fields, controls.include, {
    ...takeCarriedPreviews([row], controls.fields, controls.include),
    series: ownedRows<SeriesRefRow>(row.id, row.series_json),
    editions: ownedRows<EditionProgramRow>(row.id, row.editions_json),
  });
  return { row, relations };
}
