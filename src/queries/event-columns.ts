/**
 * The Events' select lists: the cursor keys, an Event's own columns as ONE JSON text per row
 * (allow-listed per field), the per-request phase. Shared by the page statement (queries/events.ts)
 * and an Event detail's (queries/event-detail.ts).
 */
import type { TextValue } from '../db/raw-text.js';
import { EVENT_FIELDS, type EventField } from '../plan/event-fields.js';
import type { MediaColumns } from './items.js';
import { MEDIA_COLUMN_LIST } from './items.js';
import { phaseSql } from './phase.js';
import { dateText, keyText, utcText, type SortKey } from './sql.js';

/** Cursor key outputs k0…, as exact text (timestamptz text keeps all six fractional digits); the rank as a number. */
export const sortKeyOutputs = (keys: readonly SortKey[]) =>
  keys.map((k, i) => ({ name: `k${i}`, sql: k.cast === 'int2' ? k.expr : keyText(k.expr, k.cast) }));

/**
 * An Event's own columns of a selection (allow-listed per field): what the projection reads, by
 * column name. They reach Node as ONE JSON text per row (`own`), so that the rows of an Event that
 * did not change are the same text on every read: parsed once and rendered once per distinct text
 * (queries/event-own.ts, present/event.ts). Values are the driver's own for these expressions
 * (text, or text casts: dates, timestamps and integers; jsonb as its JSON).
 */
export interface EventOwnColumns extends Partial<MediaColumns> {
  public_id: string;
  slug?: string;
  name?: string;
  administrative_state_code?: string;
  description?: string | null;
  event_type_code?: string | null;
  links?: unknown;
  ticket_links?: unknown;
  digital_locations?: unknown;
  updated_at?: string;
  time_zone?: string;
  start_precision?: string;
  start_local_date?: string;
  start_local_time?: string | null;
  start_instant?: string | null;
  end_precision?: string | null;
  end_local_date?: string | null;
  end_local_time?: string | null;
  end_instant?: string | null;
}

export interface EventRow {
  id: string;
  public_id: string;
  /**
   * The selection's own columns: selected as one JSON array text (`ownText`), parsed once per
   * distinct text by queries/event-own.ts (the rows every read of this module hands on).
   */
  own: Readonly<EventOwnColumns>;
  /** The schedule's temporal phase at the operation time (when the schedule is selected). */
  phase?: string;
  basis?: string;
  /**
   * Stored previews (when the page statement reads them): null for an Event without a row;
   * `undefined` once the rows stage has moved them into the page's relations (events-read.ts).
   */
  stored_artists?: TextValue | null;
  stored_venues?: TextValue | null;
  /**
   * Rich previews (`include`, when the statement reads them: queries/event-relations.ts
   * `richPreviewColumns`): null for an Event without an active member; `undefined` once moved
   * into the page's relations, as the stored ones.
   */
  rich_artists?: TextValue | null;
  rich_venues?: TextValue | null;
  /** Direct Series and Edition programs (when the statement reads them), as JSON array texts. */
  series_json?: string | null;
  editions_json?: string | null;
  [key: `k${number}`]: string | number | null;
}

/** The own columns a selection needs (allow-list per field), as [name, expression]. */
function ownColumns(fields: readonly EventField[]): [keyof EventOwnColumns, string][] {
  const cols: [keyof EventOwnColumns, string][] = [['public_id', 'e.public_id']];
  const has = (f: EventField) => fields.includes(f);
  if (has('slug')) cols.push(['slug', 'e.slug']);
  if (has('name')) cols.push(['name', 'e.name']);
  if (has('administrativeStateCode')) cols.push(['administrative_state_code', 'e.administrative_state_code']);
  if (has('description')) cols.push(['description', 'e.description']);
  if (has('eventTypeCode')) cols.push(['event_type_code', 'e.event_type_code']);
  if (has('links')) cols.push(['links', 'e.links']);
  if (has('ticketLinks')) cols.push(['ticket_links', 'e.ticket_links']);
  if (has('digitalLocations')) cols.push(['digital_locations', 'e.digital_locations']);
  if (has('updatedAt')) cols.push(['updated_at', utcText('e.updated_at')]);
  if (has('schedule')) {
    cols.push(
      ['time_zone', 'e.time_zone'],
      ['start_precision', 'e.start_precision'],
      ['start_local_date', dateText('e.start_local_date')],
      ['start_local_time', 'e.start_local_time'],
      ['start_instant', 'e.start_instant'],
      ['end_precision', 'e.end_precision'],
      ['end_local_date', dateText('e.end_local_date')],
      ['end_local_time', 'e.end_local_time'],
      ['end_instant', 'e.end_instant'],
    );
  }
  if (has('profileMedia')) cols.push(...MEDIA_COLUMN_LIST('pm').map(([name, expr]) => [name as keyof MediaColumns, expr] as [keyof EventOwnColumns, string]));
  return cols;
}

