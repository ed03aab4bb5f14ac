/**
 * The `lineup` command (decisions §1): serve | migrate | import FILE [--replace] |
 * seed [--events N] [--seed S] | openapi | sync --base-url URL --out DIR. Every subcommand takes
 * --help; bad input prints a one-line error and exits non-zero.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config/config.js';
import { diskFaultMessage, freeSpace, stalledMessage, StoreError, untilSettled } from './db/disk-faults.js';

const USAGE = `Usage: lineup <command> [options]

Commands:
  serve                          serve the API (what npm start runs)
  migrate                        bring the database schema up to date
  import FILE [--replace]        load a catalogue document (FILE may be - for stdin)
  seed [--events N] [--seed S]   generate and import a deterministic demo catalogue
  openapi                        print the OpenAPI 3.1.0 document
  sync --base-url URL --out DIR  mirror Events and Venues of a running API into DIR

Configuration comes from environment variables (see README): DATABASE_URL, HOST, PORT, …`;

const HELP: Record<string, string> = {
  serve:
    'Usage: lineup serve\n\nServes the API on HOST:PORT over DATABASE_URL. It first reads the schema version: a writable\n' +
    'database is migrated (unless LINEUP_MIGRATE=false); a read-only one (hot standby, read-only role) is\n' +
    'served as is when its schema is current, and a schema behind or ahead of this version stops it with\n' +
    'one line. The demo catalogue is seeded when the store holds no Events (LINEUP_SEED_DEMO, on by\n' +
    'default for the embedded PGlite store only).',
  migrate:
    'Usage: lineup migrate\n\nApplies pending schema migrations to DATABASE_URL (the primary, on a direct connection), with no\n' +
    'statement or lock timeout; a second migrate or serve waits for the first. First it builds the indexes,\n' +
    'writes the stored previews and validates the foreign keys a first import stopped after its COMMIT left\n' +
    'undone (listed in catalogue_index_builds).',
  import:
    'Usage: lineup import FILE [--replace]\n\nLoads a catalogue document (JSON; - reads stdin) in one transaction. With --replace, entities\nabsent from the document are removed. Structural problems are listed as "entity publicId: field: message"\nand nothing is written (exit code 2).\n' +
    'When it is committed, it prints per kind how many entities are new, changed (any public field or\n' +
    'membership, or updatedAt), unchanged, deactivated (among the changed) and removed (--replace).\n' +
    'A full disk (the PGlite store, TMPDIR, or PostgreSQL) stops it with exit code 1 and one line naming\n' +
    'what to free; nothing is written. First it removes the temporary folders of imports that no longer run.',
  seed: 'Usage: lineup seed [--events N] [--seed S]\n\nGenerates a deterministic demo catalogue of N Events (default 2000) from seed S and imports it.',
  openapi: 'Usage: lineup openapi\n\nPrints the OpenAPI 3.1.0 document of the API.',
  sync:
    'Usage: lineup sync --base-url URL --out DIR [--full-every N] [--full]\n\n' +
    'Mirrors the Events and Venues of the API at URL into DIR (events.jsonl, venues.jsonl, state.json)\n' +
    'following the incremental reading rules: each run reads what changed since the checkpoint (the\n' +
    'greatest updatedAt seen, inclusive), deduplicated by publicId; every N runs (default 24, and on the\n' +
    'first run or with --full) a full traversal replaces the mirror and removes what is gone. Files are\n' +
    'replaced atomically. Each page read is journaled in DIR (events.journal.jsonl, venues.journal.jsonl):\n' +
    'the next run of the same kind continues an interrupted traversal from its last page. One sync at a\n' +
    'time per DIR (DIR/sync.lock; the lock of a process that no longer runs is taken over). Ctrl-C (or\n' +
    'SIGTERM) stops between pages, releases the lock and keeps the journal; a second Ctrl-C exits at once.\n' +
    'Exit codes: 0 done, 1 the API or the network failed, 2 bad arguments, or DIR unusable or locked,\n' +
    '130 stopped by a signal.',
};

class UsageError extends Error {}

type OptionSpec = Record<string, { type: 'boolean' | 'string'; short?: string }>;
interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

function parse(command: string, args: string[], options: OptionSpec, positionals: number): Parsed {
  try {
    const parsed = parseArgs({ args, options: { help: { type: 'boolean', short: 'h' }, ...options }, allowPositionals: positionals > 0, strict: true });
    if (parsed.positionals.length > positionals) throw new UsageError(`unexpected argument "${parsed.positionals[positionals]}"`);
    return { values: parsed.values as Parsed['values'], positionals: parsed.positionals };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${command}: ${(err as Error).message.split('\n')[0]}`);
  }
}

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`${name} must be a positive whole number, got "${value}"`);
  return Number(value);
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 1 : 0;
  }
  try {
    switch (command) {
      case 'serve': {
        if (parse(command, rest, {}, 0).values.help) return help(command);
        const { serve } = await import('./server.js');
        const running = await onStore(() => serve(loadConfig()));
        await new Promise<void>((resolve) => {
          const onSignal = () => {
            running.stop().then(resolve, resolve);
          };
          process.once('SIGTERM', onSignal);
          process.once('SIGINT', onSignal);
        });
        return 0;
      }
      case 'migrate': {
        if (parse(command, rest, {}, 0).values.help) return help(command);
        const config = loadConfig();
        await removeLeftovers();
        const { openDatabase } = await import('./db/database.js');
        const { migrate } = await import('./db/migrate.js');
        const applied = await onStore(async () => {
          const db = await openDatabase(config.database, { statementTimeoutMs: 0 });
          try {
            return await migrate(db);
          } finally {
            await db.close();
          }
        });
        console.log(applied.length ? `applied migrations ${applied.join(', ')}` : 'schema is up to date');
        return 0;
      }
      case 'import': {
        const { values, positionals } = parse(command, rest, { replace: { type: 'boolean' } }, 1);
        if (values.help) return help(command);
        const file = positionals[0];
        if (file === undefined) throw new UsageError('import: missing FILE (use - for stdin)');
        return await runImport(file, values.replace === true);
      }
      case 'seed': {
        const { values } = parse(command, rest, { events: { type: 'string' }, seed: { type: 'string' } }, 0);
        if (values.help) return help(command);
        const events = positiveInt(values.events as string | undefined, '--events', 2000);
        return await runSeed(events, (values.seed as string | undefined) ?? 'lineup-demo');
      }
      case 'openapi': {
        if (parse(command, rest, {}, 0).values.help) return help(command);
        const { openApiDocument } = await import('./http/openapi.js');
        process.stdout.write(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
        return 0;
      }
      case 'sync': {
        const { values } = parse(command, rest, { 'base-url': { type: 'string' }, out: { type: 'string' }, 'full-every': { type: 'string' }, full: { type: 'boolean' } }, 0);
        if (values.help) return help(command);
        const baseUrl = values['base-url'] as string | undefined;
        const out = values.out as string | undefined;
        if (baseUrl === undefined) throw new UsageError('sync: missing --base-url URL');
        if (out === undefined) throw new UsageError('sync: missing --out DIR');
        if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl)) throw new UsageError(`sync: --base-url must be an http(s) URL, got "${baseUrl}"`);
        const fullEvery = positiveInt(values['full-every'] as string | undefined, '--full-every', 24);
        return await runSync(baseUrl, out, fullEvery, values.full === true);
      }
      default:
        throw new UsageError(`unknown command "${command}" (try lineup --help)`);
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError) {
      console.error(`lineup: ${err.message}`);
      return 2;
    }
    if (err instanceof StoreError) {
      console.error(`lineup: ${err.message}`);
      // a PGlite that failed or stopped can keep the process alive with nothing left to run
      setTimeout(() => process.exit(1), 500).unref();
      return 1;
    }
    if (err instanceof Error && err.name === 'SchemaError') {
      console.error(`lineup: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

function help(command: string): number {
  console.log(HELP[command]);
  return 0;
}

function progressPrinter(label: string): ((p: { entities: number; phase?: string }) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  return (p) => process.stderr.write(`\r${label}: ${p.entities.toLocaleString('en')} entities ${p.phase ?? ''}\x1b[K`);
}

/** Removes the temporary folders of imports that no longer run, and says so on stderr. */
async function removeLeftovers(): Promise<void> {
  const temp = await import('./catalogue/temp-files.js');
  const line = temp.describeLeftovers(temp.removeLeftovers());
  if (line !== null) console.error(`lineup: ${line}`);
}

