/**
 * Nothing depends on session state a transaction pooler drops (decisions §7): the same catalogue
 * read through sessions whose TimeZone and DateStyle differ from the server default (as behind
 * PgBouncer with `ignore_startup_parameters = options` on a server with another `timezone`)
 * answers byte-identical pages: cursor keys, `updatedAt` text, dates, temporal phases. Cursors
 * issued by one are accepted by the other. PostgreSQL only (PGlite has one in-process session).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { seedDemo } from '../../src/catalogue/demo.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { engines, openTestDatabase, startServer, type TestDatabase, type TestServer } from '../helper.js';
import { collectionPaths, traverse } from '../topology/traverse.js';

const postgres = engines().find((e) => e.name === 'postgres');
const NOW = new Date('2026-03-15T12:00:00Z');
const clock = () => NOW;

/** A second pool on the test's schema whose every session runs with another TimeZone and DateStyle. */
async function foreignSessions(schema: string): Promise<Database> {
  const db = await openDatabase(postgres!.target, { schema, maxConnections: 4 });
  const foreign = "SET TimeZone = 'America/New_York'; SET DateStyle = 'SQL, DMY'";
  db.pool.on('connect', (client) => void client.query(foreign).catch(() => {}));
  // the one session opened already (CREATE SCHEMA IF NOT EXISTS) predates the listener
  const first = await db.pool.connect();
  await first.query(foreign);
  first.release();
  const { rows } = await db.pool.query<{ tz: string; ds: string }>('SELECT current_setting($1) AS tz, current_setting($2) AS ds', ['TimeZone', 'DateStyle']);
  assert.deepEqual(rows[0], { tz: 'America/New_York', ds: 'SQL, DMY' });
  return db;
}

describe('answers do not depend on the session TimeZone or DateStyle (PostgreSQL)', { skip: postgres ? false : 'set TEST_DATABASE_URL to run on PostgreSQL' }, () => {
  let t: TestDatabase;
  let other: Database;
  let utc: TestServer;
  let ny: TestServer;
  before(async () => {
    t = await openTestDatabase(postgres!);
    await seedDemo(t.db, { events: 300, seed: 'sessions', anchorDate: '2026-03-15' });
    const schema = (await t.db.pool.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
    other = await foreignSessions(schema);
    utc = await startServer(t.db, {}, clock);
    ny = await startServer(other, {}, clock);
  });
  after(async () => {
    await ny?.close();
    await utc?.close();
    await other?.close();
    await t?.drop();
  });

  it('every collection walked to its end reads the same, cursors crossing between the two', async () => {
    const paths = await collectionPaths(utc.get, 2);
    assert.ok(paths.length > 15);
    for (const path of paths) {
      const alone = await traverse([utc.get], path);
      const crossed = await traverse([ny.get, utc.get], path);
      assert.ok(alone.length >= 1);
      assert.deepEqual(
        crossed.map((p) => [p.status, p.etag, p.body]),
        alone.map((p) => [p.status, p.etag, p.body]),
        path,
      );
      assert.equal(alone.at(-1)!.status, 200, path);
    }
  });

  it('details and their temporal phases read the same', async () => {
    const ids = (await utc.json('/v1/events?limit=50&fields=name')).body.data.map((e: { publicId: string }) => e.publicId);
    for (const id of ids) {
      const a = await utc.json(`/v1/events/${id}`);
      const b = await ny.json(`/v1/events/${id}`);
      assert.equal(a.status, 200);
      assert.deepEqual(b.body, a.body, id);
      assert.equal(b.headers.get('etag'), a.headers.get('etag'));
    }
  });
});
