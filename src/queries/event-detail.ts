/**
 * GET /v1/events/{eventId}: one statement, as an Events page. The Event row (the collection's
 * allow-listed columns) and what it carries (queries/event-carried.ts: its stored or rich
 * previews, its direct Series and Edition programs). Only an Event without stored previews takes
 * more statements, the collection's own (at most 2 more).
 */
import type { Reader } from '../db/reader.js';
import type { EventDetailControls } from '../controls/event-detail.js';
import { fetchEventRelations, type EventRelationRows } from './events-read.js';
import { EVENT_RAW_TEXT } from './event-columns.js';
import { carriedColumns, takeCarried } from './event-carried.js';
import { eventRows } from './event-own.js';
import { eventColumns, type EventRow } from './events.js';
import { selectedMediaJoin } from './items.js';
import { Params } from './sql.js';
import type { Statement } from './statement.js';
import { ID_PROBES, NOW_PROBES, StatementMemo } from './statement-memo.js';

export function eventDetailStatement(eventId: string, controls: EventDetailControls, now: string): Statement {
  const p = new Params();
  let nowParam: string | undefined;
  const columns = eventColumns(controls.fields, () => (nowParam ??= p.add(now, 'timestamptz')));
  const media = selectedMediaJoin('e', controls.fields);
  const carried = carriedColumns(controls.fields, controls.include, 'e.id');
  const text = `SELECT ${[columns, ...carried.columns].join(', ')}
    FROM events e ${media} ${carried.join}
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

export async function fetchEventDetail(
  reader: Reader,
  eventId: string,
  controls: EventDetailControls,
  now: string,
): Promise<{ row: EventRow; relations: EventRelationRows } | null> {
  const [row] = await eventRows(reader, detailStatement(eventId, controls, now));
  if (row === undefined) return null;
  const relations = await fetchEventRelations(reader, [row.id], controls.fields, controls.include, takeCarried([row], controls.fields, controls.include));
  return { row, relations };
}
