/**
 * Text columns handed over undecoded, on a real server (src/db/raw-text.ts, named-query.ts): a
 * named statement's `rawText` columns of type text arrive as RawText on a RawTextClient, pooled
 * or pipelined, and every other value as pg gives it; the marking ends with its result, also when
 * statements with and without raw columns are in flight together on one connection. Then the
 * rows stage: an Events page read twice hands the page memo the same inputs (its raw texts are
 * parsed into the shared values), on both engines. The first part is PostgreSQL only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { queryNamed, queryUnnamed, type NamedStatement } from '../../src/db/named-query.js';
import { PreparedStatements } from '../../src/db/prepared.js';
import { RawText, RawTextClient } from '../../src/db/raw-text.js';
import { Reader } from '../../src/db/reader.js';
import { parseEventControls } from '../../src/controls/events.js';
import { parseQueryString } from '../../src/controls/query-string.js';
import { planEvents } from '../../src/plan/events.js';
import { rowInputs } from '../../src/present/page-memo.js';
import { fetchEventsPage, pageStatement } from '../../src/queries/events-read.js';
import { NOW } from '../fixtures/events-catalogue.js';
import { openEventsWorld, type EventsWorld } from '../fixtures/events-setup.js';
import { engines } from '../helper.js';

const url = process.env.TEST_DATABASE_URL;
const skip = url ? false : 'set TEST_DATABASE_URL to run on PostgreSQL';

const TEXT = 'Lady Dvořák 🎸 Zürich';
const marked = (n: number): NamedStatement => ({
  name: 'raw_text_marked',
  text: "SELECT $1::text AS a, $1::text AS b, $2::int AS c, NULL::text AS d, $1::text || '!' AS e",
  values: [`${TEXT} ${n}`, n],
  rawText: ['a', 'c', 'd', 'e'],
});
const unmarked = (n: number): NamedStatement => ({ name: 'raw_text_unmarked', text: 'SELECT $1::text AS a, $1::text AS b', values: [`${TEXT} ${n}`] });

interface Row {
  a: unknown;
  b: unknown;
  c?: unknown;
  d?: unknown;
  e?: unknown;
}

function assertMarked(row: Row, n: number): void {
  assert.ok(row.a instanceof RawText, 'a text column named raw: RawText');
  assert.equal(row.a.text(), `${TEXT} ${n}`);
  assert.equal(row.b, `${TEXT} ${n}`, 'not named: decoded');
  assert.equal(row.c, n, 'named but not of type text: parsed by pg as ever');
  assert.equal(row.d, null, 'NULL stays null');
  assert.ok(row.e instanceof RawText);
  assert.equal(row.e.text(), `${TEXT} ${n}!`);
}

function assertUnmarked(row: Row, n: number): void {
  assert.equal(row.a, `${TEXT} ${n}`);
  assert.equal(row.b, `${TEXT} ${n}`);
}

describe('raw text columns on PostgreSQL', { skip }, () => {
  it('a named statement’s raw text columns arrive as RawText, first and cached executions alike; a plain query after it reads strings', async () => {
    const client = new RawTextClient({ connectionString: url });
    await client.connect();
    try {
      for (let n = 1; n <= 3; n++) assertMarked((await queryNamed<Row>(client, marked(n))).rows[0]!, n);
      const plain = await client.query<Row>('SELECT $1::text AS a, $1::text AS b', [`${TEXT} 9`]);
      assertUnmarked(plain.rows[0]!, 9);
      assertUnmarked((await queryNamed<Row>(client, unmarked(4))).rows[0]!, 4);
      assertMarked((await queryNamed<Row>(client, marked(5))).rows[0]!, 5);
      // unnamed (a statement planned per request, or every statement behind a transaction pooler)
      const { name: _, ...asUnnamed } = marked(6);
      for (let i = 0; i < 2; i++) assertMarked((await queryUnnamed<Row>(client, asUnnamed)).rows[0]!, 6);
      assertUnmarked((await client.query<Row>('SELECT $1::text AS a, $1::text AS b', [`${TEXT} 7`])).rows[0]!, 7);
    } finally {
      await client.end();
    }
  });

  it('a client that is not a RawTextClient reads the same statement as strings', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const row = (await queryNamed<Row>(client, marked(1))).rows[0]!;
      assert.deepEqual(row, { a: `${TEXT} 1`, b: `${TEXT} 1`, c: 1, d: null, e: `${TEXT} 1!` });
    } finally {
      await client.end();
    }
  });

  it('pipelined: statements with and without raw columns in flight together, each result marked as its own statement says', async () => {
    const client = new RawTextClient({ connectionString: url, pipeline: true });
    await client.connect();
    try {
      for (let round = 0; round < 5; round++) {
        const sent = Array.from({ length: 24 }, (_, n) => {
          const raw = (n + round) % 3 !== 0;
          return { n, raw, result: queryNamed<Row>(client, raw ? marked(n) : unmarked(n)) };
        });
        for (const { n, raw, result } of sent) {
          const row = (await result).rows[0]!;
          if (raw) assertMarked(row, n);
          else assertUnmarked(row, n);
        }
      }
    } finally {
      await client.end();
    }
  });
});

for (const engine of engines()) {
  describe(`an Events page read twice: the same inputs for the page memo [${engine.name}]`, () => {
    let w: EventsWorld;
    before(async () => {
      w = await openEventsWorld(engine);
    });
    after(async () => {
      await w?.close();
    });

    it('its own columns and stored previews, raw on PostgreSQL, become the same shared values on every read', async () => {
      const plan = planEvents('/v1/events', parseEventControls(parseQueryString('limit=10')), NOW);
      // named, and unnamed (as behind a transaction pooler); PGlite's client hands over strings
      for (const prepared of [true, false]) {
        const reader = new Reader(w.db, undefined, undefined, new PreparedStatements(prepared));
        const [first] = await reader.rows<{ own: unknown; stored_artists: unknown }>(pageStatement(plan));
        assert.equal(first!.own instanceof RawText, engine.name === 'postgres');
        assert.equal(first!.stored_artists instanceof RawText, engine.name === 'postgres');
      }
      const read = async () => {
        const page = await fetchEventsPage(new Reader(w.db), plan);
        assert.equal(page.rows.length, 10);
        const inputs = rowInputs(page.hasMore, page.rows);
        assert.ok(inputs !== null, 'every value of the rows is a string, a number, null or a shared frozen value');
        for (const row of page.rows) inputs.push(page.relations.artists.get(row.id), page.relations.venues.get(row.id));
        return inputs;
      };
      const once = await read();
      const twice = await read();
      assert.equal(twice.length, once.length);
      twice.forEach((value, i) => assert.equal(value, once[i], `input ${i}`));
      assert.ok(once.some((v) => Array.isArray(v) && v.length > 0), 'the page shows previews');
    });
  });
}
