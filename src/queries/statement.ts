/** A parameterized SQL statement: the only thing the query layer hands to the database. */
export interface Statement {
  /** A short label for logs and statement accounting. */
  readonly name: string;
  readonly text: string;
  readonly values: readonly unknown[];
  /**
   * True when the best plan does not depend on the parameter values (lookups by key, preview
   * joins over a page's ids, unfiltered keyset walks, a walk whose only filter is a range of its
   * sort index's leading column with the bounds written as sub-SELECTs, the near grid walk). The
   * database layer may then prepare the statement once per connection and let PostgreSQL reuse a
   * generic plan, which skips planning (a large share of a page's database time:
   * docs/architecture.md#prepared-statements). Statements whose plan depends on the values (text search, context
   * memberships, other filters) stay unprepared: a generic plan chosen for a common term would
   * walk the whole catalogue for a rare one. A one-term search written for the plan the planner
   * chose for its term is stable too (queries/search-shape.ts).
   */
  readonly stablePlan?: boolean;
  /**
   * A stable statement expected to cost more than a pipelined connection should make the
   * statements behind it wait for (a one-term search whose term the planner prices high:
   * queries/search-shape.ts): prepared, but run on the pool, never on a pipelined connection
   * (db/pipeline.ts).
   */
  readonly heavy?: boolean;
  /**
   * Output columns of type `text` that the rows stage only compares with a text it holds, and
   * parses when new (an Event's own columns, its stored previews): the database layer may hand
   * them over undecoded, as `RawText` (db/raw-text.ts), and the rows stage takes both.
   */
  readonly rawText?: readonly string[];
}
