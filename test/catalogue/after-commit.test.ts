/**
 * A first import's indexes and stored Event previews, written after its COMMIT
 * (src/catalogue/after-commit.ts, migration 019), on both engines: nothing is left recorded after
 * an import; an importer stopped between its COMMIT and the end leaves rows that the next import
 * or `lineup migrate` finishes, each index as the migrations define it, the previews as an import
 * writes them, with their foreign key; and (PostgreSQL) two processes finishing at once do each
 * row once, the one that finds a row held by the other waiting for it, and the previews being
 * written hold off an import that would delete Events.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type pg from 'pg';
import type { Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { PREVIEWS, VALIDATE, finishAfterCommit, recordAfterCommit, type AfterCommitWork } from '../../src/catalogue/after-commit.js';
import { fullDocument } from './fixture.js';
import { importDoc, resetCatalogue, storePerSuite, testEngines } from './support.js';

const q = async <T extends object = Record<string, unknown>>(db: Database | pg.PoolClient, sql: string, params: unknown[] = []) =>
  (await db.query<T>(sql, params)).rows;

/** Every index of the catalogue's tables, by name, with its definition. */
const indexes = async (db: Database) =>
  q<{ name: string; definition: string }>(db.pool, `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
      FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
     WHERE t.relnamespace = to_regnamespace(current_schema()) AND t.relname <> 'catalogue_index_builds'
     ORDER BY 1`);

const recorded = async (db: Database) => (await q<{ name: string }>(db.pool, 'SELECT name FROM catalogue_index_builds ORDER BY 1')).map((r) => r.name);

/** Every stored preview row, as text, by Event. */
const storedPreviews = async (db: Database) =>
  q<{ event_id: string; artists: string; venues: string }>(db.pool, 'SELECT event_id::text, artists::text, venues::text FROM event_previews ORDER BY event_id');

/** The foreign keys of the stored previews. */
const previewKeys = async (db: Database) =>
  (await q<{ definition: string }>(db.pool, `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = 'event_previews'::regclass AND contype = 'f'`)).map((r) => r.definition);

/** Every foreign key of the catalogue's tables: table, name, definition, and whether it is validated. */
const foreignKeys = async (db: Database) =>
  q<{ table: string; name: string; definition: string; validated: boolean }>(db.pool, `SELECT conrelid::regclass::text AS table, conname::text AS name,
         pg_get_constraintdef(oid) AS definition, convalidated AS validated
    FROM pg_constraint WHERE contype = 'f' AND connamespace = to_regnamespace(current_schema()) ORDER BY 1, 2`);

/** Foreign keys a first import adds NOT VALID and validates after its COMMIT (bulk-load.ts). */
const UNCHECKED = [['event_artists', 'event_artists_event_id_fkey'], ['artist_profile_media', 'artist_profile_media_media_id_fkey']] as const;

/**
 * What an importer stopped after its COMMIT, before validating its foreign keys, leaves: the keys
 * of UNCHECKED added NOT VALID and recorded, and a recorded key that is not there (dropped since).
 */
