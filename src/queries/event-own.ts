/**
 * Events' own columns arrive as one JSON text per row (queries/event-columns.ts `ownText`); this is
 * where the rows stage turns them into values: parsed once per distinct text into a frozen
 * object shared by every request that reads the same row (queries/text-memo.ts), so that the
 * projection renders each distinct row once (present/event.ts).
 *
 * 2,048 Events (each up to two selections; docs/architecture.md#memory-bounds).
 */
import type { TextValue } from '../db/raw-text.js';
import type { Reader } from '../db/reader.js';
import { JSON_OWN_COLUMNS, ownNames } from './event-columns.js';
import type { EventOwnColumns, EventRow } from './events.js';
import type { Statement } from './statement.js';
import { deepFreeze } from '../text/deep-freeze.js';
import { TextMemo } from './text-memo.js';

/**
 * An own-columns text (event-columns.ts `ownText`: the selection's signature, then its values) →
 * the columns by name (a JSON column's text parsed), frozen. A text of no selection's shape is a fault of the statement, never
 * of the data: it throws, and the request ends in the sanitized 500.
 */
export function parseOwnText(text: string): Readonly<EventOwnColumns> {
  const values = JSON.parse(text) as unknown;
  const names = Array.isArray(values) && typeof values[0] === 'string' ? ownNames(values[0]) : undefined;
  if (names === undefined || names.length !== (values as unknown[]).length - 1) {
    throw new Error("an Event row's own columns are not a selection's array");
  }
  const row: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i]! as keyof EventOwnColumns;
    const value = (values as unknown[])[i + 1];
    // a JSON column arrives as its JSON text (event-columns.ts `JSON_OWN_COLUMNS`)
    row[name] = typeof value === 'string' && JSON_OWN_COLUMNS.has(name) ? (JSON.parse(value) as unknown) : value;
  }
  return deepFreeze(row) as Readonly<EventOwnColumns>;
}

const own = new TextMemo<Readonly<EventOwnColumns>>(2_048, parseOwnText);

/** A row as the driver returns it: `own` is still the JSON text. */
type DriverEventRow = Omit<EventRow, 'own'> & { own: TextValue };

/** Runs an Events statement and hands back its rows with their own columns parsed. */
export async function eventRows(reader: Reader, statement: Statement): Promise<EventRow[]> {
  const rows = await reader.rows<DriverEventRow>(statement);
  for (const row of rows) (row as unknown as EventRow).own = own.get(row.id, row.own);
  return rows as unknown as EventRow[];
}