/**
 * Runs `work` on DATABASE_URL's store: a full disk (the store, TMPDIR, PostgreSQL's 53100) or a
 * store that stops answering becomes a StoreError naming the cause and what to free.
 */
async function onStore<T>(work: () => Promise<T>): Promise<T> {
  const target = loadConfig().database;
  const free = () => (target.engine === 'pglite' && target.dataDir !== null ? freeSpace(target.dataDir) : null);
  try {
    return await untilSettled(work(), () => stalledMessage(target, free()));
  } catch (err) {
    const message = diskFaultMessage(err, target, free());
    if (message !== null) throw new StoreError(message, { cause: err });
    throw err;
  }
}

async function withStore<T>(fn: (db: import('./db/database.js').Database) => Promise<T>): Promise<T> {
  await removeLeftovers();
  const { openStore } = await import('./server.js');
  return onStore(async () => {
    const db = await openStore({ ...loadConfig(), statementTimeoutMs: 0 });
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  });
}

async function runImport(file: string, replace: boolean): Promise<number> {
  const { importCatalogue, CatalogueError } = await import('./catalogue/importer.js');
  const { describeImport } = await import('./catalogue/summary.js');
  try {
    const summary = await withStore((db) => importCatalogue(db, file, { replace, onProgress: progressPrinter('importing') }));
    if (process.stderr.isTTY) process.stderr.write('\n');
    console.log(describeImport(summary));
    return 0;
  } catch (err) {
    if (err instanceof CatalogueError) {
      if (process.stderr.isTTY) process.stderr.write('\n');
      console.error(`lineup: the catalogue document was rejected; nothing was written:`);
      for (const problem of err.problems) console.error(`  ${problem}`);
      if (err.total > err.problems.length) console.error(`  … and ${err.total - err.problems.length} more problems`);
      return 2;
    }
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`import: no such file "${file}"`);
    throw err;
  }
}

