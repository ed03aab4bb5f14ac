/**
 * Database faults as an operator meets them, on a PostgreSQL instance of this suite's own
 * (initdb in a temporary directory, its own port: no other test loses its database), with two
 * `lineup serve` processes under concurrent load on every route kind: one on the pool only, one
 * with pipelined connections too (LINEUP_DB_PIPELINE). `npm run test:faults`, run by CI as root.
 *
 * Each shape is held until every readiness endpoint (/v1/ready and the operator's /ready of both
 * processes) has said 503, then the database is given back. Each asserts: the same processes
 * throughout; only 200, 304 and 503 answers, every 503 the `unavailable` envelope with
 * Retry-After; and every route answering 200 again within seconds, without a restart.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoDocumentChunks } from '../../src/catalogue/demo.js';
import {
  Cleanup,
  asPostgres,
  createAppDatabase,
  lineupCommand,
  missingPostgres,
  startLineup,
  startPrimary,
  workDir,
  type LineupProcess,
  type Postgres,
  type StopMode,
} from '../topology/cluster.js';
import { runLoad, sleep, type LoadResult } from '../topology/load.js';
import { getPage, traverse, type Fetcher } from '../topology/traverse.js';
import { watchReadiness, type Readiness } from './readiness.js';

const missing = missingPostgres();
// CI has PostgreSQL and runs as root: there a missing piece is a failure, not a skip
if (missing && process.env.LINEUP_FAULTS_REQUIRED === '1') throw new Error(`the fault suite cannot run: it ${missing}`);
const PORT = Number(process.env.LINEUP_FAULTS_PORT ?? 25480);
const PASSWORD = 'lineup-fault-suite';
const EVENTS = 200;
/** Admitted reads above the load's clients: a busy 503 would hide a fault's. */
const SERVE_ENV = { LINEUP_RATE_BURST: '1000000', LINEUP_DB_READS: '8', LINEUP_ADMIN_PORT: '0' };
const CLIENTS = 3;
/** A shape is held at least this long, so that the load meets it on every route many times. */
const HOLD_MS = 1500;
/** How long after the database is given back every route must answer 200. */
const RECOVERY_MS = 15_000;

