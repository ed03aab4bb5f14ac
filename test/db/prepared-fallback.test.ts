/**
 * Named prepared statements behind a transaction pooler that does not carry them (PgBouncer
 * before 1.21): a read whose named statement is missing on the server connection it lands on
 * ("does not exist", 26000) or already there ("already exists", 42P05) is run again unnamed, and
 * naming stops for the process, so such a pooler needs no setting; LINEUP_PREPARED_STATEMENTS=false
 * never names. The pooler's behaviour is reproduced on one real connection: DEALLOCATE ALL is the
 * next transaction landing on a server connection that never saw the Parse, and a PREPARE of the
 * same name is another client having prepared it there first. PostgreSQL only.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Reader } from '../../src/db/reader.js';
import { PreparedStatements } from '../../src/db/prepared.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import type { Statement } from '../../src/queries/statement.js';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';

const postgres = engines().find((e) => e.name === 'postgres');
const statement: Statement = { name: 'probe', text: 'SELECT count(*)::int AS n FROM events WHERE id > $1', values: ['0'], stablePlan: true };

describe('prepared statements behind a pooler that does not carry them (PostgreSQL)', { skip: postgres ? false : 'set TEST_DATABASE_URL to run on PostgreSQL' }, () => {
  let t: TestDatabase;
  let db: Database;
  before(async () => {
    t = await openTestDatabase(postgres!);
    const schema = (await t.db.pool.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
    db = await openDatabase(postgres!.target, { schema, maxConnections: 1 }); // one server connection
  });
  after(async () => {
    await db?.close();
    await t?.drop();
  });

  const named = async () => (await db.pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements')).rows.map((r) => r.name);

  it('"does not exist": the read succeeds unnamed and later reads are never named', async () => {
    const notices: string[] = [];
    const prepared = new PreparedStatements(true, (m) => notices.push(m));
    const reader = () => new Reader(db, undefined, undefined, prepared);
    assert.deepEqual(await reader().rows(statement), [{ n: 0 }]);
    assert.equal((await named()).length, 1, 'named on a direct connection');
    await db.pool.query('DEALLOCATE ALL'); // the client still believes it is prepared
    assert.deepEqual(await reader().rows(statement), [{ n: 0 }]);
    assert.equal(prepared.enabled, false);
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, /LINEUP_PREPARED_STATEMENTS=false/);
    assert.deepEqual(await reader().rows({ ...statement, text: `${statement.text} AND true` }), [{ n: 0 }]);
    assert.deepEqual(await named(), [], 'nothing named after the fallback');
  });

  it('"already exists": the read succeeds unnamed', async () => {
    const prepared = new PreparedStatements(true);
    const text = `${statement.text} AND id < $2`;
    const name = prepared.nameOf(text)!;
    await db.pool.query(`PREPARE ${name} (bigint, bigint) AS ${text}`);
    assert.deepEqual(await new Reader(db, undefined, undefined, prepared).rows({ ...statement, text, values: ['0', '10'] }), [{ n: 0 }]);
    assert.equal(prepared.enabled, false);
    await db.pool.query('DEALLOCATE ALL');
  });

  it('LINEUP_PREPARED_STATEMENTS=false: never named', async () => {
    const prepared = new PreparedStatements(false);
    await new Reader(db, undefined, undefined, prepared).rows({ ...statement, text: `${statement.text} AND id <> 7` });
    assert.deepEqual(await named(), []);
  });
});
