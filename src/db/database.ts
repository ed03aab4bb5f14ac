/**
 * Database adapters. Both engines are reached through a `pg.Pool`: PostgreSQL directly, PGlite
 * through its node-postgres shim (`createPgConfig`), so the rest of the code speaks one dialect
 * and receives identical value types.
 *
 * Value types: dates, timestamps and times come back as the server's text (never a JS Date, which
 * would lose microseconds); int8 comes back as a string.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseTarget } from '../config/config.js';
import { copyInPglite, copyInPostgres, type CopyIn } from './copy.js';
import { freeSpace, StoreError, storeOpenMessage } from './disk-faults.js';
import { PipelinedConnections } from './pipeline.js';
import { RawTextClient } from './raw-text.js';
import { SingleClientPool } from './single-client-pool.js';

export type Engine = 'postgres' | 'pglite';

export interface DatabaseOptions {
  /** Per-statement timeout (PostgreSQL enforces it; PGlite accepts but does not enforce it). */
  readonly statementTimeoutMs?: number;
  readonly lockTimeoutMs?: number;
  readonly connectionTimeoutMs?: number;
  /** Pool size (PostgreSQL only; PGlite has exactly one connection). */
  readonly maxConnections?: number;
  /** Pipelined connections for named statements (PostgreSQL only; src/db/pipeline.ts). */
  readonly pipelineConnections?: number;
  /** Schema to use instead of `public` (tests isolate themselves with it on PostgreSQL). */
  readonly schema?: string;
  /** PGlite only: start from this `dumpDataDir` snapshot (faster than creating a new database). */
  readonly pgliteSnapshot?: Blob;
}

/** A PGlite database's data directory as a tarball (used by the test helper's template cache). */
export async function snapshotPglite(db: Database): Promise<Blob> {
  const instance = db.pglite;
  if (!instance) throw new Error('snapshotPglite needs a PGlite database');
  return instance.dumpDataDir('none');
}

export interface Database {
  readonly engine: Engine;
  /** Where the data is, without credentials: for the start-up log line. */
  readonly description: string;
  readonly pool: pg.Pool;
  /** PostgreSQL with LINEUP_DB_PIPELINE: connections that may carry a named statement instead of the pool. */
  readonly pipeline?: PipelinedConnections;
  /** The embedded instance (PGlite only), for snapshots. */
  readonly pglite?: { dumpDataDir(compression?: 'gzip' | 'none'): Promise<Blob> };
  /** Bulk load through COPY on a client of this database's pool (src/db/copy.ts). */
  readonly copyIn: CopyIn;
  close(): Promise<void>;
}