describe('database faults: no fault ends the process, every answer is 200, 304 or 503 with Retry-After', { skip: missing ?? false, timeout: 170_000 }, () => {
  const cleanup = new Cleanup();
  let db: Postgres;
  let processes: LineupProcess[];
  let paths: Array<{ path: string; etag: string | null }>;
  const appUrl = (password = PASSWORD) => `postgresql://lineup:${password}@127.0.0.1:${PORT}/lineup`;

  before(async () => {
    const dir = workDir(cleanup, 'lineup-faults-');
    db = startPrimary(dir, PORT, cleanup);
    await createAppDatabase(db);
    await passwordAuthentication(db);
    const catalogue = join(dir, 'catalogue.json');
    const document = [...demoDocumentChunks({ events: EVENTS, seed: 'faults', anchorDate: '2026-03-15' })].join('');
    writeFileSync(catalogue, document);
    for (const command of [['migrate'], ['import', catalogue]]) {
      const r = lineupCommand(command, { DATABASE_URL: appUrl() });
      assert.equal(r.code, 0, r.err);
    }
    processes = await Promise.all(Object.keys(SERVED).map(serve));
    const venues = (JSON.parse(document) as { venues: Array<{ coordinates?: Coordinates | null }> }).venues;
    paths = await routePaths(processes[0]!.get, venues.find((v) => v.coordinates)!.coordinates!);
  });
  after(() => cleanup.run());

  /** The processes under test: on the pool only, and with pipelined connections too. */
  const SERVED: Record<string, Record<string, string>> = { pooled: {}, pipelined: { LINEUP_DB_PIPELINE: '2' } };
  const serve = (name: string) => startLineup(name, { ...SERVE_ENV, DATABASE_URL: appUrl(), ...SERVED[name] }, cleanup);

  /** Runs `fault` under load and asserts what every shape must hold. */
  async function underFault(name: string, fault: (readiness: Readiness) => Promise<void>): Promise<void> {
    // a process an earlier shape ended (that shape failed) is started again: each shape is judged on its own
    processes = await Promise.all(processes.map((p) => (p.child.exitCode === null && p.child.signalCode === null ? p : serve(p.name))));
    const pids = processes.map((p) => p.child.pid);
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const fetchers: Fetcher[] = processes.map((p) => p.get);
    const load = runLoad({ targets: fetchers, paths, concurrency: CLIENTS, until: stopped });
    const readiness = watchReadiness(processes, stopped);
    await fault(readiness);
    assertAlive(processes);
    const givenBack = performance.now();
    await everyRouteAnswers(processes, paths, RECOVERY_MS);
    const recoveredMs = Math.round(performance.now() - givenBack);
    stop();
    const [result, ready] = await Promise.all([load, readiness.done]);
    console.log(`${name}: ${result.requests} requests, statuses ${JSON.stringify(result.statuses)}; ready ${JSON.stringify(ready.statuses)}; every route 200 again ${recoveredMs} ms after`);
    assert.deepEqual(processes.map((p) => [p.child.pid, p.child.exitCode]), pids.map((pid) => [pid, null]), `the same processes serve (${outputs()})`);
    assertOnlyContractAnswers(result);
    assert.deepEqual(ready.problems.slice(0, 5), [], 'readiness answered 200 or 503 (with Retry-After on /v1/ready)');
    assert.ok((result.statuses[200] ?? 0) > 0, 'reads were served');
  }

  const outputs = () => processes.map((p) => `${p.name}: ${p.output().slice(-3000)}`).join('\n');
  const terminateBackends = () => terminate(db, 'lineup');

  /** Terminates the database's backends every ~100 ms until every readiness endpoint said 503 and `holdMs` passed. */
  async function holdWhileTerminating(readiness: Readiness, holdMs = HOLD_MS): Promise<number> {
    const started = performance.now();
    let terminated = 0;
    while (performance.now() - started < holdMs || !readiness.allSaidUnavailable()) {
      assertAlive(processes);
      if (performance.now() - started > 30_000) throw new Error(`readiness never said 503 on every endpoint: ${JSON.stringify(readiness.seen())}`);
      terminated += await terminateBackends();
      await sleep(100);
    }
    return terminated;
  }

  it('backends terminated every 100 ms (what a restart, a failover or maintenance sends: 57P01)', async () => {
    await underFault('backends terminated', async (readiness) => {
      // longer than the others: a connection ended just as it becomes ready (the FATAL within one
      // socket read of its ReadyForQuery) is the moment a client without a listener of its own does
      // not survive, and each round is a chance of it
      const terminated = await holdWhileTerminating(readiness, 4 * HOLD_MS);
      assert.ok(terminated > 0, 'backends were terminated');
    });
  });

  it('connections refused: ALLOW_CONNECTIONS false and backends terminated (55000), then allowed again', async () => {
    await underFault('ALLOW_CONNECTIONS false', async (readiness) => {
      await db.sql('ALTER DATABASE lineup ALLOW_CONNECTIONS false');
      try {
        await holdWhileTerminating(readiness);
      } finally {
        await db.sql('ALTER DATABASE lineup ALLOW_CONNECTIONS true');
      }
    });
  });

  for (const mode of ['fast', 'immediate'] as const) {
    it(`the server restarted, pg_ctl -m ${mode}: stopped until every endpoint says 503, then started`, async () => {
      await underFault(`restart -m ${mode}`, (readiness) => restart(db, mode, readiness, () => assertAlive(processes)));
    });
  }

  it("the role's password rotated and backends terminated (28P01), then restored", async () => {
    await underFault('password rotated', async (readiness) => {
      await db.sql(`ALTER ROLE lineup PASSWORD 'rotated-${PASSWORD}'`);
      try {
        await holdWhileTerminating(readiness);
      } finally {
        await db.sql(`ALTER ROLE lineup PASSWORD '${PASSWORD}'`);
      }
    });
  });

  it("too many connections: the role's connection limit 0 and backends terminated (53300), then lifted", async () => {
    await underFault('connection limit 0', async (readiness) => {
      await db.sql('ALTER ROLE lineup CONNECTION LIMIT 0');
      try {
        await holdWhileTerminating(readiness);
      } finally {
        await db.sql('ALTER ROLE lineup CONNECTION LIMIT -1');
      }
    });
  });

  it('the database missing: renamed away (3D000), then back', async () => {
    await underFault('database missing', async (readiness) => {
      await renameDatabase(db, 'lineup', 'lineup_away');
      try {
        await holdWhileTerminating(readiness);
      } finally {
        await renameDatabase(db, 'lineup_away', 'lineup');
      }
    });
  });

  it('SIGTERM: every process exits 0', async () => {
    assert.deepEqual(await Promise.all(processes.map((p) => p.stop())), [0, 0]);
  });
});

/** Password authentication for the application's role on TCP; the superuser keeps trust (the test's own connections). */
async function passwordAuthentication(db: Postgres): Promise<void> {
  await db.sql(`ALTER ROLE lineup PASSWORD '${PASSWORD}'`);
  const hba = ['local all all trust', 'host all postgres 127.0.0.1/32 trust', 'host all all 127.0.0.1/32 scram-sha-256'];
  asPostgres('sh', ['-c', `printf '%s\\n' "${hba.join('" "')}" > ${db.dataDir}/pg_hba.conf`]);
  db.reload();
}

