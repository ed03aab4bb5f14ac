/**
 * LINEUP_DB_READS bounds what the database is actually doing: a read's slot is given
 * back only when its last statement has finished, not when its first statement failed or its
 * client-side deadline fired; and on PGlite (one connection, a FIFO) the statements of a read
 * that was already answered 503 never run ahead of new requests.
 *
 * The shapes are made deterministic by a database wrapper that holds one statement (identified
 * by its text) on a latch the test opens, and fails another at once: no sleeps.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type pg from 'pg';
import { importCatalogue } from '../../src/catalogue/importer.js';
import type { Database } from '../../src/db/database.js';
import { artistPreviewsStatement, venuePreviewsStatement } from '../../src/queries/event-relations.js';
import { resourcesCatalogue } from '../fixtures/resources.js';
import { engines, openTestDatabase, startServer, type TestDatabase, type TestServer } from '../helper.js';

interface Control {
  /** Texts failed without reaching the database, once a held statement has started. */
  fail: Set<string>;
  /** Resolves when a held statement has its connection and waits for the latch. */
  heldStarted: Promise<void>;
  started(): void;
  /** Texts that wait for the latch, holding their connection. */
  hold: Set<string>;
  latch: Promise<void>;
  open(): void;
  /** Resolves when a held statement has finished (`done`). */
  heldDone: Promise<void>;
  done(): void;
  /** Texts that reached the database. */
  executed: string[];
}

function control(): Control {
  let open!: () => void;
  let done!: () => void;
  let started!: () => void;
  const heldStarted = new Promise<void>((resolve) => (started = resolve));
  const latch = new Promise<void>((resolve) => (open = resolve));
  const heldDone = new Promise<void>((resolve) => (done = resolve));
  return { fail: new Set(), hold: new Set(), latch, open, heldDone, done, heldStarted, started, executed: [] };
}

/** A pg Query object passed to client.query (pg answers it through its callback). */
interface Submitted extends pg.Submittable {
  text: string;
  callback: (err: Error | null, result?: pg.QueryResult) => void;
}

const isSubmitted = (config: pg.QueryConfig | Submitted): config is Submitted => typeof (config as Submitted).submit === 'function';

/** The database with its pool wrapped: connections come from the real pool, statements pass through the control. */
function wrap(db: Database, c: Control): Database {
  const real = db.pool;
  const connect = async (): Promise<pg.PoolClient> => {
    const client = await real.connect();
    /** pg's client: a config object's answer is the returned promise, a Query's (how named statements are sent, src/db/named-query.ts) its callback. */
    const send = (config: pg.QueryConfig | Submitted): Promise<pg.QueryResult> =>
      isSubmitted(config)
        ? new Promise((resolve, reject) => {
            const answer = config.callback;
            config.callback = (err, result) => {
              config.callback = answer;
              if (err) reject(err);
              else resolve(result!); // pg answers a result whenever it answers no error
            };
            client.query(config);
          })
        : client.query(config);
    const statement = async (config: pg.QueryConfig | Submitted): Promise<pg.QueryResult> => {
      const text = config.text;
      if (c.fail.has(text)) {
        await c.heldStarted;
        throw new Error('injected failure');
      }
      if (c.hold.has(text)) {
        c.started();
        await c.latch;
        try {
          c.executed.push(text);
          return await send(config);
        } finally {
          c.done();
        }
      }
      c.executed.push(text);
      return send(config);
    };
    const query = (config: string | pg.QueryConfig | Submitted) => {
      const normalized = typeof config === 'string' ? { text: config } : config;
      const work = statement(normalized);
      if (!isSubmitted(normalized)) return work;
      work.then(
        (result) => normalized.callback(null, result),
        (err: Error) => normalized.callback(err),
      );
      return normalized;
    };
    return { query, release: (err?: Error | boolean) => client.release(err) } as unknown as pg.PoolClient;
  };
  const pool = {
    connect,
    async query(config: string | pg.QueryConfig, values?: unknown[]) {
      const client = await connect();
      try {
        return await client.query(typeof config === 'string' ? { text: config, values } : config);
      } finally {
        client.release();
      }
    },
    on: () => pool,
    end: () => real.end(),
  };
  // every statement through the control: none on pipelined connections (LINEUP_TEST_PIPELINE)
  const { pipeline: _pipeline, ...rest } = db;
  return { ...rest, pool: pool as unknown as pg.Pool };
}

