/**
 * Graceful shutdown (spec Limits: stop admission, drain, force close after the grace period) and
 * the real `lineup serve` process: one start-up line, SIGTERM → exit 0.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { configWith } from '../../src/config/config.js';
import { gracefulShutdown } from '../../src/server.js';
import type { ServiceState } from '../../src/http/service-state.js';
import { engines, holdStatements, openTestDatabase } from '../helper.js';
import { cliArgs } from '../spawn-args.js';

const engine = engines()[0]!;

/** A server whose statements are all held (until released) and its graceful shutdown. */
async function heldServer(graceMs: number, logger = pino({ level: 'silent' })) {
  const t = await openTestDatabase(engine);
  const held = holdStatements(t.db);
  const state: ServiceState = { stopping: false };
  const config = configWith({ logLevel: 'silent', dbReads: 10, rateBurst: 1000 });
  const app = await buildApp({ config, db: t.db, state });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const stop = gracefulShutdown(app, t.db, state, graceMs, logger);
  /**
   * Resolves when the shutdown has stopped listening (what is still in flight is being drained)
   * and a turn of timers has passed: a force-close that did not wait for the grace period would
   * have closed the in-flight requests by then.
   */
  const draining = async () => {
    while (app.server.listening) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 0));
  };
  return { base, stop, state, held, draining };
}

// The timeouts only stop a hung run: a shutdown that waited for its grace period (10 min here)
// instead of for the drained requests would not finish.
describe('graceful shutdown', { timeout: 120_000 }, () => {
  it('lets in-flight requests complete, refuses new ones, and finishes when they are done, before the grace period', async () => {
    const { base, stop, state, held, draining } = await heldServer(600_000);
    try {
      const inFlight = Array.from({ length: 3 }, () => fetch(`${base}/v1/events`).then(async (r) => ({ status: r.status, body: (await r.json()) as { ok?: unknown } })));
      await held.untilHeld(3); // the three requests are in flight, each waiting on its statement
      const stopped = stop();
      assert.equal(state.stopping, true);
      const refused = await fetch(`${base}/v1/health`).then(
        (r) => r.status,
        () => 'refused',
      );
      assert.ok(refused === 'refused' || refused === 503, `new request got ${refused}`);
      // the statements go on only once the server has stopped listening: the requests are drained
      await draining();
      held.release();
      const results = await Promise.all(inFlight);
      for (const r of results) {
        assert.equal(r.status, 200);
        assert.equal(r.body.ok, true);
      }
      await stopped;
    } finally {
      held.release();
    }
  });

  it('force-closes requests still running after the grace period', async () => {
    const { base, stop, held } = await heldServer(300);
    try {
      const pending = fetch(`${base}/v1/events`).then(
        (r) => r.status,
        () => 'closed',
      );
      await held.reached;
      // its statement is held until after the stop: only the force-close can end the request
      await stop();
      assert.equal(held.held, 1);
      assert.equal(await pending, 'closed');
    } finally {
      held.release();
    }
  });
});

describe('graceful shutdown and connections that never sent a request', { timeout: 120_000 }, () => {
  it('closes them at once: the stop ends without waiting for its grace period', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    // a grace period shorter than the 15 s idle timeout: only the force-close would end a silent
    // connection the shutdown left open, and it says so in the log
    const { base, stop } = await heldServer(2_000, logger);
    const { hostname, port } = new URL(base);
    const silent = net.connect(Number(port), hostname);
    const closed = once(silent, 'close');
    await once(silent, 'connect');
    // another connection is served: the listener has accepted the silent one before it
    assert.equal((await fetch(`${base}/v1/health`)).status, 200);
    await stop();
    await closed;
    assert.deepEqual(lines.filter((l) => /grace period over/.test(l)), [], 'the stop waited for its grace period');
  });
});

describe('lineup serve', { timeout: 180_000 /* stops a hung run only */ }, () => {
  it('logs where it listens and which database it uses, serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, cliArgs(['serve']), {
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
    // the request's log line is written when its response has finished: wait for it, however long
    while (!out.includes('"msg":"request"') && !exited) await new Promise((r) => child.stdout.once('data', r));
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
