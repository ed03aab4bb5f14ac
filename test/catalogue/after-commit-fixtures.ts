/**
 * What the tests of a first import's work after COMMIT (src/catalogue/after-commit.ts) leave
 * behind and read: the work an importer stopped after its COMMIT leaves recorded, and the
 * catalogue's indexes, foreign keys and stored previews as the database has them.
 */
import assert from 'node:assert/strict';
import type pg from 'pg';
import type { Database } from '../../src/db/database.js';
import { PREVIEWS, VALIDATE, recordAfterCommit, type AfterCommitWork } from '../../src/catalogue/after-commit.js';

export const q = async <T extends object = Record<string, unknown>>(db: pg.Pool | pg.PoolClient, sql: string, params: unknown[] = []) =>
  (await db.query<T>(sql, params)).rows;

/** Every index of the catalogue's tables, by name, with its definition. */
export const indexes = async (db: Database) =>
  q<{ name: string; definition: string }>(db.pool, `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
      FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
     WHERE t.relnamespace = to_regnamespace(current_schema()) AND t.relname <> 'catalogue_index_builds'
     ORDER BY 1`);

export const recorded = async (db: Database) => (await q<{ name: string }>(db.pool, 'SELECT name FROM catalogue_index_builds ORDER BY 1')).map((r) => r.name);

/** Every stored preview row, as text, by Event. */
export const storedPreviews = async (db: Database) =>
  q<{ event_id: string; artists: string; venues: string }>(db.pool, 'SELECT event_id::text, artists::text, venues::text FROM event_previews ORDER BY event_id');

/** The foreign keys of the stored previews. */
export const previewKeys = async (db: Database) =>
  (await q<{ definition: string }>(db.pool, `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = 'event_previews'::regclass AND contype = 'f'`)).map((r) => r.definition);

/** Every foreign key of the catalogue's tables: table, name, definition, and whether it is validated. */
export const foreignKeys = async (db: Database) =>
  q<{ table: string; name: string; definition: string; validated: boolean }>(db.pool, `SELECT conrelid::regclass::text AS table, conname::text AS name,
         pg_get_constraintdef(oid) AS definition, convalidated AS validated
    FROM pg_constraint WHERE contype = 'f' AND connamespace = to_regnamespace(current_schema()) ORDER BY 1, 2`);

/** Foreign keys a first import adds NOT VALID and validates after its COMMIT (bulk-load.ts). */
export const UNCHECKED = [['event_artists', 'event_artists_event_id_fkey'], ['artist_profile_media', 'artist_profile_media_media_id_fkey']] as const;

/**
 * What an importer stopped after its COMMIT, before validating its foreign keys, leaves: the keys
 * of UNCHECKED added NOT VALID and recorded, and a recorded key that is not there (dropped since).
 */
export async function leaveUnchecked(db: Database): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const work: AfterCommitWork[] = [];
    for (const [table, name] of UNCHECKED) {
      const [fk] = await q<{ definition: string }>(client, `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1::regclass AND conname = $2`, [table, name]);
      await client.query(`ALTER TABLE ${table} DROP CONSTRAINT ${name}`);
      await client.query(`ALTER TABLE ${table} ADD CONSTRAINT ${name} ${fk!.definition} NOT VALID`);
      work.push({ name, table, method: VALIDATE, definition: `ALTER TABLE ${table} VALIDATE CONSTRAINT ${name}` });
    }
    work.push({ name: 'dropped_since_fkey', table: 'event_venues', method: VALIDATE, definition: 'ALTER TABLE event_venues VALIDATE CONSTRAINT dropped_since_fkey' });
    await recordAfterCommit(client, work);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

/**
 * What an importer stopped right after its COMMIT leaves of the previews: none written, their
 * foreign key not added, the work recorded (as bulk-load.ts does in the import's transaction).
 */
export async function leavePreviews(db: Database): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const [fk] = await q<{ name: string; definition: string }>(client, `SELECT quote_ident(conname) AS name, pg_get_constraintdef(oid) AS definition
      FROM pg_constraint WHERE conrelid = 'event_previews'::regclass AND contype = 'f'`);
    await client.query(`ALTER TABLE event_previews DROP CONSTRAINT ${fk!.name}`);
    await client.query('DELETE FROM event_previews');
    await recordAfterCommit(client, [{ name: fk!.name, table: 'event_previews', method: PREVIEWS, definition: `ALTER TABLE event_previews ADD CONSTRAINT ${fk!.name} ${fk!.definition}` }]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

/** The indexes a first import builds after COMMIT, among them GIN, GiST and btree ones. */
export const CHOSEN = ['events_name_trgm', 'events_current_dates', 'events_by_start_date', 'event_artists_artist', 'artists_name_trgm'];

/**
 * What an importer stopped right after its COMMIT leaves: the chosen indexes dropped and recorded,
 * in one transaction (as bulk-load.ts does in the import's).
 */
export async function leaveBuilds(db: Database): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<AfterCommitWork>(
      `SELECT i.indexrelid::regclass::text AS name, i.indrelid::regclass::text AS table, am.amname::text AS method,
              pg_get_indexdef(i.indexrelid) AS definition
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
        WHERE i.indexrelid = ANY($1::regclass[])`,
      [CHOSEN],
    );
    assert.equal(rows.length, CHOSEN.length);
    for (const r of rows) await client.query(`DROP INDEX ${r.name}`);
    await recordAfterCommit(client, rows);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}
