/**
 * The production topology on this machine, from the real components (docs/operations.md): a
 * PostgreSQL primary and a streaming hot standby (initdb, pg_basebackup -R), PgBouncer in front of
 * a server, and `lineup` processes (the built CLI, bin/lineup.js). Everything lives in one
 * temporary directory on loopback, and every process started is stopped by `Cleanup.run()`.
 *
 * Needs root (initdb refuses root, so PostgreSQL and PgBouncer run as the `postgres` user through
 * runuser) and Debian's postgresql, pgbouncer and haproxy packages (HAProxy: haproxy.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

export const REPO = resolve(import.meta.dirname, '../..');
export const TIME_ZONE = 'America/New_York';

/** What this machine lacks to run PostgreSQL instances of a test's own and `lineup`, or null. */
export function missingPostgres(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (PostgreSQL runs as the postgres user through runuser)';
  if (!existsSync('/usr/lib/postgresql')) return 'needs Debian postgresql';
  if (spawnSync('id', ['postgres']).status !== 0) return 'needs the postgres user (Debian postgresql)';
  if (!existsSync(join(REPO, 'dist', 'cli.js'))) return 'needs a build (npm run build)';
  return null;
}

/** What this machine lacks for the topology, or null when it can be built. */
export function missingPrerequisites(): string | null {
  const postgres = missingPostgres();
  if (postgres !== null) return postgres;
  if (spawnSync('sh', ['-c', 'command -v pgbouncer']).status !== 0) return 'needs Debian pgbouncer';
  if (spawnSync('sh', ['-c', 'command -v haproxy']).status !== 0) return 'needs Debian haproxy';
  return null;
}

export function pgBin(tool: string): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b));
  return join('/usr/lib/postgresql', versions.at(-1)!, 'bin', tool);
}

/** Stops what was started, last first; never throws. */
export class Cleanup {
  private readonly steps: Array<() => Promise<unknown> | unknown> = [];
  add(step: () => Promise<unknown> | unknown): void {
    this.steps.push(step);
  }
  async run(): Promise<void> {
    while (this.steps.length > 0) {
      try {
        await this.steps.pop()!();
      } catch {
        /* best effort: the rest still runs */
      }
    }
  }
}

/** A temporary directory the postgres user owns, removed by the cleanup. */
export function workDir(cleanup: Cleanup, prefix = 'lineup-topology-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chownPostgres(dir);
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function chownPostgres(path: string): void {
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  chownSync(path, uid, gid);
}

/** Runs a command as the postgres user; throws with its output when it fails. */
export function asPostgres(command: string, args: readonly string[]): string {
  const r = spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/**
 * The same, without blocking this process's event loop (a load it drives keeps running while
 * the server stops or starts).
 */
export function asPostgresAsync(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolveRun, reject) => {
    const child = spawn('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolveRun(out);
      else reject(new Error(`${command} ${args.join(' ')} failed (${code}): ${out}`));
    });
  });
}

/** pg_ctl's shutdown modes: fast ends sessions cleanly, immediate kills the server as a crash would. */
export type StopMode = 'fast' | 'immediate';

export interface Postgres {
  readonly name: string;
  readonly port: number;
  readonly dataDir: string;
  /** A connection URL on loopback (trust authentication inside the temporary cluster). */
  url(user?: string, database?: string): string;
  /** One statement as the superuser. */
  sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[], database?: string): Promise<R[]>;
  start(): void;
  /** Fast shutdown: sessions are terminated, as on a failover or a restart for maintenance. */
  stop(): void;
  /** `stop` and `start` that leave this process's event loop running, `stop` in either mode. */
  stopAsync(mode: StopMode): Promise<void>;
  startAsync(): Promise<void>;
  /** Reads the configuration files again (pg_hba.conf). */
  reload(): void;
  /** A standby leaves recovery and becomes a primary (pg_ctl promote, waiting until it has). */
  promote(): Promise<void>;
}