async function leaveUnchecked(db: Database): Promise<void> {
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
async function leavePreviews(db: Database): Promise<void> {
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
const CHOSEN = ['events_name_trgm', 'events_current_dates', 'events_by_start_date', 'event_artists_artist', 'artists_name_trgm'];

/**
 * What an importer stopped right after its COMMIT leaves: the chosen indexes dropped and recorded,
 * in one transaction (as bulk-load.ts does in the import's).
 */
async function leaveBuilds(db: Database): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<IndexBuild>(
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

for (const engine of testEngines()) {
  describe(`indexes and previews written after a first import's COMMIT (${engine.name})`, () => {
    const store = storePerSuite(engine);

    test('a first import leaves nothing recorded; a later one records nothing', async () => {
      const before = await indexes(store.db);
      const keys = await previewKeys(store.db);
      assert.equal(keys.length, 1);
      const fks = await foreignKeys(store.db);
      assert.ok(fks.length > 10 && fks.every((k) => k.validated), JSON.stringify(fks));
      let phases: string[] = [];
      await importDoc(store.db, fullDocument(), { onProgress: (p) => phases.push(p.phase) });
      assert.ok(phases.includes('indexing'), phases.join(', '));
      assert.deepEqual(await recorded(store.db), []);
      assert.deepEqual(await indexes(store.db), before);
      // every foreign key as migrated, validated (most of them after COMMIT)
      assert.deepEqual(await foreignKeys(store.db), fks);
      // the previews of every Event, written after COMMIT, then their foreign key
      const previews = await storedPreviews(store.db);
      assert.equal(previews.length, (await q<{ n: number }>(store.db.pool, 'SELECT count(*)::int AS n FROM events'))[0]!.n);
      assert.deepEqual(await previewKeys(store.db), keys);
      phases = [];
      await importDoc(store.db, fullDocument(), { onProgress: (p) => phases.push(p.phase) });
      assert.ok(!phases.includes('indexing'), phases.join(', '));
      assert.deepEqual(await indexes(store.db), before);
      // written inside the later import's transaction, alike
      await store.db.pool.query('DELETE FROM event_previews');
      await importDoc(store.db, fullDocument());
      assert.deepEqual(await storedPreviews(store.db), previews);
    });

    test('an importer stopped before writing the previews: `lineup migrate` writes them, then their foreign key', async () => {
      await importDoc(store.db, fullDocument());
      const previews = await storedPreviews(store.db);
      const keys = await previewKeys(store.db);
      await leavePreviews(store.db);
      assert.deepEqual(await storedPreviews(store.db), []);
      assert.deepEqual(await previewKeys(store.db), []);
      assert.deepEqual(await migrate(store.db), []);
      assert.deepEqual(await recorded(store.db), []);
      assert.deepEqual(await storedPreviews(store.db), previews);
      assert.deepEqual(await previewKeys(store.db), keys);
    });

    test('an importer stopped before writing the previews: the next import writes them, its own changes included', async () => {
      await importDoc(store.db, fullDocument());
      const keys = await previewKeys(store.db);
      await leavePreviews(store.db);
      const doc = fullDocument();
      doc.artists![0]!.name = 'Renamed while the previews waited';
      const phases: string[] = [];
      await importDoc(store.db, doc, { onProgress: (p) => phases.push(p.phase) });
      assert.equal(phases.at(-1), 'indexing');
      assert.deepEqual(await recorded(store.db), []);
      assert.deepEqual(await previewKeys(store.db), keys);
      const previews = await storedPreviews(store.db);
      assert.ok(previews.some((p) => p.artists.includes('Renamed while the previews waited')));
      // the same rows as those written from scratch
      await store.db.pool.query('DELETE FROM event_previews');
      await importDoc(store.db, doc);
      assert.deepEqual(await storedPreviews(store.db), previews);
    });

    test('a first import after one stopped before its previews, whose document had no Event: both are finished', async () => {
      await resetCatalogue(store.db);
      const keys = await previewKeys(store.db);
      await leavePreviews(store.db); // (no Event stored: the stopped import's previews had none to write)
      await importDoc(store.db, fullDocument()); // a first import again: the foreign key is already gone
      assert.deepEqual(await recorded(store.db), []);
      assert.deepEqual(await previewKeys(store.db), keys);
      const previews = await storedPreviews(store.db);
      assert.equal(previews.length, (await q<{ n: number }>(store.db.pool, 'SELECT count(*)::int AS n FROM events'))[0]!.n);
    });

    test('an importer stopped before validating its foreign keys: `lineup migrate` validates them', async () => {
      await importDoc(store.db, fullDocument());
      const fks = await foreignKeys(store.db);
      await leaveUnchecked(store.db);
      const unchecked = (await foreignKeys(store.db)).filter((k) => !k.validated).map((k) => k.name);
      assert.deepEqual(unchecked.sort(), UNCHECKED.map(([, name]) => name).sort());
      assert.deepEqual(await migrate(store.db), []);
      // validated; the key that is not there only loses its row
      assert.deepEqual(await recorded(store.db), []);
      assert.deepEqual(await foreignKeys(store.db), fks);
    });

    test('a first import after one stopped before validating, its catalogue emptied since: the keys are added as declared', async () => {
      await importDoc(store.db, fullDocument());
      const fks = await foreignKeys(store.db);
      await leaveUnchecked(store.db);
      await resetCatalogue(store.db);
      await importDoc(store.db, fullDocument()); // drops the NOT VALID keys and adds them again
      assert.deepEqual(await recorded(store.db), []);
      assert.deepEqual(await foreignKeys(store.db), fks);
    });

    test('an importer stopped after its COMMIT: the rows are served, and `lineup migrate` builds what it left', async () => {
      await importDoc(store.db, fullDocument());
      const before = await indexes(store.db);
      await leaveBuilds(store.db);
      assert.deepEqual(await recorded(store.db), [...CHOSEN].sort());
      const missing = (await indexes(store.db)).map((i) => i.name);
      assert.ok(CHOSEN.every((n) => !missing.includes(n)), missing.join(', '));
      // the catalogue is all there meanwhile
      assert.equal((await q<{ n: number }>(store.db.pool, `SELECT count(*)::int AS n FROM events WHERE name_lower LIKE '%'`))[0]!.n, 3);

      // an operator ran one listed definition by hand meanwhile
      const [byHand] = await q<{ definition: string }>(store.db.pool, `SELECT definition FROM catalogue_index_builds WHERE name = 'events_by_start_date'`);
      await store.db.pool.query(byHand!.definition);

      assert.deepEqual(await migrate(store.db), []); // nothing to apply, the builds finished
      assert.deepEqual(await recorded(store.db), []);
      assert.deepEqual(await indexes(store.db), before);
    });

    test('an importer stopped after its COMMIT: the next import builds what it left', async () => {
      await importDoc(store.db, fullDocument());
      const before = await indexes(store.db);
      await leaveBuilds(store.db);
      const phases: string[] = [];
      await importDoc(store.db, fullDocument(), { onProgress: (p) => phases.push(p.phase) });
      assert.equal(phases.at(-1), 'indexing');
      assert.deepEqual(await recorded(store.db), []);
      assert.deepEqual(await indexes(store.db), before);
    });

    test('a build that fails after COMMIT: the import says its rows are committed and what finishes the indexes', async () => {
      await importDoc(store.db, fullDocument());
      // a recorded build that cannot succeed (its table does not exist)
      await store.db.pool.query(
        `INSERT INTO catalogue_index_builds (name, table_name, method, definition)
         VALUES ('no_such_index', 'no_such_table', 'btree', 'CREATE INDEX no_such_index ON no_such_table (x)')`,
      );
      const doc = fullDocument();
      doc.events![0]!.name = 'Renamed after the failed build';
      await assert.rejects(importDoc(store.db, doc), (err: Error) => {
        assert.match(err.message, /^the catalogue was imported and committed, but building its indexes or stored previews, or checking its foreign keys, failed \(`lineup migrate` finishes the rest\): .*no_such_table/);
        return true;
      });
      // committed: the rename is stored; the build is still recorded
      const names = (await q<{ name: string }>(store.db.pool, 'SELECT name FROM events ORDER BY name')).map((r) => r.name);
      assert.ok(names.includes('Renamed after the failed build'), names.join(', '));
      assert.deepEqual(await recorded(store.db), ['no_such_index']);
      await store.db.pool.query(`DELETE FROM catalogue_index_builds`);
    });

    if (engine.name === 'postgres') {
      test('two processes finishing at once build each index once (three times over)', async () => {
        await importDoc(store.db, fullDocument());
        const before = await indexes(store.db);
        for (let round = 0; round < 3; round++) {
          await leaveBuilds(store.db);
          const [a, b] = [await store.db.pool.connect(), await store.db.pool.connect()];
          try {
            const built = await Promise.all([finishAfterCommit(store.db, a), finishAfterCommit(store.db, b)]);
            assert.equal(built[0] + built[1], CHOSEN.length, `round ${round}: ${built.join(' + ')}`);
          } finally {
            a.release();
            b.release();
          }
          assert.deepEqual(await recorded(store.db), []);
          assert.deepEqual(await indexes(store.db), before);
        }
      });

      test('two finishers waiting on one held build: it is built once when its holder rolls back (three times over)', async () => {
        await importDoc(store.db, fullDocument());
        const before = await indexes(store.db);
        const held = 'events_name_trgm';
        for (let round = 0; round < 3; round++) {
          await leaveBuilds(store.db);
          // the test's own observer too: with the pool's four connections all out, neither finisher
          // takes a spare one, and the observer never waits for one
          const [other, a, b, observer] = [await store.db.pool.connect(), await store.db.pool.connect(), await store.db.pool.connect(), await store.db.pool.connect()];
          try {
            await other.query('BEGIN');
            await other.query('SELECT 1 FROM catalogue_index_builds WHERE name = $1 FOR UPDATE', [held]);
            const pids = [
              (await q<{ pid: number }>(a, 'SELECT pg_backend_pid() AS pid'))[0]!.pid,
              (await q<{ pid: number }>(b, 'SELECT pg_backend_pid() AS pid'))[0]!.pid,
            ];
            let settled = 0;
            const finishing = Promise.all([a, b].map((c) => finishAfterCommit(store.db, c).finally(() => settled++)));
            // both have built what was free and wait on the held row
            for (;;) {
              assert.equal(settled, 0, 'a finisher returned with a build still held by another transaction');
              const waiting = await q<{ n: number }>(observer, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ANY($1) AND wait_event_type = 'Lock'`, [pids]);
              if (waiting[0]!.n === 2) break;
              await new Promise((resolve) => setImmediate(resolve));
            }
            await other.query('ROLLBACK');
            const built = await finishing;
            assert.equal(built[0]! + built[1]!, CHOSEN.length, `round ${round}: ${built.join(' + ')}`);
          } finally {
            await other.query('ROLLBACK').catch(() => {}); // (a failed test leaves no transaction open in the pool)
            for (const c of [other, a, b, observer]) c.release();
          }
          assert.deepEqual(await recorded(store.db), []);
          assert.deepEqual(await indexes(store.db), before);
        }
      });

      test('the previews being written hold off an import that deletes Events: none is left without its Event', async () => {
        await importDoc(store.db, fullDocument());
        const keys = await previewKeys(store.db);
        await leavePreviews(store.db);
        const blocker = await store.db.pool.connect();
        const own = await store.db.pool.connect();
        const observer = await store.db.pool.connect(); // the import takes the pool's fourth
        const waitingOn = async (table: string, pid: number | null) =>
          (await q<{ n: number }>(observer, `SELECT count(*)::int AS n FROM pg_locks
             WHERE relation = to_regclass($1) AND NOT granted AND ($2::int IS NULL OR pid = $2)`, [table, pid]))[0]!.n > 0;
        try {
          // the finisher stops at its INSERT, after it has locked the Events
          await blocker.query('BEGIN');
          await blocker.query('LOCK TABLE event_previews IN SHARE MODE');
          const ownPid = (await q<{ pid: number }>(own, 'SELECT pg_backend_pid() AS pid'))[0]!.pid;
          const finishing = finishAfterCommit(store.db, own);
          while (!(await waitingOn('event_previews', ownPid))) await new Promise((resolve) => setImmediate(resolve));
          const share = await q<{ n: number }>(observer, `SELECT count(*)::int AS n FROM pg_locks
            WHERE pid = $1 AND relation = to_regclass('events') AND mode = 'ShareLock' AND granted`, [ownPid]);
          assert.equal(share[0]!.n, 1);
          // an import that deletes the first Event waits for the Events
          const doc = fullDocument();
          const deleted = doc.events![0]!.publicId;
          doc.events = doc.events!.slice(1);
          let imported = false;
          const importing = importDoc(store.db, doc, { replace: true }).finally(() => (imported = true));
          while (!(await waitingOn('events', null))) {
            assert.equal(imported, false, 'the import deleted Events while their previews were being written');
            await new Promise((resolve) => setImmediate(resolve));
          }
          await blocker.query('ROLLBACK');
          assert.equal(await finishing, 1);
          await importing;
          const gone = await q<{ n: number }>(store.db.pool, 'SELECT count(*)::int AS n FROM events WHERE public_id = $1', [deleted]);
          assert.equal(gone[0]!.n, 0);
        } finally {
          await blocker.query('ROLLBACK').catch(() => {});
          for (const c of [blocker, own, observer]) c.release();
        }
        const orphans = await q<{ n: number }>(store.db.pool, 'SELECT count(*)::int AS n FROM event_previews p WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.id = p.event_id)');
        assert.equal(orphans[0]!.n, 0);
        assert.deepEqual(await previewKeys(store.db), keys);
        assert.deepEqual(await recorded(store.db), []);
      });

      for (const outcome of ['builds it', 'rolls back'] as const) {
        test(`a build another process holds is waited for, and that process ${outcome}`, async () => {
          await importDoc(store.db, fullDocument());
          const before = await indexes(store.db);
          await leaveBuilds(store.db);
          const held = 'events_name_trgm';
          const other = await store.db.pool.connect();
          const own = await store.db.pool.connect();
          try {
            await other.query('BEGIN');
            const [{ definition }] = await q<{ definition: string }>(other, 'SELECT definition FROM catalogue_index_builds WHERE name = $1 FOR UPDATE', [held]);
            const ownPid = (await q<{ pid: number }>(own, 'SELECT pg_backend_pid() AS pid'))[0]!.pid;
            let settled = false;
            const finishing = finishAfterCommit(store.db, own).finally(() => (settled = true));
            // the shape of the race, every time: the finisher has built the free ones and waits on the held row
            for (;;) {
              assert.equal(settled, false, 'the finisher returned with a build still held by another process');
              const waiting = await q<{ n: number }>(store.db.pool, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'`, [ownPid]);
              if (waiting[0]!.n === 1) break;
              await new Promise((resolve) => setImmediate(resolve));
            }
            assert.deepEqual(await recorded(store.db), [held]);
            if (outcome === 'builds it') {
              await other.query(definition!);
              await other.query('DELETE FROM catalogue_index_builds WHERE name = $1', [held]);
              await other.query('COMMIT');
              assert.equal(await finishing, CHOSEN.length - 1);
            } else {
              await other.query('ROLLBACK');
              assert.equal(await finishing, CHOSEN.length);
            }
          } finally {
            await other.query('ROLLBACK').catch(() => {});
            other.release();
            own.release();
          }
          assert.deepEqual(await recorded(store.db), []);
          assert.deepEqual(await indexes(store.db), before);
        });
      }
    }
  });
}
