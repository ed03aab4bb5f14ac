/**
 * Events' own columns arrive as one JSON text per row (queries/event-columns.ts `eventColumns`); this is
 * where the rows stage turns them into values: parsed once per distinct text into a frozen
 * object shared by every request that reads the same row (queries/text-memo.ts), so that the
 * projection renders each distinct row once (present/event.ts).
 *
 * 2,048 Events (each up to two selections); sizes in docs/performance.md ("Rendered once per
 * distinct row").
 */
import type { TextValue } from '../db/raw-text.js';
import type { Reader } from '../db/reader.js';
import type { EventOwnColumns, EventRow } from './events.js';
import type { Statement } from './statement.js';
import { TextMemo, deepFrozenJson } from './text-memo.js';

const own = new TextMemo<Readonly<EventOwnColumns>>(2_048, (text) => deepFrozenJson(text) as Readonly<EventOwnColumns>);

/** A row as the driver returns it: `own` is still the JSON text. */
type DriverEventRow = Omit<EventRow, 'own'> & { own: TextValue };

/** Runs an Events statement and hands back its rows with their own columns parsed. */
export async function eventRows(reader: Reader, statement: Statement): Promise<EventRow[]> {
  const rows = await reader.rows<DriverEventRow>(statement);
  for (const row of rows) (row as unknown as EventRow).own = own.get(row.id, row.own);
  return rows as unknown as EventRow[];
}