function postgres(name: string, dataDir: string, port: number, socketDir: string): Postgres {
  const ctl = (...args: string[]) => asPostgres(pgBin('pg_ctl'), ['-D', dataDir, ...args]);
  const ctlAsync = (...args: string[]) => asPostgresAsync(pgBin('pg_ctl'), ['-D', dataDir, ...args]);
  const startArgs = ['-l', join(dataDir, '..', `${name}.log`), '-o', `-p ${port} -k ${socketDir}`, '-w', '-t', '60', 'start'];
  const self: Postgres = {
    name,
    port,
    dataDir,
    url: (user = 'postgres', database = 'postgres') => `postgresql://${user}@127.0.0.1:${port}/${database}`,
    async sql(text, values, database = 'postgres') {
      const client = new pg.Client({ connectionString: self.url('postgres', database) });
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    start: () => void ctl(...startArgs),
    stop: () => void ctl('-m', 'fast', '-w', 'stop'),
    stopAsync: async (mode) => void (await ctlAsync('-m', mode, '-w', 'stop')),
    startAsync: async () => void (await ctlAsync(...startArgs)),
    reload: () => void ctl('reload'),
    promote: async () => void (await ctlAsync('-w', '-t', '60', 'promote')),
  };
  return self;
}

/**
 * A primary: initdb (C collation, so ordering is bytewise as on PGlite), loopback only, WAL for a
 * streaming standby, `timezone` as given (not UTC: results must not depend on it).
 */
export function startPrimary(dir: string, port: number, cleanup: Cleanup): Postgres {
  const dataDir = join(dir, 'primary');
  asPostgres(pgBin('initdb'), ['-D', dataDir, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C', '--no-sync']);
  const conf = [
    `listen_addresses = '127.0.0.1'`,
    `timezone = '${TIME_ZONE}'`,
    `log_timezone = '${TIME_ZONE}'`,
    'wal_level = replica',
    'max_wal_senders = 4',
    'hot_standby = on',
    'fsync = off',
    'full_page_writes = off',
    'shared_buffers = 32MB',
    'max_connections = 60',
  ];
  asPostgres('sh', ['-c', `printf '%s\\n' "${conf.join('" "')}" >> ${dataDir}/postgresql.conf`]);
  const server = postgres('primary', dataDir, port, dir);
  server.start();
  cleanup.add(() => server.stop());
  return server;
}

/** A streaming hot standby of `primary`: pg_basebackup -R (standby.signal and primary_conninfo). */
export function startStandby(primary: Postgres, dir: string, port: number, cleanup: Cleanup): Postgres {
  const dataDir = join(dir, 'standby');
  asPostgres(pgBin('pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dataDir, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
  const server = postgres('standby', dataDir, port, dir);
  server.start();
  cleanup.add(() => server.stop());
  return server;
}

/** The application's role and database on the primary (the owner: it may migrate and import). */
export async function createAppDatabase(primary: Postgres, user = 'lineup', database = 'lineup'): Promise<void> {
  await primary.sql(`CREATE ROLE ${user} LOGIN`);
  await primary.sql(`CREATE DATABASE ${database} OWNER ${user} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
}

/**
 * Waits until the standby has replayed everything the primary has committed so far (commits are
 * synchronous on the primary, so its WAL write position covers them; an asynchronous commit
 * could still sit in WAL buffers the standby cannot see yet).
 */
export async function waitForReplay(primary: Postgres, standby: Postgres, timeoutMs = 30_000): Promise<void> {
  const { lsn } = (await primary.sql<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn'))[0]!;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await standby.sql<{ done: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn]);
    if (row?.done) return;
    if (Date.now() > deadline) throw new Error(`the standby did not replay ${lsn} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface PgBouncer {
  readonly port: number;
  url(user?: string, database?: string): string;
  /** A command on PgBouncer's admin console (RECONNECT, PAUSE, SHOW POOLS, …), as the postgres user. */
  admin(command: string): Promise<Record<string, unknown>[]>;
}

/**
 * PgBouncer as Debian packages it, transaction pooling in front of `server`, with the startup
 * parameters it cannot carry ignored (`options` would otherwise be refused; it is then dropped).
 */
export async function startPgBouncer(dir: string, port: number, server: Postgres, cleanup: Cleanup, database = 'lineup', user = 'lineup'): Promise<PgBouncer> {
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n"postgres" ""\n`);
  writeFileSync(
    ini,
    [
      '[databases]',
      `${database} = host=127.0.0.1 port=${server.port} dbname=${database}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      'admin_users = postgres',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'ignore_startup_parameters = extra_float_digits,options',
      'default_pool_size = 6',
      'max_client_conn = 200',
      // a restarted server is retried every second (default 15 s)
      'server_login_retry = 1',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  for (const f of ['pgbouncer.ini', 'userlist.txt']) chownPostgres(join(dir, f));
  const bin = spawnSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).stdout.trim() || '/usr/sbin/pgbouncer';
  asPostgres(bin, ['-d', ini]);
  cleanup.add(() => {
    const pid = Number(spawnSync('cat', [join(dir, 'pgbouncer.pid')], { encoding: 'utf8' }).stdout.trim());
    if (pid > 0) process.kill(pid, 'SIGTERM');
  });
  const url = (u = user, d = database) => `postgresql://${u}@127.0.0.1:${port}/${d}`;
  // ready when it answers a query through to the server
  const deadline = Date.now() + 15_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url() });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch (err) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const admin = async (command: string) => {
    const client = new pg.Client({ connectionString: url('postgres', 'pgbouncer') });
    await client.connect();
    try {
      return (await client.query(command)).rows; // simple protocol: what the admin console speaks
    } finally {
      await client.end();
    }
  };
  return { port, url, admin };
}

/** The lineup command (built CLI), run to completion. */
export function lineupCommand(args: readonly string[], env: Record<string, string>): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [join(REPO, 'bin', 'lineup.js'), ...args], {
    env: { ...process.env, LINEUP_LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

export interface LineupProcess {
  readonly name: string;
  readonly url: string;
  /** The operator listener (/live, /ready, /metrics), when LINEUP_ADMIN_PORT was given. */
  readonly adminUrl: string | null;
  readonly child: ChildProcess;
  /** Everything it wrote (pino JSON lines and any error). */
  output(): string;
  get(path: string, init?: RequestInit): Promise<Response>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `lineup serve` on an ephemeral loopback port; resolves once it logged where it listens (and
 * where its operator listener does, when LINEUP_ADMIN_PORT is given). Rejects with its output
 * when it exits first (a refused schema, say).
 */
export function startLineup(name: string, env: Record<string, string>, cleanup: Cleanup): Promise<LineupProcess> {
  const child = spawn(process.execPath, [join(REPO, 'bin', 'lineup.js'), 'serve'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LINEUP_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let exited: number | null | undefined;
  const exit = new Promise<number | null>((resolveExit) =>
    child.on('exit', (code) => {
      exited = code;
      resolveExit(code);
    }),
  );
  // everything but the per-request lines (a load writes thousands)
  const keep = (chunk: Buffer) => (out += String(chunk).split('\n').filter((l) => !l.includes('"msg":"request"')).join('\n'));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  cleanup.add(() => {
    if (exited === undefined) child.kill('SIGKILL');
  });
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no start-up line in 60 s: ${out}`)), 60_000);
    void exit.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`${name} exited with ${code}: ${out}`), { exitCode: code, output: out }));
    });
    child.stdout!.on('data', () => {
      const m = /Lineup listening on (http:\/\/[0-9.:]+)/.exec(out);
      const admin = /Lineup operator listener on (http:\/\/[0-9.:]+)/.exec(out);
      if (!m || (env.LINEUP_ADMIN_PORT !== undefined && !admin)) return;
      clearTimeout(timer);
      const url = m[1]!;
      resolveStart({
        name,
        url,
        adminUrl: admin?.[1] ?? null,
        child,
        output: () => out,
        get: (path, init) => fetch(`${url}${path}`, init),
        async stop() {
          if (exited === undefined) child.kill('SIGTERM');
          return exit;
        },
      });
    });
  });
}
