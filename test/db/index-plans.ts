/**
 * Plans of page statements as PostgreSQL would run them on a large catalogue, asked of a test's
 * small one: with sequential and bitmap scans off (cheaper at this size), a read must use an
 * index scan, and it is index-only when the index holds every column the read needs. Shared by
 * the tests that require a page to read its candidates from an index's entries alone.
 */
import type pg from 'pg';
import type { Database } from '../../src/db/database.js';
import type { Statement } from '../../src/queries/statement.js';

/** A node of EXPLAIN (FORMAT JSON)'s plan, as far as these tests read it. */
export interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Index Name'?: string;
  readonly Filter?: string;
  readonly Plans?: readonly PlanNode[];
}

/** Explains statements on one connection of `db` whose sequential and bitmap scans are off. */
export interface IndexPlans {
  /** EXPLAIN's text lines. */
  text(statement: Statement): Promise<string>;
  /** EXPLAIN (FORMAT JSON)'s root node. */
  tree(statement: Statement): Promise<PlanNode>;
}

/** The statement with its values written in (what the planner sees for a custom plan). */
function inlined(statement: Statement): string {
  const args = statement.values.map((v) => `'${String(v).replace(/'/g, "''")}'`);
  return statement.text.replace(/\$(\d+)/g, (_, n: string) => args[Number(n) - 1]!);
}

/** Runs `fn` after a VACUUM of `events` (the visibility map index-only scans need), then resets. */
export async function withIndexPlans(db: Database, fn: (plans: IndexPlans) => Promise<void>): Promise<void> {
  await db.pool.query('VACUUM events');
  const client: pg.PoolClient = await db.pool.connect();
  try {
    await client.query('SET enable_seqscan = off');
    await client.query('SET enable_bitmapscan = off');
    await fn({
      text: async (statement) => {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${inlined(statement)}`);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      },
      tree: async (statement) => {
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${inlined(statement)}`);
        return rows[0]!['QUERY PLAN'][0].Plan;
      },
    });
  } finally {
    await client.query('RESET enable_seqscan');
    await client.query('RESET enable_bitmapscan');
    client.release();
  }
}