/** Terminates every backend of `database`; how many there were. */
async function terminate(db: Postgres, database: string): Promise<number> {
  const [row] = await db.sql<{ n: number }>(
    'SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  return row!.n;
}

/** RENAME needs the database without sessions: connections are refused and its backends ended first. */
async function renameDatabase(db: Postgres, from: string, to: string): Promise<void> {
  await db.sql(`ALTER DATABASE ${from} ALLOW_CONNECTIONS false`);
  await terminate(db, from);
  await db.sql(`ALTER DATABASE ${from} RENAME TO ${to}`);
  await db.sql(`ALTER DATABASE ${to} ALLOW_CONNECTIONS true`);
}

async function restart(db: Postgres, mode: StopMode, readiness: Readiness, alive: () => void): Promise<void> {
  const stopped = performance.now();
  await db.stopAsync(mode);
  try {
    await readiness.untilAllSaidUnavailable(30_000, alive);
    const left = HOLD_MS - (performance.now() - stopped);
    if (left > 0) await sleep(left);
  } finally {
    await db.startAsync();
  }
}

/** Every route kind, with the ETags of their answers for conditional reads (304s). */
async function routePaths(fetcher: Fetcher, { latitude, longitude }: Coordinates): Promise<Array<{ path: string; etag: string | null }>> {
  const first = async (collection: string) => (await getPage(fetcher, `${collection}?limit=3`)).body.data[0].publicId as string;
  const [event, artist, venue] = [await first('/v1/events'), await first('/v1/artists'), await first('/v1/venues')];
  const list = [
    ...(await traverse([fetcher], '/v1/events?limit=10', 2)).map((p) => p.path),
    `/v1/events/${event}`,
    `/v1/events/${event}/artists`,
    `/v1/artists/${artist}`,
    `/v1/venues?near=${latitude},${longitude}&radiusKm=500&sort=distance&limit=5`,
    `/v1/venues/${venue}/calendar.ics`,
    '/v1/series?limit=5',
    '/v1/ready',
  ];
  const withTags: Array<{ path: string; etag: string | null }> = [];
  for (const path of list) {
    const res = await fetcher(path);
    assert.equal(res.status, 200, `${path}: ${await res.text()}`);
    await res.arrayBuffer().catch(() => undefined);
    withTags.push({ path, etag: res.headers.get('etag') });
  }
  return withTags;
}

interface Coordinates {
  readonly latitude: number;
  readonly longitude: number;
}

/** Every route of every process answers 200 (polled, up to `timeoutMs`). */
async function everyRouteAnswers(processes: readonly LineupProcess[], paths: ReadonlyArray<{ path: string }>, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (const p of processes) {
    const routes = [...paths.map((x) => ({ path: x.path, get: p.get })), { path: '/ready (operator)', get: (_: string) => fetch(`${p.adminUrl}/ready`) }];
    for (const route of routes) {
      let last = '';
      for (;;) {
        const res = await route.get(route.path).catch((err: Error) => ({ status: 0, text: async () => err.message }));
        if (res.status === 200) break;
        last = `${res.status} ${(await res.text()).slice(0, 200)}`;
        if (performance.now() > deadline) throw new Error(`${p.name} ${route.path} did not answer 200 within ${timeoutMs} ms: ${last}`);
        await sleep(50);
      }
    }
  }
}

/** Every process still runs (else its last output says why it ended). */
function assertAlive(processes: readonly LineupProcess[]): void {
  for (const p of processes) {
    const ended = p.child.exitCode !== null || p.child.signalCode !== null;
    assert.ok(!ended, `${p.name} ended (${p.child.exitCode ?? p.child.signalCode}): ${p.output().slice(-3000)}`);
  }
}

/** Only 200, 304 and 503, each 503 the `unavailable` envelope with Retry-After. */
function assertOnlyContractAnswers(result: LoadResult): void {
  const others = Object.keys(result.statuses).filter((s) => !['200', '304', '503'].includes(s));
  assert.deepEqual(others, [], `statuses ${JSON.stringify(result.statuses)}; first failures ${JSON.stringify(result.failures.filter((f) => f.status !== 503).slice(0, 3))}`);
  for (const f of result.failures) {
    assert.match(f.retryAfter ?? '', /^[1-9][0-9]*$/, `Retry-After of a 503 on ${f.path}`);
    const body = JSON.parse(f.body) as { ok: boolean; error: { type: string } };
    assert.deepEqual([body.ok, body.error.type], [false, 'unavailable'], f.path);
  }
}
