/**
 * Events searched by a name term that no index can narrow, read in two bounded parts.
 *
 * pg_trgm takes trigrams from runs of three letters or digits of a LIKE pattern; a term without
 * one (`xx`, `dj`, `a-b`, `%_%`) gives it nothing, so the name indexes cannot serve it and the
 * planner walks the order's index, filtering every Event it passes. When the term is common
 * (`dj`) the walk finds its page after a few hundred Events; when it is rare or absent the walk
 * visits every active Event in index order, one heap page per Event: at 1,000,000 Events
 * `nameContains=xx` ran 3.5 s and ended at the 3 s statement timeout, a 503 for a valid query.
 *
 * The same holds for `cityContains` and `countryContains` (the primary Venue's keys on the Event,
 * each with its trigram index): `cityContains=xx` walked every Event, 0.75 s at 1M.
 *
 * So such a search is read in two parts (queries/events-read.ts):
 *   - `walked`: the first WALKED_ROWS active Events of the order after the cursor, taken from the
 *     order's index, then filtered: the page when it is there (a common term: one statement);
 *   - `rest`, only when the walked part did not fill the page: every Event after the last walked
 *     one, by a sequential scan (ordered by keys no index holds, so no index walk can be chosen),
 *     filtered, then sorted (top-N). Cost ∝ the table, paid once per page, not per Event in
 *     index order: ≈ 0.4 s of one backend for `xx` at 1M (sessions run without parallel
 *     workers, src/db/database.ts).
 * The walked part's last Event is found by the rest statement itself (its keys, `walked`), so
 * the parts meet exactly: the rest starts strictly after it, and when the walk reached the end of
 * the table there is no such Event and the rest is empty. Together they are the rows the one
 * statement would return (test/db/bounded-scan.test.ts compares them for every order).
 */
import type { EventsPlan } from '../plan/events.js';
import { foldName, lowerName } from '../text/normalize.js';
import type { NearWalk } from './near-events.js';
import { keysetAfterSql, orderBy, type SortKey } from './sql.js';

/** Events the walked part takes from the order's index before filtering. */
export const WALKED_ROWS = 5_000;

/** Which part of a bounded search a statement reads, and the walk's length (tests pass their own). */
export interface ScanPart {
  readonly part: 'walked' | 'rest';
  readonly rows: number;
}

/** No run of three letters or digits: pg_trgm can take no trigram from the term (see above). */
export const trigramFree = (term: string): boolean => !/[\p{L}\p{N}]{3}/u.test(term);

/** Which of the plan's search terms no trigram index can narrow. */
export interface TermsWithoutTrigram {
  readonly name: boolean;
  readonly city: boolean;
  readonly country: boolean;
}

/** Per controls object: a page asks several times (its reading, its statement), each ask folding and matching the terms. */
const withoutTrigram = new WeakMap<EventsPlan['controls'], TermsWithoutTrigram>();

export function termsWithoutTrigram(plan: EventsPlan): TermsWithoutTrigram {
  const c = plan.controls;
  const known = withoutTrigram.get(c);
  if (known !== undefined) return known;
  const free = (term: string | null) => term !== null && trigramFree(lowerName(term));
  const terms = {
    name: c.nameContains !== null && (trigramFree(lowerName(c.nameContains)) || trigramFree(foldName(c.nameContains))),
    city: free(c.cityContains),
    country: free(c.countryContains),
  };
  withoutTrigram.set(c, terms);
  return terms;
}

/**
 * Whether the plan's page is read in two bounded parts: a `nameContains`, `cityContains` or
 * `countryContains` term from which no index can take a trigram, in any order (`cityContains=xx`
 * walked every Event: 0.75 s at 1M, 1.7 s with `upcoming`). With `near` in the default order the
 * walked part is the near walk's first Events (queries/near-events.ts): near London with a 500 km
 * radius, a rare such term walked ≈ 45,000 Events' positions, 2.4 s at 1M. In the rest part only
 * the terms without a trigram are matched through expressions no index holds (queries/events.ts).
 */
export function boundedSearch(plan: EventsPlan): boolean {
  const free = termsWithoutTrigram(plan);
  return free.name || free.city || free.country;
}

function walkLength(rows: number): string {
  if (!Number.isSafeInteger(rows) || rows < 1 || rows > 1_000_000) throw new Error(`walk length ${rows} out of range`);
  return String(rows);
}

/** A text as an expression no index holds (the same value, its collation kept): for an order. */
export const unindexedText = (expr: string): string => `(${expr} || '')`;

