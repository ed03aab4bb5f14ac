/**
 * Named statements (src/db/named-query.ts): what pg derives from a RowDescription is kept from
 * the first execution and reused while PostgreSQL describes the same fields, and learnt again
 * when it describes others; rows and errors are pg's. PostgreSQL only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { queryNamed } from '../../src/db/named-query.js';

const url = process.env.TEST_DATABASE_URL;
const skip = url ? false : 'set TEST_DATABASE_URL to run on PostgreSQL';

describe('named statements keep their row description (PostgreSQL)', { skip }, () => {
  it('reuse the first execution’s fields, parsers and empty row, with each execution’s own values', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const statement = (n: number) => ({
        name: 'named_query_shape',
        text: "SELECT $1::int AS n, $1::int8 AS big, 'x' || $1::text AS label, NULL::date AS nothing, true AS yes",
        values: [n],
      });
      const first = await queryNamed<{ n: number; big: string; label: string; nothing: null; yes: boolean }>(client, statement(1));
      const second = await queryNamed<{ n: number; big: string; label: string; nothing: null; yes: boolean }>(client, statement(2));
      assert.deepEqual(first.rows, [{ n: 1, big: '1', label: 'x1', nothing: null, yes: true }]);
      assert.deepEqual(second.rows, [{ n: 2, big: '2', label: 'x2', nothing: null, yes: true }]);
      assert.equal(second.fields, first.fields, 'the same field list, not one rebuilt from the second description');
      assert.deepEqual(Object.keys(second.rows[0]!), ['n', 'big', 'label', 'nothing', 'yes']);
      assert.equal(second.command, 'SELECT');
      assert.equal(second.rowCount, 1);
    } finally {
      await client.end();
    }
  });

  it('keep one description per client, each with its own value parsers, executions alternating', async () => {
    // pg gives each client value types of its own: a pool's or a pipeline's connections take
    // turns, and each must keep reusing what it learnt (kept by name alone, each turn relearnt)
    const a = new pg.Client({ connectionString: url });
    const b = new pg.Client({ connectionString: url });
    b.setTypeParser(23, (text: string) => `int:${text}`); // b's own parser for int4
    await a.connect();
    await b.connect();
    try {
      const statement = (n: number) => ({ name: 'named_query_per_client', text: 'SELECT $1::int AS n', values: [n] });
      const a1 = await queryNamed<{ n: unknown }>(a, statement(1));
      const b1 = await queryNamed<{ n: unknown }>(b, statement(2));
      const a2 = await queryNamed<{ n: unknown }>(a, statement(3));
      const b2 = await queryNamed<{ n: unknown }>(b, statement(4));
      assert.deepEqual([a1.rows, b1.rows, a2.rows, b2.rows], [[{ n: 1 }], [{ n: 'int:2' }], [{ n: 3 }], [{ n: 'int:4' }]]);
      assert.equal(a2.fields, a1.fields, 'a reuses its own description after b ran the statement');
      assert.equal(b2.fields, b1.fields, 'b reuses its own description after a ran it again');
      assert.notEqual(a1.fields, b1.fields);
    } finally {
      await a.end();
      await b.end();
    }
  });

  it('learn a description again when PostgreSQL sends a different one under the same name', async () => {
    const schema = `named_query_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const a = new pg.Client({ connectionString: url });
    const b = new pg.Client({ connectionString: url });
    try {
      await admin.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (v int); INSERT INTO ${schema}.t VALUES (7)`);
      await a.connect();
      await b.connect();
      const statement = { name: 'named_query_relearn', text: `SELECT * FROM ${schema}.t`, values: [] };
      const before = await queryNamed<{ v: unknown }>(a, statement);
      assert.deepEqual(before.rows, [{ v: 7 }]);
      // the same name on another connection, after the table changed: other fields, other types
      await admin.query(`ALTER TABLE ${schema}.t ALTER COLUMN v TYPE text; ALTER TABLE ${schema}.t ADD COLUMN w bool DEFAULT false`);
      const after = await queryNamed<{ v: unknown; w: unknown }>(b, statement);
      assert.deepEqual(after.rows, [{ v: '7', w: false }]);
      assert.notEqual(after.fields, before.fields);
      const again = await queryNamed<{ v: unknown; w: unknown }>(b, statement);
      assert.equal(again.fields, after.fields, 'the new description is the one kept');
    } finally {
      await a.end().catch(() => {});
      await b.end().catch(() => {});
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });

  it('reject with PostgreSQL’s error, and the connection goes on', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await assert.rejects(queryNamed(client, { name: 'named_query_fail', text: 'SELECT 1 / $1::int AS q', values: [0] }), { code: '22012' });
      const ok = await queryNamed<{ q: number }>(client, { name: 'named_query_fail', text: 'SELECT 1 / $1::int AS q', values: [1] });
      assert.deepEqual(ok.rows, [{ q: 1 }]);
    } finally {
      await client.end();
    }
  });
});