const TEXT_OIDS = new Set([
  1082, // date
  1083, // time
  1114, // timestamp
  1184, // timestamptz
  1266, // timetz
]);

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (TEXT_OIDS.has(oid)) return (value: string) => value;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Session settings sent at connection start. None of them is needed for correct answers: a
 * transaction pooler drops startup options (PgBouncer's ignore_startup_parameters = options), so
 * every text the service returns or keys a cursor with is written explicitly in SQL, whatever the
 * server's TimeZone and DateStyle (src/queries/sql.ts keyText, dateText, utcText). These only
 * tune plans and bound statements on direct connections (docs/operations.md says how to set them
 * for a role behind a pooler).
 */
function sessionSettings(opts: DatabaseOptions): string[] {
  // jit=off: our statements are short index walks; JIT compilation cost far more than they run,
  // for nothing (docs/architecture.md#planner-settings).
  // max_parallel_workers_per_gather=0: a LIMITed page never gains from parallel workers, and a
  // generic plan priced without its values must not start them (docs/architecture.md#planner-settings).
  const settings = [`jit=off`, `max_parallel_workers_per_gather=0`];
  // 0 is sent too: an import or migration overrides a statement_timeout set on the role
  if (opts.statementTimeoutMs !== undefined) settings.push(`statement_timeout=${opts.statementTimeoutMs}`);
  settings.push(`lock_timeout=${opts.lockTimeoutMs ?? 500}`);
  if (opts.schema) settings.push(`search_path=${opts.schema},public`);
  return settings;
}

export async function openDatabase(target: DatabaseTarget, opts: DatabaseOptions = {}): Promise<Database> {
  if (opts.schema && !SCHEMA_NAME.test(opts.schema)) throw new Error(`invalid schema name ${opts.schema}`);
  return target.engine === 'postgres' ? openPostgres(target.url, opts) : openPglite(target.dataDir, opts);
}

async function openPostgres(url: string, opts: DatabaseOptions): Promise<Database> {
  const settings = sessionSettings(opts);
  const connection = {
    connectionString: url,
    connectionTimeoutMillis: opts.connectionTimeoutMs ?? 2000,
    options: settings.map((s) => `-c ${s}`).join(' '),
    application_name: 'lineup',
    types,
  };
  const pool = new pg.Pool({ ...connection, Client: RawTextClient, max: opts.maxConnections ?? 4, idleTimeoutMillis: 30_000 });
  // An idle client that loses its server emits 'error' on the pool; without a listener the
  // process would crash. The next checkout reconnects.
  pool.on('error', () => {});
  const u = new URL(url);
  const description = `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname}${opts.schema ? ` (schema ${opts.schema})` : ''}`;
  if (opts.schema) {
    const c = await pool.connect();
    try {
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${opts.schema}`);
    } finally {
      c.release();
    }
  }
  const size = opts.pipelineConnections ?? 0;
  // named apart in pg_stat_activity, so an operator sees which backends they are
  const pipeline = size > 0 ? new PipelinedConnections({ ...connection, application_name: 'lineup-pipelined' }, { size }) : undefined;
  const described = size > 0 ? `${description}, ${size} pipelined connection${size === 1 ? '' : 's'}` : description;
  const close = async (): Promise<void> => {
    await pipeline?.close();
    await pool.end();
  };
  return { engine: 'postgres', description: described, pool, ...(pipeline ? { pipeline } : {}), copyIn: copyInPostgres, close };
}

/** PGlite has no file lock of its own: two processes on one folder would corrupt it. */
function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, '.lineup.lock');
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8'));
    if (pid && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        throw new Error(`the PGlite data folder ${dataDir} is in use by process ${pid}`);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    fs.writeFileSync(lockFile, String(process.pid));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new StoreError(storeOpenMessage(dataDir, `${code} writing ${lockFile}`, freeSpace(dataDir)), { cause: err });
    throw err;
  }
  return () => {
    try {
      if (fs.readFileSync(lockFile, 'utf8') === String(process.pid)) fs.unlinkSync(lockFile);
    } catch {
      /* already gone */
    }
  };
}

/** Opens the store in `dataDir`; its failure names the folder and, when space is short, that cause. */
async function openPgliteStore<P>(dataDir: string, create: () => Promise<P>): Promise<P> {
  try {
    return await create();
  } catch (err) {
    throw new StoreError(storeOpenMessage(dataDir, (err as Error).message, freeSpace(dataDir)), { cause: err });
  }
}

async function openPglite(dataDir: string | null, opts: DatabaseOptions): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  let pglite;
  try {
    const options = { extensions: { pg_trgm }, ...(opts.pgliteSnapshot ? { loadDataDir: opts.pgliteSnapshot } : {}) };
    pglite = dataDir ? await openPgliteStore(dataDir, () => PGlite.create(dataDir, options)) : await PGlite.create(options);
    if (opts.schema) await pglite.exec(`CREATE SCHEMA IF NOT EXISTS ${opts.schema};`);
    for (const setting of sessionSettings(opts)) {
      const [name, value] = setting.split('=');
      await pglite.query('SELECT set_config($1, $2, false)', [name, value]);
    }
  } catch (err) {
    unlock();
    throw err;
  }
  // SingleClientPool implements the part of pg.Pool the service uses (query, connect, end, on).
  const pool = new SingleClientPool({ ...createPgConfig(pglite), types } as pg.ClientConfig) as unknown as pg.Pool;
  const description = dataDir ? `PGlite at ${dataDir}` : 'PGlite in memory';
  const instance = pglite;
  return {
    engine: 'pglite',
    description,
    pool,
    pglite: instance,
    copyIn: copyInPglite(instance),
    async close() {
      await pool.end();
      await instance.close();
      unlock();
    },
  };
}