async function runSeed(events: number, seed: string): Promise<number> {
  const { seedDemo } = await import('./catalogue/demo.js');
  const started = Date.now();
  await withStore((db) => seedDemo(db, { events, seed, onProgress: progressPrinter('seeding') }));
  if (process.stderr.isTTY) process.stderr.write('\n');
  console.log(`seeded ${events} Events (seed "${seed}") in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

async function runSync(baseUrl: string, outDir: string, fullEvery: number, forceFull: boolean): Promise<number> {
  const { sync, SyncError } = await import('./sync/sync.js');
  const { LineupApiError, LineupNetworkError } = await import('./client/index.js');
  const tty = process.stderr.isTTY;
  // Ctrl-C / SIGTERM: stop cleanly (the lock released, the journal kept); a second one exits at once.
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130);
    if (tty) process.stderr.write('\n');
    console.error('lineup: sync: stopping (press Ctrl-C again to exit at once)…');
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const report = await sync({
      signal: stop.signal,
      baseUrl,
      outDir,
      fullEvery,
      forceFull,
      onProgress: tty ? (p) => process.stderr.write(`\r${p.mode} sync: ${p.collection}: ${p.pages} pages, ${p.records.toLocaleString('en')} records`) : undefined,
      onNotice: (message) => {
        if (tty) process.stderr.write('\r\x1b[K');
        console.error(`lineup: sync: ${message}`);
      },
      client: {
        onRetry: ({ url, waitMs, reason }) => {
          if (tty) process.stderr.write(`\n${reason} on ${url}; retrying in ${Math.ceil(waitMs / 1000)} s\n`);
        },
      },
    });
    if (tty) process.stderr.write('\n');
    for (const [name, c] of Object.entries(report.collections)) {
      console.log(`run ${report.run} (${c.mode}) ${name}: ${c.read} read in ${c.pages} pages, ${c.mirrored} mirrored, ${c.removed} removed, checkpoint ${c.checkpoint ?? 'none'}${c.resumed ? ` (resumed after ${c.resumed} journaled pages)` : ''}`);
    }
    return 0;
  } catch (err) {
    if (tty) process.stderr.write('\n');
    if (stop.signal.aborted) {
      console.error(`lineup: sync: stopped; the checkpoint did not move, the next run continues from the last page journaled in ${outDir}`);
      return 130;
    }
    if (err instanceof SyncError) throw new UsageError(`sync: ${err.message}`);
    if (err instanceof LineupApiError || err instanceof LineupNetworkError) {
      console.error(`lineup: sync: ${err.message}; the checkpoint did not move, the next run continues from the last page journaled in ${outDir}`);
      return 1;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'ENOTDIR' || code === 'EEXIST' || code === 'EROFS') throw new UsageError(`sync: cannot write to "${outDir}" (${code})`);
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
