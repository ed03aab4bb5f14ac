/**
 * Every page of an Events query read through a given read function, for the tests that compare
 * two ways of reading the same pages (bounded searches, search shapes): plans at one fixed time,
 * each next page from the last row's cursor.
 */
import assert from 'node:assert/strict';
import { parseEventControls } from '../../src/controls/events.js';
import { encodeCursor } from '../../src/controls/cursor.js';
import { parseQueryString } from '../../src/controls/query-string.js';
import { eventSortArity, planEvents, type EventsPlan } from '../../src/plan/events.js';
import { sortKeysOf } from '../../src/present/page.js';
import type { EventRow } from '../../src/queries/events.js';

export const NOW = new Date('2026-03-15T12:00:00Z');
export const SORTS = ['startLocalDate', '-startLocalDate', 'startInstant', '-startInstant', 'updatedAt'] as const;

export const plan = (qs: string): EventsPlan => planEvents('/v1/events', parseEventControls(parseQueryString(qs)), NOW);

const next = (qs: string, p: EventsPlan, last: EventRow) =>
  plan(`${qs}&cursor=${encodeURIComponent(encodeCursor(p.fingerprint, sortKeysOf(last as unknown as Record<string, unknown>, eventSortArity(p.controls.sort))))}`);

export type Read = (p: EventsPlan) => Promise<{ rows: EventRow[]; hasMore: boolean }>;

/** Every page of the query: each page's publicIds and hasMore. */
export async function traverse(qs: string, read: Read): Promise<{ ids: string[]; hasMore: boolean }[]> {
  const pages: { ids: string[]; hasMore: boolean }[] = [];
  let p = plan(qs);
  for (;;) {
    const { rows, hasMore } = await read(p);
    pages.push({ ids: rows.map((r) => r.public_id), hasMore });
    if (!hasMore) return pages;
    assert.ok(pages.length < 200, 'terminates');
    p = next(qs, p, rows.at(-1)!);
  }
}
