/**
 * The planner's statistics of an import: which catalogue tables a merge analyzes inside its
 * transaction (merge.ts), and their refresh after COMMIT.
 */
import type pg from 'pg';

/**
 * Every catalogue table, or `since-merge`: the merge analyzed them all inside the transaction (the
 * Events only in the columns the places' join reads) and then wrote only the Event places, so only
 * those, the Events and the tables with expression indexes (built after COMMIT, their expressions
 * sampled by ANALYZE) are left — a bulk first import.
 */
export type StatisticsScope = 'all' | 'since-merge';

/** The columns of `events` the Event places' statement joins and filters on (event-places.ts). */
export const EVENT_PLACES_READ = 'id, active';

/** Every catalogue table the read side plans queries over. */
export const CATALOGUE_TABLES = [
  'media', 'artists', 'artist_profile_media', 'venues', 'series', 'editions', 'edition_venues',
  'events', 'event_artists', 'event_venues', 'event_series', 'event_editions', 'event_gallery', 'event_places',
] as const;

/**
 * Refreshes the planner's statistics after an import is committed. Without them the first reads
 * after a bulk load are planned on empty-table estimates (nested loops over what the planner
 * believes are empty tables), many times slower than after ANALYZE (docs/architecture.md#the-importer).
 * Autovacuum would get there, but only after its next naptime and threshold; a service must be
 * fast from its first request.
 *
 * Its own transaction, without the API's lock and statement timeouts: right after a large COMMIT,
 * autovacuum starts analyzing the same tables, and ANALYZE waits for its lock. PostgreSQL cancels
 * an autovacuum worker that blocks a lock request after `deadlock_timeout` (1 s by default), so
 * the pool's 500 ms lock timeout would fail an import that has already committed.
 */
export async function refreshStatistics(client: pg.PoolClient, engine: 'postgres' | 'pglite', scope: StatisticsScope = 'all'): Promise<void> {
  await client.query('BEGIN');
  try {
    if (engine === 'postgres') {
      await client.query('SET LOCAL statement_timeout = 0');
      await client.query('SET LOCAL lock_timeout = 0');
    }
    // after a bulk first import, only the 2 of the 14 tables its transaction did not analyze
    // (less work, and fewer tables whose ANALYZE waits for autovacuum's)
    const tables = scope === 'all' ? CATALOGUE_TABLES : await leftToAnalyze(client);
    await client.query(`ANALYZE ${tables.join(', ')}`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/**
 * `since-merge`: the Event places, the Events (analyzed in the transaction for the places' join
 * only: `mergeStaging`), and the catalogue tables with an expression index.
 */
async function leftToAnalyze(client: pg.PoolClient): Promise<readonly string[]> {
  const { rows } = await client.query<{ table: string }>(
    `SELECT DISTINCT c.relname AS table FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
      WHERE i.indexprs IS NOT NULL AND i.indrelid = ANY($1::regclass[])`,
    [CATALOGUE_TABLES],
  );
  return [...new Set(['event_places', 'events', ...rows.map((r) => r.table)])];
}