/** The own columns' names of a selection, in their order in its text. */
export const ownColumnNames = (fields: readonly EventField[]): string[] => ownColumns(fields).map(([name]) => name);

/** Every own column's name, in ownColumns' order: a selection's own columns are a subsequence. */
const OWN_NAMES: readonly string[] = ownColumnNames(EVENT_FIELDS);

/** A selection's own column names as a short text: which of OWN_NAMES it has, as a bit mask in base 36. */
function ownSignature(names: readonly string[]): string {
  return names.reduce((mask, name) => mask + 2 ** OWN_NAMES.indexOf(name), 0).toString(36);
}

const namesBySignature = new Map<string, readonly string[]>();

/** The own column names an `ownText` array names by its first element; undefined for no selection's. */
export function ownNames(signature: string): readonly string[] | undefined {
  let names = namesBySignature.get(signature);
  if (names === undefined) {
    const mask = /^[0-9a-z]{1,7}$/.test(signature) ? parseInt(signature, 36) : NaN;
    if (!(mask > 0 && mask < 2 ** OWN_NAMES.length)) return undefined;
    names = OWN_NAMES.filter((_, i) => Math.floor(mask / 2 ** i) % 2 === 1);
    namesBySignature.set(signature, names);
  }
  return names;
}

/**
 * An Event's own columns of a selection as ONE JSON text: an array of the selection's signature
 * (`ownSignature`: which columns follow) and then the columns' values as texts (or null), the JSON
 * columns' as their JSON text (`JSON_OWN_COLUMNS`). Names are left out of the text: `json_build_object` looks up
 * the output rules of each argument's type on every row, names included (about twice the
 * arguments of the array). The signature keeps texts of two selections apart in
 * the memo (a slug and a name may be the same text).
 */
function ownText(fields: readonly EventField[]): string {
  const columns = ownColumns(fields);
  const signature = ownSignature(columns.map(([name]) => name));
  const texts = columns.map(([name, expr]) => (JSON_OWN_COLUMNS.has(name) ? `(${expr})::text` : expr));
  return `array_to_json(ARRAY['${signature}', ${texts.join(', ')}]::text[])::text`;
}

/**
 * The own columns stored as JSON (jsonb): in the array as their JSON text, a string that
 * queries/event-own.ts parses. Every value of the array is text, so that `array_to_json` looks up
 * the output rules of one type per row; `json_build_array` would look them up per argument and
 * row (docs/architecture.md#texts-the-rows-stage-only-compares).
 */
export const JSON_OWN_COLUMNS: ReadonlySet<keyof EventOwnColumns> = new Set<keyof EventOwnColumns>(['links', 'ticket_links', 'digital_locations']);

/**
 * The text columns of an Event row that the rows stage only compares with texts it holds and
 * parses when new (event-own.ts, preview-texts.ts): the driver may hand them over undecoded
 * (queries/statement.ts `rawText`).
 */
export const EVENT_RAW_TEXT: readonly string[] = ['own', 'stored_artists', 'stored_venues', 'rich_artists', 'rich_venues'];

/** A select-list entry: its output name and its expression. */
export interface Output {
  readonly name: string;
  readonly sql: string;
}

export const selectList = (outputs: readonly Output[]) => outputs.map((o) => `${o.sql} AS ${o.name}`).join(', ');

/** The outputs a selection needs: the row's keys, its own columns as one JSON text, the phase. */
export function eventOutputs(fields: readonly EventField[], now: () => string): Output[] {
  const outputs: Output[] = [
    { name: 'id', sql: 'e.id' },
    { name: 'public_id', sql: 'e.public_id' },
    { name: 'own', sql: ownText(fields) },
  ];
  if (fields.includes('schedule')) {
    const { phase, basis } = phaseSql('e', now());
    outputs.push({ name: 'phase', sql: phase }, { name: 'basis', sql: basis });
  }
  return outputs;
}

/** The select list of a selection (an Event detail's, and a page's before its sort keys). */
export function eventColumns(fields: readonly EventField[], now: () => string): string {
  return selectList(eventOutputs(fields, now));
}

/**
 * The outputs of an inner select list, handed on by an outer query: the page's columns, never the
 * typed order keys (o0…) it orders by, which the driver would otherwise parse into Dates on every
 * row.
 */
export const outputsOf = (alias: string, outputs: readonly Output[]) => outputs.map((o) => `${alias}.${o.name}`).join(', ');

