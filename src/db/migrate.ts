/**
 * Versioned SQL migrations (`src/db/migrations/NNN_name.sql`; the build copies them next to the
 * compiled module, `dist/db/migrations/`), applied in order, each in its own transaction and
 * recorded in `schema_migrations`. On PostgreSQL an advisory lock makes concurrent starts safe:
 * the second process waits, then finds nothing left to apply.
 *
 * A migration runs without statement or lock timeout (the API's 3 s statement_timeout and 500 ms
 * lock_timeout would cancel a long migration, or a second process waiting for the advisory lock):
 * its connection sets both to 0 for its session and is closed afterwards, never returned to the
 * pool with those settings. Run it on a direct connection to the primary, not through a
 * transaction pooler (the advisory lock and these settings belong to one session).
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { fillEventPlaces } from '../catalogue/event-places.js';
import { fillMissingEventPreviews } from '../catalogue/event-previews.js';
import { fillMemberPreviews } from '../catalogue/member-previews.js';
import { finishAfterCommit, hasAfterCommitWork } from '../catalogue/after-commit.js';
import type { Database } from './database.js';

// Next to this module: src/db/migrations (sources, tests) or dist/db/migrations (the built and the
// installed package, which ships no src/).
const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const ADVISORY_LOCK_KEY = 7_424_510_031; // "lineup" migrations

/**
 * Derived rows a migration introduces, filled in its transaction by the code that maintains them
 * afterwards (rather than by the same SQL written again in the migration file).
 */
const FILL_AFTER: Record<number, (client: pg.PoolClient) => Promise<unknown>> = {
  5: fillMissingEventPreviews,
  7: fillEventPlaces,
  17: fillMemberPreviews,
};

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: Number(f.slice(0, 3)),
      name: f.slice(4, -4),
      sql: fs.readFileSync(`${dir}/${f}`, 'utf8'),
    }));
}

/** Applies pending migrations; returns the versions applied by this call. */
export async function migrate(db: Database, migrations = loadMigrations()): Promise<number[]> {
  const client = await db.pool.connect();
  const applied: number[] = [];
  try {
    if (db.engine === 'postgres') {
      await client.query('SET statement_timeout = 0; SET lock_timeout = 0');
      await client.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
    }
    try {
      await client.query(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
           version integer PRIMARY KEY,
           name text NOT NULL,
           applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      // a first import's indexes, previews and foreign-key checks left by an importer stopped after its COMMIT
      // (migration 019): written before any later migration changes the tables
      if (await hasAfterCommitWork(client)) await finishAfterCommit(db, client);
      const done = new Set(
        (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
      );
      for (const m of migrations) {
        if (done.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql); // simple protocol: several statements in one string
          await FILL_AFTER[m.version]?.(client);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          // keeps the SQLSTATE: the schema check tells a role without DDL rights (42501) apart
          throw Object.assign(new Error(`migration ${m.version} (${m.name}) failed: ${(err as Error).message}`, { cause: err }), {
            code: (err as { code?: unknown }).code,
          });
        }
        applied.push(m.version);
      }
    } finally {
      if (db.engine === 'postgres') await client.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
    }
  } finally {
    // PostgreSQL: close this session (its timeouts are 0); PGlite: its one shared client stays
    client.release(db.engine === 'postgres');
  }
  return applied;
}
