/**
 * Test helpers: the database engines to run on (PGlite always; PostgreSQL when
 * TEST_DATABASE_URL is set, each test file in its own schema), and a real server on an
 * ephemeral port over real data.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { configWith, type Config, type DatabaseTarget } from '../src/config/config.js';
import { openDatabase, snapshotPglite, type Database } from '../src/db/database.js';
import { loadMigrations, migrate } from '../src/db/migrate.js';
import { buildApp } from '../src/app.js';
import type { Statement } from '../src/queries/statement.js';
import { after, before } from 'node:test';
import { checkResponse } from './contract/validate.js';

export interface EngineUnderTest {
  readonly name: 'pglite' | 'postgres';
  readonly target: DatabaseTarget;
}

/**
 * PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. LINEUP_TEST_ENGINES=postgres
 * (used by CI's second pass, after a PGlite-only pass) restricts the run to PostgreSQL.
 */
export function engines(): EngineUnderTest[] {
  const list: EngineUnderTest[] = [];
  const only = process.env.LINEUP_TEST_ENGINES;
  if (only !== 'postgres') list.push({ name: 'pglite', target: { engine: 'pglite', dataDir: null } });
  const url = process.env.TEST_DATABASE_URL;
  if (url) list.push({ name: 'postgres', target: { engine: 'postgres', url } });
  return list;
}

export interface TestDatabase {
  readonly db: Database;
  drop(): Promise<void>;
}

/**
 * A freshly migrated PGlite takes ~3.5 s to create; restoring a snapshot ~1 s. The snapshot of
 * the migrated empty store is cached on disk, keyed by the migrations' content.
 */
async function migratedPgliteSnapshot(): Promise<Blob> {
  const key = createHash('sha256')
    .update(loadMigrations().map((m) => m.sql).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const dir = join(process.cwd(), 'node_modules', '.cache', 'lineup-test');
  const file = join(dir, `pglite-${key}.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const db = await openDatabase({ engine: 'pglite', dataDir: null });
  await migrate(db);
  const blob = await snapshotPglite(db);
  await db.close();
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}`;
  writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
  renameSync(tmp, file);
  return blob;
}

export async function openTestDatabase(engine: EngineUnderTest, opts: { statementTimeoutMs?: number } = {}): Promise<TestDatabase> {
  const schema = engine.name === 'postgres' ? `test_${randomBytes(6).toString('hex')}` : undefined;
  const snapshot = engine.name === 'pglite' ? await migratedPgliteSnapshot() : undefined;
  const db = await openDatabase(engine.target, {
    schema,
    statementTimeoutMs: opts.statementTimeoutMs ?? 3000,
    maxConnections: 8,
    ...(snapshot ? { pgliteSnapshot: snapshot } : {}),
  });
  await migrate(db);
  return {
    db,
    async drop() {
      if (schema) await db.pool.query(`DROP SCHEMA ${schema} CASCADE`);
      await db.close();
    },
  };
}

export interface TestServer {
  readonly app: FastifyInstance;
  readonly base: string;
  /** Statements issued since the last reset (the statement budget is asserted with it). */
  readonly statements: Statement[];
  get(path: string, init?: RequestInit): Promise<Response>;
  json(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

export async function startServer(db: Database, overrides: Partial<Config> = {}, clock?: () => Date): Promise<TestServer> {
  const statements: Statement[] = [];
  const config = configWith({ logLevel: 'silent', rateBurst: 1_000_000, ...overrides });
  const app = await buildApp({ config, db, onStatement: (s) => statements.push(s), ...(clock ? { clock } : {}) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  // Every response the suites see is checked against the committed contract (openapi.json).
  const get = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${base}${path}`, init);
    await checkResponse(init?.method ?? 'GET', path, res);
    return res;
  };
  return {
    app,
    base,
    statements,
    get,
    async json(path, init) {
      const res = await get(path, init);
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text === '' ? null : JSON.parse(text) };
    },
    async close() {
      // a test that left a connection open must not keep the test process alive
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
    },
  };
}

/**
 * A database and a server shared by the tests of one `describe` block: opened before them,
 * closed and dropped after them. Read `suite.t` / `suite.server` inside tests (set in `before`).
 */
export function serveForSuite(
  engine: EngineUnderTest,
  overrides: Partial<Config> = {},
): { readonly t: TestDatabase; readonly server: TestServer } {
  const suite = {} as { t: TestDatabase; server: TestServer };
  before(async () => {
    suite.t = await openTestDatabase(engine);
    suite.server = await startServer(suite.t.db, overrides);
  });
  after(async () => {
    await suite.server?.close();
    await suite.t?.drop();
  });
  return suite;
}