/**
 * A text column as an expression no index holds, for LIKE alone: the column under the explicit
 * collation "C". An index serves a clause only under the index's own collation, and the columns
 * matched so (the Events' name and place keys) have the default one, as have their indexes; LIKE
 * matches byte for byte under every deterministic collation, so the rows are the same. Nothing is
 * built per row, where `unindexedText` builds a new text for every row a walk filters.
 * test/db/like-forms.test.ts checks both engines keep the trigram
 * index off it, and the rows.
 */
export const unindexedMatchText = (expr: string): string => `(${expr} COLLATE "C")`;

/**
 * A sort key as an expression no index holds, of the same value and order (a date or an integer
 * plus 0, a timestamp plus no time, a text followed by nothing, its collation kept): the rest part
 * orders and bounds its rows by these, so the planner cannot walk the order's index (a sequential
 * scan then sorts the matches). An `OFFSET 0` fence did the same at nearly twice the cost: every
 * column of every Event was formed into the fenced subquery's rows (0.71 s against 0.41 s for
 * `xx` at 1M, one backend).
 */
export function unindexed(key: SortKey): SortKey {
  switch (key.cast) {
    case 'date':
    case 'int2':
      return { ...key, expr: `(${key.expr} + 0)` };
    case 'timestamptz':
      return { ...key, expr: `(${key.expr} + interval '0')` };
    case 'text':
      return { ...key, expr: unindexedText(key.expr) };
    default:
      throw new Error(`no unindexed form for a ${key.cast} key`);
  }
}

/**
 * The FROM source of the walked part (alias `e`), given the walk's own conditions (active, the
 * order's own requirement, the cursor): the first `rows` Events of the order.
 */
export function walkedSource(scan: ScanPart, keys: readonly SortKey[], walk: readonly string[]): string {
  return `(SELECT e.* FROM events e
      WHERE ${walk.join(' AND ')}
      ORDER BY ${orderBy(keys)}
      LIMIT ${walkLength(scan.rows)}) e`;
}

/**
 * The same for the near walk (queries/near-events.ts: `near` in the default order): its first
 * `rows` Events (each once, from the cursor on), joined to their rows `e`.
 */
export function nearWalkedSource(scan: ScanPart, walk: NearWalk): string {
  return `(SELECT np.* FROM ${walk.rows}
      ORDER BY ${orderBy(walk.keys)}
      LIMIT ${walkLength(scan.rows)}) np JOIN events e ON e.id = np.event_id`;
}

/** The walk's last Event, as the statements of both parts need it. */
export interface AfterWalk {
  /** `WITH walked AS (…)`: the keys of the walk's last Event; no row when fewer Events remained than the walk takes. */
  readonly prefix: string;
  /**
   * Conditions of the rest part: a walk that took fewer Events than its length reached the end of
   * the order, and then nothing is read (a condition without a column of the scan: PostgreSQL tests
   * it once, before the scan); otherwise strictly after the walk's last Event, on the unindexed
   * keys (a range of the order's index from there would be the walk again).
   */
  readonly after: readonly string[];
}

/** `keys`: the page order on `e`; `walkKeys`, `from`, `conditions`: the walk's order, FROM and WHERE. */
function lastWalked(scan: ScanPart, keys: readonly SortKey[], walkKeys: readonly SortKey[], from: string, conditions: readonly string[]): AfterWalk {
  const where = conditions.length > 0 ? `\n      WHERE ${conditions.join(' AND ')}` : '';
  const prefix = `WITH walked AS MATERIALIZED (SELECT ${walkKeys.map((k, i) => `${k.expr} AS b${i}`).join(', ')}
      FROM ${from}${where}
      ORDER BY ${orderBy(walkKeys)}
      OFFSET ${Number(walkLength(scan.rows)) - 1} LIMIT 1)
    `;
  const after = keysetAfterSql(keys.map(unindexed), keys.map((_, i) => `(SELECT w.b${i} FROM walked w)`));
  return { prefix, after: ['EXISTS (SELECT 1 FROM walked)', after] };
}

export const afterWalk = (scan: ScanPart, keys: readonly SortKey[], walk: readonly string[]): AfterWalk =>
  lastWalked(scan, keys, keys, 'events e', walk);

/** The near walk's last Event (the page order `keys` on `e`). */
export const afterNearWalk = (scan: ScanPart, keys: readonly SortKey[], walk: NearWalk): AfterWalk =>
  lastWalked(scan, keys, walk.keys, walk.rows, []);
