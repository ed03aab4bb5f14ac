/**
 * One read of a page of Events: the page statement, which carries the page's relationships
 * (queries/event-carried.ts: the plain previews from the stored ones, the rich ones from the
 * members' stored texts, the direct Series and Edition programs), as an Event detail's statement
 * does (queries/event-detail.ts). Only the plain previews of Events that have no stored row take
 * statements of their own, one per member kind whatever the page size (none once the importer or
 * migration 005 ran).
 * At most 5 statements in all (spec Limits allow 8; a bounded search reads its page in two
 * parts, queries/bounded-scan.ts, and the first read of a one-term search asks the planner for its
 * shape before its page, queries/search-shape.ts); the relationship statements run concurrently
 * (at most 2 at once, within the Reader's limit).
 */
import type { TextValue } from '../db/raw-text.js';
import type { Reader } from '../db/reader.js';
import { EVENT_SORT_KEYS, type EventsPlan } from '../plan/events.js';
import { malformedCursor, type CursorKey } from '../controls/cursor.js';
import { keysMatch, type KeyKind } from '../controls/cursor-keys.js';
import type { EventField, EventInclude, EventSort } from '../plan/event-fields.js';
import {
  artistPreviewsStatement,
  anyPlain,
  plainPreviews,
  richPreviews,
  storedPreviewsStatement,
  venuePreviewsStatement,
  type PreviewTextRow,
  type StoredPreviewsRow,
} from './event-relations.js';
import {
  directSeriesStatement,
  editionProgramsStatement,
  type EditionProgramRow,
  type SeriesRefRow,
} from './event-programs.js';
import { eventRows } from './event-own.js';
import { takeCarried, type PrefetchedRelations } from './event-carried.js';
import { WALKED_ROWS, boundedSearch, type ScanPart } from './bounded-scan.js';
import type { Statement } from './statement.js';
import { NOW_PROBES, StatementMemo } from './statement-memo.js';
import { eventsPageStatement, type EventRow } from './events.js';
import { choiceOfPlan, searchShapeKey, shapedSearch, type PlanNode, type SearchChoice } from './search-shape.js';
import type { ArtistItemRow, VenueItemRow } from './items.js';
import { splitPage } from './page.js';
import { artistPreviewRows, venuePreviewRows } from './preview-texts.js';

