/**
 * The schema check at start (decisions §7): `serve` never needs to write. It reads which
 * migrations the database has, then
 * - current: serves, running no DDL at all (a hot standby refuses even CREATE TABLE IF NOT EXISTS);
 * - behind, writable, migrations allowed: applies them (src/db/migrate.ts);
 * - behind on a read-only database (hot standby, default_transaction_read_only, a role without
 *   DDL rights) or with LINEUP_MIGRATE=false: stops with one line naming what is missing and the
 *   command that applies it;
 * - ahead (migrated by a newer Lineup, the other half of a rolling deploy): stops with one line.
 */
import type { Database } from './database.js';
import { loadMigrations, migrate, type Migration } from './migrate.js';

/** A start-up refusal an operator acts on: printed as one line, exit code 1, no stack trace. */
export class SchemaError extends Error {
  override name = 'SchemaError';
}

export interface SchemaState {
  /** Versions recorded in schema_migrations (empty when the table does not exist). */
  readonly applied: readonly number[];
  /** True when this session cannot write (a standby in recovery, or default_transaction_read_only). */
  readonly readOnly: boolean;
}

/** Two catalogue reads, no DDL: which migrations are recorded, and whether this session may write. */
export async function readSchemaState(db: Database): Promise<SchemaState> {
  const { rows } = await db.pool.query<{ table: string | null; read_only: boolean }>(
    `SELECT to_regclass('schema_migrations')::text AS table, current_setting('transaction_read_only') = 'on' AS read_only`,
  );
  const row = rows[0]!;
  const applied =
    row.table === null ? [] : (await db.pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows.map((r) => r.version);
  return { applied, readOnly: row.read_only };
}

const label = (m: Migration) => `${String(m.version).padStart(3, '0')}_${m.name}`;

export interface EnsureSchemaOptions {
  /** LINEUP_MIGRATE: false never runs DDL. */
  readonly migrate: boolean;
  readonly migrations?: readonly Migration[];
}

export interface EnsureSchemaResult {
  /** Versions applied by this call (empty when the schema was current). */
  readonly applied: number[];
}

export async function ensureSchema(db: Database, opts: EnsureSchemaOptions): Promise<EnsureSchemaResult> {
  const migrations = opts.migrations ?? loadMigrations();
  const state = await readSchemaState(db);
  const known = new Set(migrations.map((m) => m.version));
  const unknown = state.applied.filter((v) => !known.has(v));
  if (unknown.length > 0) {
    const newest = migrations.at(-1)?.version ?? 0;
    throw new SchemaError(
      `the database schema is newer than this Lineup: it records migration${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}, ` +
        `this version knows up to ${newest}; it was migrated by a newer Lineup, so deploy that version (this one cannot read it safely)`,
    );
  }
  const done = new Set(state.applied);
  const missing = migrations.filter((m) => !done.has(m.version));
  if (missing.length === 0) return { applied: [] };
  const names = missing.map(label).join(', ');
  const how = 'apply them with `lineup migrate` against the primary (DATABASE_URL of a writable database), then start again';
  if (!opts.migrate) throw new SchemaError(`the database schema is behind this Lineup and LINEUP_MIGRATE=false: missing migrations ${names}; ${how}`);
  if (state.readOnly) {
    throw new SchemaError(`the database schema is behind this Lineup and the database is read-only (a hot standby or a read-only role): missing migrations ${names}; ${how}`);
  }
  try {
    return { applied: await migrate(db, [...migrations]) };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    // 42501 insufficient_privilege, 25006 read_only_sql_transaction: a role without DDL rights
    if (code === '42501' || code === '25006') {
      throw new SchemaError(`the database schema is behind this Lineup and this role may not change it (${(err as Error).message}): missing migrations ${names}; ${how}`);
    }
    throw err;
  }
}
