/**
 * Graceful shutdown (spec Limits: stop admission, drain, force close after the grace period) and
 * the real `lineup serve` process: one start-up line, SIGTERM → exit 0.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { configWith } from '../../src/config/config.js';
import { gracefulShutdown } from '../../src/server.js';
import type { ServiceState } from '../../src/http/service-state.js';
import { engines, openTestDatabase } from '../helper.js';

const engine = engines()[0]!;

/** A server whose database answers every statement after `delayMs`. */
async function slowServer(delayMs: number, graceMs: number) {
  const t = await openTestDatabase(engine);
  // reads take a connection per statement (pool.connect); the readiness probe uses pool.query
  const pool = t.db.pool as unknown as Record<'query' | 'connect', (...a: unknown[]) => Promise<unknown>>;
  const seen = { statements: 0 };
  for (const name of ['query', 'connect'] as const) {
    const original = pool[name].bind(t.db.pool);
    pool[name] = async (...args: unknown[]) => {
      seen.statements++;
      await new Promise((r) => setTimeout(r, delayMs));
      return original(...args);
    };
  }
  const state: ServiceState = { stopping: false };
  const config = configWith({ logLevel: 'silent', dbReads: 10, rateBurst: 1000 });
  const app = await buildApp({ config, db: t.db, state });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const stop = gracefulShutdown(app, t.db, state, graceMs, pino({ level: 'silent' }));
  /** Resolves once `n` statements have reached the (slow) database: those requests are in flight. */
  const inFlight = async (n: number) => {
    while (seen.statements < n) await new Promise((r) => setTimeout(r, 10));
  };
  return { base, stop, state, inFlight };
}

describe('graceful shutdown', () => {
  it('lets in-flight requests complete, refuses new ones, and finishes within the grace period', async () => {
    const { base, stop, state, inFlight: reached } = await slowServer(400, 5000);
    const inFlight = Array.from({ length: 3 }, () => fetch(`${base}/v1/events`).then(async (r) => ({ status: r.status, body: await r.json() })));
    await reached(3);
    const started = Date.now();
    const stopped = stop();
    assert.equal(state.stopping, true);
    const refused = await fetch(`${base}/v1/health`).then(
      (r) => r.status,
      () => 'refused',
    );
    assert.ok(refused === 'refused' || refused === 503, `new request got ${refused}`);
    const results = await Promise.all(inFlight);
    for (const r of results) {
      assert.equal(r.status, 200);
      assert.equal(r.body.ok, true);
    }
    await stopped;
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });

  it('force-closes requests still running after the grace period', async () => {
    const { base, stop, inFlight } = await slowServer(3000, 300);
    const pending = fetch(`${base}/v1/events`).then(
      (r) => r.status,
      () => 'closed',
    );
    await inFlight(1);
    const started = Date.now();
    await stop();
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 3000, `shutdown took ${elapsed} ms`);
    assert.equal(await pending, 'closed');
  });
});

describe('lineup serve', () => {
  it('logs where it listens and which database it uses, serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', "import('./src/cli.ts').then(async (m) => { process.exitCode = await m.main(['serve']); })"], {
      env: { ...process.env, PORT: '0', DATABASE_URL: 'pglite:memory', LINEUP_SEED_DEMO: 'false', LINEUP_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let exited = false;
    child.on('exit', () => (exited = true));
    // never leave the child behind: it would keep this test process alive
    after(() => {
      if (!exited) child.kill('SIGKILL');
    });
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start-up line: ${out}`)), 90_000);
      child.stdout.on('data', () => {
        const m = /Lineup listening on (http:\/\/[^ ]+) \(database: PGlite in memory\)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1] as string);
        }
      });
    });
    assert.equal(out.split('\n').filter((l) => /listening/i.test(l)).length, 1, 'one start-up line');
    const res = await fetch(`${url}/v1/health`);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    const deadline = Date.now() + 5000;
    while (!out.includes('"msg":"request"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const line = out.split('\n').find((l) => l.includes('"msg":"request"'));
    assert.ok(line, 'a request log line');
    const entry = JSON.parse(line as string);
    for (const key of ['reqId', 'method', 'route', 'status', 'durationMs']) {
      assert.ok(key in entry, key);
      assert.equal((line as string).split(`"${key}":`).length - 1, 1, `"${key}" appears once in ${line}`);
    }
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    assert.equal(code, 0, out);
  });
});
