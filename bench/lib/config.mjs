/** Benchmark options (bench/run.mjs --help) and the values derived from them. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);
export const log = (...a) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...a);

export const { values: opt } = parseArgs({
  options: {
    events: { type: 'string' },
    quick: { type: 'boolean', default: false },
    engine: { type: 'string', default: 'postgres' },
    database: { type: 'string' },
    seed: { type: 'string', default: 'lineup-bench' },
    duration: { type: 'string', default: '3' },
    // Lineup and its references take turns, round after round, and each side's figures are the
    // median of its rounds: on a shared machine one run per side, minutes apart from the other,
    // can move a ratio by 25%
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '1,16' },
    // LINEUP_DB_READS admits reads without a queue (beyond → 503 at once). At 4,
    // 12 of 16 connections get instant 503s that the load generator re-sends in a tight loop, so the run
    // measures a 503 storm; the default admits as many reads as the highest concurrency.
    'db-reads': { type: 'string' },
    only: { type: 'string' },
    out: { type: 'string' },
    reseed: { type: 'boolean', default: false },
    'prepare-only': { type: 'boolean', default: false },
    // the overload scenario alone (bench/lib/overload.mjs), after capturing the Events first page
    'overload-only': { type: 'boolean', default: false },
    // every scenario but the overload one
    'no-overload': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opt.help) {
  console.log(fs.readFileSync(path.join(ROOT, 'bench', 'run.mjs'), 'utf8').split('*/')[0]);
  process.exit(0);
}
export const EVENTS = opt.events ? Number(opt.events) : opt.quick ? 100_000 : 1_000_000;
if (!Number.isSafeInteger(EVENTS) || EVENTS < 100) throw new Error(`--events must be a whole number >= 100`);
export const ENGINE = opt.engine;
if (ENGINE !== 'postgres' && ENGINE !== 'pglite') throw new Error('--engine must be postgres or pglite');
export const SEED = opt.seed;
export const DURATION = Number(opt.duration);
export const WARMUP = Number(opt.warmup);
export const ROUNDS = Number(opt.rounds);
if (!Number.isSafeInteger(ROUNDS) || ROUNDS < 1) throw new Error('--rounds must be a whole number >= 1');
export const CONNECTIONS = opt.connections.split(',').map(Number);
export const DB_READS = Number(opt['db-reads'] ?? Math.max(4, ...CONNECTIONS));
export const PG_URL = opt.database ?? process.env.BENCH_DATABASE_URL ?? 'postgresql://app:app@127.0.0.1:5432/bench';
export const PGLITE_DIR = path.join(ROOT, 'bench', '.data', `pglite-${EVENTS}-${SEED}`);
export const DATABASE_URL = ENGINE === 'postgres' ? PG_URL : `pglite:${PGLITE_DIR}`;
export const OUT =
  opt.out ??
  path.join(ROOT, 'bench', opt['overload-only'] ? `results-overload-${ENGINE}-${EVENTS}.md` : ENGINE === 'postgres' && EVENTS === 1_000_000 ? 'results.md' : `results-${ENGINE}-${EVENTS}.md`);
export const WORK = path.join(ROOT, 'bench', '.work');
export const { MAX_REQUESTS_PER_CONNECTION } = await dist('app.js');
export const { PreparedNames } = await dist('db/prepared.js');
export const preparedNames = new PreparedNames();
export const { prepareValue } = (await import('pg/lib/utils.js')).default;
fs.mkdirSync(WORK, { recursive: true });

export const SERVER_ENV = {
  DATABASE_URL,
  LINEUP_SEED_DEMO: 'false',
  LINEUP_DB_READS: String(DB_READS),
  LINEUP_RATE_BURST: '1000000000',
  LINEUP_RATE_REFILL_PER_SEC: '1000000',
  LINEUP_MAX_ACTIVE_REQUESTS: '10000',
  LINEUP_LOG_LEVEL: 'silent',
  // PostgreSQL, direct connection: the named statements on two pipelined connections
  // (docs/architecture.md#pipelined-connections)
  ...(ENGINE === 'postgres' ? { LINEUP_DB_PIPELINE: '2' } : {}),
};

