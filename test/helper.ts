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
import { buildApp, type AppOptions } from '../src/app.js';
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

/**
 * The `skip` option of tests that do not depend on the database engine, in a file that also has
 * tests per engine: CI's PostgreSQL-only pass (LINEUP_TEST_ENGINES=postgres) skips them, since
 * they ran in its PGlite pass; every other run runs them.
 */
export const engineFreeSkip: string | false =
  process.env.LINEUP_TEST_ENGINES === 'postgres' ? 'does not depend on the database engine: run in the PGlite pass' : false;

export interface TestDatabase {
  readonly db: Database;
  drop(): Promise<void>;
}

/**
 * A freshly migrated PGlite takes ~3.5 s to create; restoring a snapshot ~1 s. The snapshot of
 * the migrated empty store is cached on disk, keyed by the migrations' content.
 */
export async function migratedPgliteSnapshot(): Promise<Blob> {
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

/** The PostgreSQL test schemas this file created and has not dropped, with their server's URL. */
const undropped = new Map<string, string>();

// A test whose code under test closes the database itself (a graceful shutdown closes its pool)
// cannot drop its schema through it: whatever the file's tests left is dropped once they have
// ended, on a connection of its own (CI's PostgreSQL passes otherwise left 8 empty schemas).
after(async () => {
  for (const [schema, url] of undropped) {
    const db = await openDatabase({ engine: 'postgres', url }, { maxConnections: 1 });
    try {
      await db.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      undropped.delete(schema);
    } finally {
      await db.close();
    }
  }
});

export async function openTestDatabase(engine: EngineUnderTest, opts: { statementTimeoutMs?: number } = {}): Promise<TestDatabase> {
  const schema = engine.name === 'postgres' ? `test_${randomBytes(6).toString('hex')}` : undefined;
  if (schema !== undefined && engine.target.engine === 'postgres') undropped.set(schema, engine.target.url);
  const snapshot = engine.name === 'pglite' ? await migratedPgliteSnapshot() : undefined;
  const db = await openDatabase(engine.target, {
    schema,
    statementTimeoutMs: opts.statementTimeoutMs ?? 3000,
    maxConnections: 8,
    // CI's PostgreSQL pass runs the suites once more with pipelined connections (LINEUP_DB_PIPELINE)
    pipelineConnections: Number(process.env.LINEUP_TEST_PIPELINE ?? 0),
    ...(snapshot ? { pgliteSnapshot: snapshot } : {}),
  });
  await migrate(db);
  return {
    db,
    async drop() {
      if (schema) {
        await db.pool.query(`DROP SCHEMA ${schema} CASCADE`);
        undropped.delete(schema);
      }
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

/**
 * The placeholders $1…$n a statement's text never uses. PostgreSQL cannot type an unused parameter
 * (42P18, a 500) and a Bind that supplies it disagrees with an unnamed statement (a 503): every
 * test server refuses such a statement (test/unit/statement-parameters.test.ts builds the Events
 * and Venues statements of every combination of controls against the same rule).
 */
export function unusedParameters(statement: Pick<Statement, 'text' | 'values'>): number[] {
  const used = new Set(placeholders(statement.text));
  return statement.values.map((_, i) => i + 1).filter((n) => !used.has(n));
}

/** The numbers of the placeholders ($n) a statement's text holds, in text order. */
export function placeholders(text: string): number[] {
  return [...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));
}

export async function startServer(
  db: Database,
  overrides: Partial<Config> = {},
  clock?: () => Date,
  options: Pick<AppOptions, 'limiterNow' | 'operations'> = {},
): Promise<TestServer> {
  const statements: Statement[] = [];
  const config = configWith({ logLevel: 'silent', rateBurst: 1_000_000, ...overrides });
  const observe = (s: Statement) => {
    const unused = unusedParameters(s);
    if (unused.length > 0) throw new Error(`statement ${s.name} leaves parameters ${unused.join(', ')} unused: ${s.text}`);
    statements.push(s);
  };
  const app = await buildApp({ config, db, onStatement: observe, ...(clock ? { clock } : {}), ...options });
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
  options: { readonly clock?: () => Date; readonly prepare?: (db: Database) => Promise<unknown> } = {},
): { readonly t: TestDatabase; readonly server: TestServer } {
  const suite = {} as { t: TestDatabase; server: TestServer };
  before(async () => {
    suite.t = await openTestDatabase(engine);
    await options.prepare?.(suite.t.db);
    suite.server = await startServer(suite.t.db, overrides, options.clock);
  });
  after(async () => {
    await suite.server?.close();
    await suite.t?.drop();
  });
  return suite;
}

export interface HeldStatements {
  /** Resolves when the first statement (or the first connection request) reached the database. */
  readonly reached: Promise<void>;
  /** How many statements and connection requests have been held so far. */
  readonly held: number;
  /** Resolves once `n` statements or connection requests have been held. */
  untilHeld(n: number): Promise<void>;
  /** Lets every held call (and every later one) through. */
  release(): void;
  /** Resolves when every call let through has come back from the database (answered or failed). */
  drained(): Promise<void>;
  /** Puts the pool's own query and connect back. */
  restore(): void;
  /** release() and restore(): what a test's `finally` does. */
  end(): void;
}

/**
 * Holds every database statement until released: the shape that makes admission, deadline and
 * shutdown races happen every time, however slow or fast the machine. Reads take a connection of
 * their own (pool.connect) and the readiness probe uses pool.query, so both are held. The
 * arguments are passed on untouched: pg-pool's query() takes its client through
 * this.connect(callback), so a replacement that dropped the callback would leave it waiting
 * with a checked-out client (and pool.end() would never finish).
 * A guard lets them through after `guardMs` (30 s) in any case: a behaviour that is broken (a
 * deadline that never fires, a gate that admits all) then fails the test with a wrong answer
 * instead of hanging it.
 */
export function holdStatements(db: Database, guardMs = 30_000): HeldStatements {
  const pool = db.pool as unknown as Record<'query' | 'connect', (...a: unknown[]) => unknown>;
  const originals = { query: pool.query, connect: pool.connect };
  let held = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const passed: Promise<unknown>[] = [];
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const guard = setTimeout(() => open(), guardMs);
  guard.unref();
  void gate.then(() => clearTimeout(guard));
  for (const name of ['query', 'connect'] as const) {
    pool[name] = (...args: unknown[]) => {
      held++;
      for (const w of waiters.filter((w) => held >= w.n)) w.resolve();
      const result = gate.then(() => originals[name].apply(db.pool, args));
      passed.push(result.then(
        (r) => r,
        () => undefined,
      ));
      // with a callback, pg-pool answers through it (and the returned promise is not used)
      if (typeof args[args.length - 1] === 'function') {
        result.catch(() => {});
        return undefined;
      }
      return result;
    };
  }
  // pipelined connections (LINEUP_TEST_PIPELINE) take no statement while holding: every one goes to the pool, held
  const pipeline = db.pipeline as unknown as { tryQuery: (...a: unknown[]) => unknown } | undefined;
  const tryQuery = pipeline?.tryQuery;
  if (pipeline) pipeline.tryQuery = () => null;
  const restore = () => {
    pool.query = originals.query;
    pool.connect = originals.connect;
    if (pipeline && tryQuery) pipeline.tryQuery = tryQuery;
  };
  const untilHeld = (n: number) =>
    held >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }));
  return {
    reached: untilHeld(1),
    get held() {
      return held;
    },
    untilHeld,
    release: () => open(),
    async drained() {
      for (let seen = 0; seen < passed.length; seen = passed.length) await Promise.all(passed.slice(seen));
    },
    restore,
    end() {
      open();
      restore();
    },
  };
}
