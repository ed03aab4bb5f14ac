/**
 * Performance only (docs/architecture.md#one-term-searches): the shape of
 * a one-term search's page, chosen by PostgreSQL's planner once and then run as a prepared
 * statement.
 *
 * A page searched by one term (`nameContains`, `cityContains` or `countryContains`) has two good
 * plans, and which one depends on how many Events the term matches: a common term walks the
 * order's index and filters (`walk`: ≈ limit ÷ its share of Events), a rare one collects its
 * matches from the term's index and sorts them (`matches`: ∝ its matches). The planner picks from
 * the value's statistics, so the statement could not be prepared: every request paid its parsing
 * and planning, about half of its database time at 1M Events. Now the planner is asked once per
 * term (EXPLAIN of that same statement, remembered a while: db/plan-choices.ts), and the page
 * runs a statement written so that its one plan is the chosen one whatever the value, which is
 * then prepared and kept generic:
 *   - `walk`: the term through expressions no index holds (queries/bounded-scan.ts
 *     `unindexedMatchText`), so the planner can only walk the order's index;
 *   - `matches`: ordered by keys no index holds (`unindexed`), so it can only collect the term's
 *     matches and sort them (top-N), cut before the media join, as `current` is.
 * Both read exactly the rows of the statement the planner was asked about (the same conditions
 * and order; test/db/search-shape.test.ts compares them for every order, with and without a cursor).
 */
import type { EventsPlan } from '../plan/events.js';
import { boundedSearch } from './bounded-scan.js';

export type SearchShape = 'walk' | 'matches';

/**
 * What is remembered of the planner's answer for a term: the shape, and whether the page is
 * `heavy`, estimated to cost more than PIPELINED_COST (it then runs prepared on the pool, never
 * on a pipelined connection, where the statements sent after it would wait for it: db/pipeline.ts).
 */
export interface SearchChoice {
  readonly shape: SearchShape;
  readonly heavy: boolean;
}

/**
 * The planner's cost (its arbitrary units, of the plan for the request's values) above which a
 * shaped search stays off the pipelined connections: well above the unfiltered first page and a
 * common term's walk, below a term whose few thousand matches are collected and sorted.
 */
export const PIPELINED_COST = 2_000;

/**
 * A page whose only filter is one term that an index can narrow (a term without a trigram is a
 * bounded search, queries/bounded-scan.ts), in any order, with or without a cursor.
 */
export function shapedSearch(plan: EventsPlan): boolean {
  const c = plan.controls;
  const terms = [c.nameContains, c.cityContains, c.countryContains].filter((t) => t !== null).length;
  return (
    terms === 1 &&
    !boundedSearch(plan) &&
    c.temporalPhaseCode === null &&
    c.administrativeStateCode === null &&
    c.startInstantGte === null &&
    c.startInstantLt === null &&
    c.startLocalDateGte === null &&
    c.startLocalDateLt === null &&
    c.updatedSince === null &&
    c.context === null &&
    c.near === null
  );
}

/**
 * The rows (alias `e`) of a `cityContains` or `countryContains` page walked in the default order
 * (shape `walk`): its ids picked first, from `from` filtered by `where` in `order`, then their rows
 * read by id. That order's index holds the term's column (events_by_start_date, migration 021), so
 * the walk reads index entries only, not the heap page of every Event it passes (a common city
 * passes many Events per page; docs/architecture.md#city-and-country).
 */
export function walkedIds(from: string, where: readonly string[], order: string, limit: string): string {
  return `(SELECT e.* FROM (SELECT e.id FROM ${from}
        WHERE ${where.join('\n          AND ')}
        ORDER BY ${order}
        ${limit}) w JOIN events e ON e.id = w.id) e`;
}

/** What the choice depends on: the term and which column it searches, the order, a cursor or not. */
export function searchShapeKey(plan: EventsPlan): string {
  const c = plan.controls;
  return JSON.stringify([c.nameContains, c.cityContains, c.countryContains, c.sort, plan.after !== null]);
}

/** A node of PostgreSQL's EXPLAIN (FORMAT JSON) plan. */
export interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Total Cost'?: number;
  readonly Plans?: readonly PlanNode[];
}

/** The choice the planner's plan for a page (EXPLAIN's root node) makes. */
export function choiceOfPlan(root: PlanNode): SearchChoice {
  const cost = root['Total Cost'];
  return { shape: shapeOfPlan(root), heavy: !(typeof cost === 'number' && cost <= PIPELINED_COST) };
}

/**
 * The shape of the planner's plan for the page: it collected the matches when it sorts them
 * anywhere (a walk of the order's index reads them in order, with no sort).
 */
export function shapeOfPlan(root: PlanNode): SearchShape {
  const sorts = (node: PlanNode): boolean =>
    node['Node Type'] === 'Sort' || node['Node Type'] === 'Incremental Sort' || (node.Plans ?? []).some(sorts);
  return sorts(root) ? 'matches' : 'walk';
}
