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
import { migrate } from '../../src/db/migrate.js';
import { finishAfterCommit } from '../../src/catalogue/after-commit.js';
import { CHOSEN, UNCHECKED, foreignKeys, indexes, leaveBuilds, leavePreviews, leaveUnchecked, previewKeys, q, recorded, storedPreviews } from './after-commit-fixtures.js';
import { fullDocument } from './fixture.js';
import { importDoc, resetCatalogue, storePerSuite, testEngines } from './support.js';

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
            const { definition } = (await q<{ definition: string }>(other, 'SELECT definition FROM catalogue_index_builds WHERE name = $1 FOR UPDATE', [held]))[0]!;
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