export interface EventRelationRows {
  readonly artists: Map<string, readonly ArtistItemRow[]>;
  readonly venues: Map<string, readonly VenueItemRow[]>;
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

/** Each Event's previews from its text (parsed once per distinct text: queries/preview-texts.ts). */
function previewsByOwner<R>(rows: readonly PreviewTextRow[], parse: (eventId: string, text: TextValue) => readonly R[]): Map<string, readonly R[]> {
  return new Map(rows.map((row) => [row.owner_id, parse(row.owner_id, row.items)]));
}

/**
 * Reads the relationships of the given Events for the selected fields, except those `prefetched`
 * (what the Events' own statement carried): a statement per relationship, whatever the number of
 * Events. The statements are also the reference the carried columns are compared with
 * (test/catalogue/event-previews.test.ts, test/http/event-members.test.ts).
 */
export async function fetchEventRelations(
  reader: Reader,
  ids: string[],
  fields: readonly EventField[],
  include: readonly EventInclude[],
  prefetched: PrefetchedRelations = {},
): Promise<EventRelationRows> {
  const none = Promise.resolve([]);
  const want = (f: EventField) => ids.length > 0 && fields.includes(f);
  const rich = richPreviews(fields, include);
  const plain = plainPreviews(fields, include);
  const fromStore = ids.length > 0 && anyPlain(plain);
  const probe = () => reader.rows<StoredPreviewsRow>(storedPreviewsStatement(ids, plain));
  const [stored, artists, venues, series, editions] = await Promise.all([
    fromStore ? (prefetched.stored ?? probe()) : none,
    ids.length > 0 && rich.artists ? (prefetched.richArtists ?? reader.rows<PreviewTextRow>(artistPreviewsStatement(ids, true))) : none,
    ids.length > 0 && rich.venues ? (prefetched.richVenues ?? reader.rows<PreviewTextRow>(venuePreviewsStatement(ids, true))) : none,
    want('directEventSeries') ? (prefetched.series ?? reader.rows<SeriesRefRow>(directSeriesStatement(ids))) : none,
    want('editionPrograms') ? (prefetched.editions ?? reader.rows<EditionProgramRow>(editionProgramsStatement(ids))) : none,
  ]);
  const relations: EventRelationRows = {
    artists: previewsByOwner(artists as PreviewTextRow[], artistPreviewRows),
    venues: previewsByOwner(venues as PreviewTextRow[], venuePreviewRows),
    series: groupByOwner(series as SeriesRefRow[]),
    editions: groupByOwner(editions as EditionProgramRow[]),
  };
  if (fromStore) {
    for (const row of stored as StoredPreviewsRow[]) {
      if (row.artists != null) relations.artists.set(row.owner_id, artistPreviewRows(row.owner_id, row.artists));
      if (row.venues != null) relations.venues.set(row.owner_id, venuePreviewRows(row.owner_id, row.venues));
    }
    // Events without a stored row (none once the importer or migration 005 ran): read live.
    const have = new Set((stored as StoredPreviewsRow[]).map((r) => r.owner_id));
    const missing = ids.filter((id) => !have.has(id));
    if (missing.length > 0) {
      const [a, v] = await Promise.all([
        plain.artists ? reader.rows<PreviewTextRow>(artistPreviewsStatement(missing, false)) : none,
        plain.venues ? reader.rows<PreviewTextRow>(venuePreviewsStatement(missing, false)) : none,
      ]);
      for (const [id, list] of previewsByOwner(a as PreviewTextRow[], artistPreviewRows)) relations.artists.set(id, list);
      for (const [id, list] of previewsByOwner(v as PreviewTextRow[], venuePreviewRows)) relations.venues.set(id, list);
    }
  }
  return relations;
}

interface PageStatementInput {
  readonly now: string;
  readonly plan: EventsPlan;
  readonly scan: ScanPart | undefined;
  readonly choice: SearchChoice | undefined;
}

/** First pages' statements, kept per route, controls, part and shape (queries/statement-memo.ts). */
const firstPages = new StatementMemo<PageStatementInput>(
  256,
  ({ now, plan, scan, choice }) => eventsPageStatement(now === plan.now ? plan : { ...plan, now }, scan, choice),
  { now: NOW_PROBES },
);

/** A cursor page's input: the cursor's keys one by one (k0…), each probed as a value. */
interface CursorPageInput extends PageStatementInput {
  readonly k0?: CursorKey;
  readonly k1?: CursorKey;
  readonly k2?: CursorKey;
  readonly k3?: CursorKey;
}
const KEY_NAMES = ['k0', 'k1', 'k2', 'k3'] as const;

/**
 * Two values of each kind of cursor key (plan/events.ts checks a cursor's keys are of these kinds
 * before any statement is built), none equal to another kind's, to NOW_PROBES or to anything the
 * builder derives from them.
 */
const KEY_PROBES: Readonly<Record<KeyKind, readonly [CursorKey, CursorKey]>> = {
  date: ['1971-02-03', '1983-04-05'],
  rank: [0, 1],
  timestamp: ['1972-03-04 05:06:07.1+00', '1984-05-06 07:08:09.2+00'],
  timestampOrMinusInfinity: ['1973-04-05 06:07:08.3+00', '1985-06-07 08:09:10.4+00'],
  publicId: ['probeAAAAAA1', 'probeBBBBBB2'],
  name: ['probe name a', 'probe name b'],
  distance: ['0.5', '1.5'],
};

/**
 * Cursor pages' statements, one memo per sort (its keys' kinds give the probes): every page of a
 * traversal has the same controls, so its statement is learnt on the second page and later pages
 * only put their cursor's keys in.
 */
export function cursorPagesMemo(
  kinds: readonly KeyKind[],
  capacity: number,
  build: typeof eventsPageStatement = eventsPageStatement,
): StatementMemo<CursorPageInput> {
  return new StatementMemo<CursorPageInput>(
    capacity,
    (input) => build({ ...input.plan, now: input.now, after: kinds.map((_, i) => input[KEY_NAMES[i]!] as CursorKey) }, input.scan, input.choice),
    { now: NOW_PROBES, ...Object.fromEntries(kinds.map((kind, i) => [KEY_NAMES[i], KEY_PROBES[kind]])) },
  );
}
const cursorPages = Object.fromEntries(
  Object.entries(EVENT_SORT_KEYS).map(([sort, kinds]) => [sort, cursorPagesMemo(kinds, 256)]),
) as Record<EventSort, StatementMemo<CursorPageInput>>;

/** The input of cursorPagesMemo's statement for a cursor page: the page's own, and its cursor's keys as k0… */
export function cursorPageInput(plan: EventsPlan, scan?: ScanPart, choice?: SearchChoice): CursorPageInput {
  // every key named, absent ones undefined: one shape for every input (a spread of the keys built
  // a hidden class per object, plan/collection.ts `withBase`)
  const after = plan.after ?? [];
  return { now: plan.now, plan, scan, choice, k0: after[0], k1: after[1], k2: after[2], k3: after[3] };
}

/**
 * eventsPageStatement, from the memo. Its key is everything the builder reads but `now` and the
 * cursor's keys: the route, the controls (their normalized query, which determines them: parsed
 * again it gives the same controls, test/unit/events-controls.test.ts), the bounded search's part
 * and the search's shape. A cursor's keys are only ever parameters (`keysetAfter`), -infinity too.
 */
export function pageStatement(plan: EventsPlan, scan?: ScanPart, choice?: SearchChoice): Statement {
  const part = scan === undefined ? '' : `${scan.part} ${scan.rows}`;
  const shape = choice === undefined ? '' : `${choice.shape} ${choice.heavy}`;
  const key = `${plan.path}?${plan.normalizedQuery}#${part}#${shape}`;
  const after = plan.after;
  if (after === null) return firstPages.statement(key, { now: plan.now, plan, scan, choice });
  // what keysetAfter checks when it builds: a statement from the memo puts the keys in unbuilt
  // (planEvents checked them first; this keeps the query layer's own guard)
  if (!keysMatch(EVENT_SORT_KEYS[plan.controls.sort], after)) throw malformedCursor();
  return cursorPages[plan.controls.sort].statement(key, cursorPageInput(plan, scan, choice));
}

/**
 * The page's rows (limit + 1): one statement, or for a search no index narrows the walked part
 * and, when it did not fill the page, the rest (queries/bounded-scan.ts).
 */
async function pageRows(reader: Reader, plan: EventsPlan, walkedRows: number): Promise<EventRow[]> {
  if (shapedSearch(plan) && reader.planChoices !== undefined) return eventRows(reader, pageStatement(plan, undefined, await searchChoice(reader, plan)));
  if (!boundedSearch(plan)) return eventRows(reader, pageStatement(plan));
  const walked = await eventRows(reader, pageStatement(plan, { part: 'walked', rows: walkedRows }));
  if (walked.length > plan.limit) return walked;
  const rest = await eventRows(reader, pageStatement(plan, { part: 'rest', rows: walkedRows }));
  return [...walked, ...rest].slice(0, plan.limit + 1);
}

/**
 * The shape of a one-term search's page (queries/search-shape.ts): remembered, else the planner's
 * choice for the page statement with this request's values (one EXPLAIN, no execution).
 */
async function searchChoice(reader: Reader, plan: EventsPlan): Promise<SearchChoice> {
  const choose = async () => {
    const page = pageStatement(plan);
    const [row] = await reader.rows<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>({
      name: 'events.pagePlan',
      text: `EXPLAIN (FORMAT JSON) ${page.text}`,
      values: page.values,
    });
    return choiceOfPlan(row!['QUERY PLAN'][0]!.Plan);
  };
  return reader.planChoices!.get(searchShapeKey(plan), choose);
}

/** `walkedRows`: the bounded search's walk (tests pass their own). */
export async function fetchEventsPage(reader: Reader, plan: EventsPlan, walkedRows = WALKED_ROWS): Promise<EventsPageRows> {
  const { rows, hasMore } = splitPage(await pageRows(reader, plan, walkedRows), plan.limit);
  const { fields, include } = plan.controls;
  const relations = await fetchEventRelations(reader, rows.map((r) => r.id), fields, include, takeCarried(rows, fields, include));
  return { rows, hasMore, relations };
}
