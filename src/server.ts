/**
 * server.ts: config → database (schema checked, migrated when allowed, the demo seeded on first
 * start of the embedded store) → buildApp → listen, and graceful shutdown: on SIGTERM/SIGINT,
 * after LINEUP_SHUTDOWN_DELAY_MS of not-ready serving, stop admission (ready → 503, new requests 503 with
 * Connection: close), let in-flight requests finish, force-close after the grace period, exit 0.
 */
import type { Server } from 'node:http';
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config/config.js';
import { openDatabase, type Database } from './db/database.js';
import { ensureSchema } from './db/schema.js';
import { buildApp } from './app.js';
import { closeUnusedConnections } from './http/listener.js';
import type { ServiceState } from './http/service-state.js';
import { createOperations } from './http/admin/operations.js';
import { startAdmin, type RunningAdmin } from './http/admin/admin.js';

export const DEMO_EVENTS = 2000;
export const DEMO_SEED = 'lineup-demo';

export function createLogger(config: Config): Logger {
  return pino({ level: config.logLevel, base: { service: 'lineup' } });
}

export async function openStore(config: Config): Promise<Database> {
  const db = await openDatabase(config.database, {
    statementTimeoutMs: config.statementTimeoutMs,
    lockTimeoutMs: config.lockTimeoutMs,
    connectionTimeoutMs: config.connectionTimeoutMs,
    // each admitted read runs at most 3 statements at once, plus one for the readiness probe
    maxConnections: config.dbReads * 3 + 1,
    pipelineConnections: config.dbPipeline,
  });
  try {
    // reads the schema version; migrates only a writable database with LINEUP_MIGRATE on
    await ensureSchema(db, { migrate: config.migrate });
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

async function seedIfEmpty(db: Database, logger: Logger): Promise<void> {
  const { rows } = await db.pool.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM events) AS any');
  if (rows[0]?.any) return;
  const { seedDemo } = await import('./catalogue/demo.js');
  const started = Date.now();
  logger.info(`seeding the demo catalogue (${DEMO_EVENTS} Events)…`);
  await seedDemo(db, { events: DEMO_EVENTS, seed: DEMO_SEED });
  logger.info(`demo catalogue seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Lets the event loop take what clients had already sent when admission stopped: connections
 * still in the listen backlog, requests still in socket buffers. Until they are read, Node counts
 * such a connection as idle, and closing it (server.close closes idle connections) resets a
 * request that was written before the shutdown. Returns once a few turns of the loop saw no new
 * connection nor request (at most ~100 turns); those requests are answered 503 with
 * Connection: close like any request after admission stopped.
 */
async function settle(server: Server): Promise<void> {
  let events = 0;
  const seen = () => events++;
  server.on('connection', seen);
  server.on('request', seen);
  try {
    for (let turns = 0, quiet = 0; quiet < 3 && turns < 100; turns++) {
      const before = events;
      await new Promise((resolve) => setTimeout(resolve, 1));
      quiet = events === before ? quiet + 1 : 0;
    }
  } finally {
    server.off('connection', seen);
    server.off('request', seen);
  }
}

/**
 * Stops admission (ready and new requests → 503 with Connection: close), answers the requests
 * already sent (settle), closes connections that never sent one, stops listening, lets in-flight
 * requests finish, force-closes what remains after `graceMs`, then closes the database.
 * Idempotent: every call returns the same promise.
 */
export function gracefulShutdown(
  app: FastifyInstance,
  db: Database,
  state: ServiceState,
  graceMs: number,
  logger: Logger,
): () => Promise<void> {
  let stopping: Promise<void> | null = null;
  return () =>
    (stopping ??= (async () => {
      state.stopping = true;
      logger.info('shutting down: draining in-flight requests');
      await settle(app.server);
      closeUnusedConnections(app.server);
      const force = setTimeout(() => {
        logger.warn('grace period over: closing remaining connections');
        app.server.closeAllConnections();
      }, graceMs);
      try {
        await app.close();
      } finally {
        clearTimeout(force);
        await db.close();
        logger.info('stopped');
      }
    })());
}

/**
 * LINEUP_SHUTDOWN_DELAY_MS, a step before the drain: readiness answers 503 at once (a load
 * balancer stops sending) while requests are still served for `delayMs`; then `drain` (the
 * existing graceful shutdown). Idempotent like the drain.
 */
export function delayedShutdown(state: ServiceState, delayMs: number, drain: () => Promise<void>, logger: Logger): () => Promise<void> {
  let stopping: Promise<void> | null = null;
  return () =>
    (stopping ??= (async () => {
      if (delayMs > 0) {
        state.notReady = true;
        logger.info(`shutting down: not ready, still serving for ${delayMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
      await drain();
    })());
}

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly url: string;
  /** The operator listener, when LINEUP_ADMIN_PORT is set. */
  readonly admin: RunningAdmin | null;
  stop(): Promise<void>;
}

export async function serve(config: Config): Promise<RunningServer> {
  const logger = createLogger(config);
  const db = await openStore(config);
  if (config.seedDemo) await seedIfEmpty(db, logger);
  const state: ServiceState = { stopping: false };
  const operations = createOperations(db, config);
  const app = await buildApp({ config, db, logger, state, operations });
  // Fastify writes the one start-up line: where it listens, which database it uses and which
  // Node.js runs it.
  await app.listen({
    host: config.host,
    port: config.port,
    listenTextResolver: (address) => `Lineup listening on ${address} (database: ${db.description}) on Node.js ${process.versions.node}`,
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  // The operator listener answers through the drain (/ready says 503, /live 200) and closes last.
  let admin: RunningAdmin | null = null;
  if (config.adminPort !== null) {
    try {
      admin = await startAdmin(config.adminHost, config.adminPort, { operations, state, logger });
    } catch (err) {
      await app.close();
      await db.close();
      throw err;
    }
  }
  const drain = gracefulShutdown(app, db, state, config.shutdownGraceMs, logger);
  const shutdown = delayedShutdown(state, config.shutdownDelayMs, drain, logger);
  const stop = async () => {
    try {
      await shutdown();
    } finally {
      await admin?.close();
    }
  };
  return { app, url, admin, stop };
}