// A page of one Event whose previews are not stored (deleted below): after the page statement,
// its two plain preview statements run at once (a page's statement carries its stored and rich
// previews and its Series and Edition programs: queries/event-carried.ts).
const ARTISTS = artistPreviewsStatement(['1'], false).text;
const VENUES = venuePreviewsStatement(['1'], false).text;
const READ = '/v1/events?fields=name,artists,venues&limit=1';
// (the tests' other reads select names only: they run neither statement)

for (const engine of engines()) {
  describe(`read slots follow the database's work on ${engine.name}`, () => {
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(engine);
      await importCatalogue(t.db, Readable.from([JSON.stringify(resourcesCatalogue)]), {});
      await t.db.pool.query('DELETE FROM event_previews');
    });
    after(async () => {
      await t.drop();
    });

    /** The only read slot is taken until the held statement finished, then free again. */
    async function assertSlotFollowsHeld(server: TestServer, c: Control): Promise<void> {
      const busy = await server.json('/v1/events?limit=1&fields=name');
      assert.equal(busy.status, 503, JSON.stringify(busy.body).slice(0, 300));
      assert.equal(busy.body.error.message, 'The database is busy; retry shortly.');
      c.open();
      await c.heldDone;
      await new Promise((resolve) => setImmediate(resolve));
      const free = await server.json('/v1/events?limit=1&fields=name');
      assert.equal(free.status, 200, JSON.stringify(free.body).slice(0, 300));
    }

    it(
      'a read whose first statement failed keeps its slot until its other statement finished',
      { skip: engine.name === 'postgres' ? false : 'PGlite runs one statement at a time: none is running when another fails' },
      async () => {
        const c = control();
        c.hold.add(ARTISTS);
        c.fail.add(VENUES); // fails once the Artists statement is running on its own connection
        const server: TestServer = await startServer(wrap(t.db, c), { dbReads: 1 });
        try {
          const failed = await server.json(READ);
          assert.equal(failed.status, 500, JSON.stringify(failed.body).slice(0, 300));
          await assertSlotFollowsHeld(server, c);
          assert.ok(c.executed.includes(ARTISTS));
        } finally {
          c.open();
          await server.close();
        }
      },
    );

    it('a read past its client-side deadline (503) keeps its slot until its statement finished', async () => {
      const c = control();
      c.hold.add(ARTISTS);
      const server: TestServer = await startServer(wrap(t.db, c), { dbReads: 1, statementTimeoutMs: 300 });
      try {
        const late = await server.json(READ);
        assert.equal(late.status, 503, JSON.stringify(late.body).slice(0, 300));
        assert.equal(late.body.error.message, 'The database is temporarily unavailable; retry later.');
        await assertSlotFollowsHeld(server, c);
      } finally {
        c.open();
        await server.close();
      }
    });

    it(
      'on PGlite, the statements of a read answered 503 (deadline) never run, and new reads run after the held one',
      { skip: engine.name === 'pglite' ? false : 'PostgreSQL has a connection per statement: nothing queues behind another read' },
      async () => {
        const c = control();
        c.hold.add(ARTISTS); // holds PGlite's one connection: the Venues statement queues behind it
        const server: TestServer = await startServer(wrap(t.db, c), { dbReads: 2, statementTimeoutMs: 300 });
        try {
          const late = await server.json(READ);
          assert.equal(late.status, 503, JSON.stringify(late.body).slice(0, 300));
          const next = server.json('/v1/events?limit=1&fields=name');
          c.open();
          const res = await next;
          assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
          await c.heldDone;
          assert.ok(c.executed.includes(ARTISTS), 'the held statement ran (it had started)');
          assert.ok(!c.executed.includes(VENUES), 'the answered read’s queued statement never ran');
        } finally {
          c.open();
          await server.close();
        }
      },
    );
  });
}
