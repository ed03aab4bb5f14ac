/**
 * GET /v1/events/{eventId}: the Event row (the collection's allow-listed columns) and its
 * relationships through the collection's own relationship statements (at most 5 in all).
 */
import type { Reader } from '../db/reader.js';
import type { EventDetailControls } from '../controls/event-detail.js';
import { fetchEventRelations, type EventRelationRows } from './events-read.js';
import { eventRows } from './event-own.js';
import { eventColumns, type EventRow } from './events.js';
import { selectedMediaJoin } from './items.js';
import { Params } from './sql.js';
import type { Statement } from './statement.js';

export function eventDetailStatement(eventId: string, controls: EventDetailControls, now: string): Statement {
  const p = new Params();
  let nowParam: string | undefined;
  const columns = eventColumns(controls.fields, () => (nowParam ??= p.add(now, 'timestamptz')));
  const media = selectedMediaJoin('e', controls.fields);
  const text = `SELECT ${columns}
    FROM events e ${media}
    WHERE e.public_id = ${p.add(eventId)} AND e.active`;
  return { name: 'events.detail', text, values: p.values, stablePlan: true };
}

export async function fetchEventDetail(
  reader: Reader,
  eventId: string,
  controls: EventDetailControls,
  now: string,
): Promise<{ row: EventRow; relations: EventRelationRows } | null> {
  const [row] = await eventRows(reader, eventDetailStatement(eventId, controls, now));
  if (row === undefined) return null;
  const relations = await fetchEventRelations(reader, [row.id], controls.fields, controls.include);
  return { row, relations };
}
