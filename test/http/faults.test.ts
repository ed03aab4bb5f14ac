/**
 * Database faults on PostgreSQL (issue: "Staying up"): the server disappearing mid-run and coming
 * back, a lock held past the lock timeout, a statement past the statement timeout. Every one is a
 * 503 `unavailable` with Retry-After — never a 500 — and the service recovers by itself.
 * The server's disappearance is simulated with a TCP proxy between Lineup and PostgreSQL.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { startServer, type TestServer } from '../helper.js';

const url = process.env.TEST_DATABASE_URL;

/** A TCP proxy that can be taken down (closing every connection) and brought back. */
class Proxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}
  async up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }
  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('database faults on PostgreSQL', { skip: url ? false : 'set TEST_DATABASE_URL to run the PostgreSQL fault tests' }, () => {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  let proxy: Proxy;
  let db: Database;
  let server: TestServer;
  let admin: pg.Client;

  before(async () => {
    const target = new URL(url!);
    proxy = new Proxy({ host: target.hostname, port: Number(target.port || 5432) }, await freePort());
    await proxy.up();
    const viaProxy = new URL(url!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    db = await openDatabase({ engine: 'postgres', url: viaProxy.toString() }, { schema, statementTimeoutMs: 300, connectionTimeoutMs: 1000 });
    await migrate(db);
    server = await startServer(db);
    admin = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
    await admin.connect();
  });

  after(async () => {
    await server.close();
    await db.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
    await proxy.down();
  });

  it('answers 503 while the server is gone and 200 again when it returns, without a restart', async () => {
    assert.equal((await server.json('/v1/events')).status, 200);
    await proxy.down();
    const during = await server.json('/v1/events');
    assert.equal(during.status, 503);
    assert.equal(during.body.error.type, 'unavailable');
    assert.match(during.headers.get('retry-after') ?? '', /^\d+$/);
    const ready = await server.json('/v1/ready');
    assert.equal(ready.status, 503);
    await proxy.up();
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await server.json('/v1/events')).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 200);
    assert.equal((await server.json('/v1/ready')).status, 200);
  });

  it('a lock held past the lock/statement timeout gives 503 while the lock is still held', async () => {
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
    let unlocked: Promise<unknown> | null = null;
    const unlock = () => (unlocked ??= admin.query('ROLLBACK'));
    // were no timeout enforced, the read would wait for the lock: the guard lets it go on (200)
    const guard = setTimeout(unlock, 30_000);
    try {
      const res = await server.json('/v1/events');
      assert.equal(unlocked, null, 'answered while the lock was held');
      assert.equal(res.status, 503);
      assert.equal(res.body.error.type, 'unavailable');
      assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
    } finally {
      clearTimeout(guard);
      await unlock();
    }
    assert.equal((await server.json('/v1/events')).status, 200);
  });
});
