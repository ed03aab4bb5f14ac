/**
 * Shutdown drains, never resets (spec Limits: "stop admission, drain, force close after
 * 5 s"): sixteen clients that have each written a request on their own connection (eight received
 * by the server, eight written just before the shutdown) all get a complete answer, 200 when admitted, else a clean 503 `unavailable` with
 * `Connection: close`; a connection idle between requests is closed without an answer. It is a
 * race (the requests may still sit in the listen backlog or the socket buffers), so the shape
 * is repeated on every engine.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { configWith } from '../../src/config/config.js';
import { gracefulShutdown } from '../../src/server.js';
import type { ServiceState } from '../../src/http/service-state.js';
import { engines, openTestDatabase } from '../helper.js';

const CLIENTS = 16;
const ROUNDS = Number(process.env.LINEUP_SHUTDOWN_ROUNDS ?? 8);

interface Outcome {
  readonly data: string;
  readonly error: string | null;
}

/** A connection that writes `request` (or nothing) and collects everything until the server closes it. */
function client(port: number, request: string | null): { written: Promise<void>; outcome: Promise<Outcome> } {
  const socket = net.connect(port, '127.0.0.1');
  let data = '';
  let error: string | null = null;
  socket.on('data', (c) => (data += c.toString('latin1')));
  socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
  const outcome = new Promise<Outcome>((resolve) => socket.on('close', () => resolve({ data, error })));
  const written = new Promise<void>((resolve, reject) => {
    socket.on('connect', () => {
      if (request === null) resolve();
      else socket.write(request, (err) => (err ? reject(err) : resolve()));
    });
  });
  return { written, outcome };
}

/** Parses one complete HTTP/1.1 response (Content-Length framed); null when incomplete. */
function response(data: string): { status: number; headers: Record<string, string>; body: string } | null {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = data.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(lines[0] ?? '')?.[1] ?? 0);
  const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  const body = data.slice(end + 4);
  if (Buffer.byteLength(body, 'latin1') !== Number(headers['content-length'])) return null;
  return { status, headers, body };
}

for (const engine of engines()) {
  describe(`shutdown drains on ${engine.name}`, { timeout: 180_000 /* stops a drain that waits for its grace period */ }, () => {
    it(`${CLIENTS} requests written just before the shutdown all get complete answers (${ROUNDS} rounds)`, async () => {
      const t = await openTestDatabase(engine);
      const counts = { ok: 0, refused: 0 };
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const state: ServiceState = { stopping: false };
          const config = configWith({ logLevel: 'silent', dbReads: CLIENTS, rateBurst: 1000 });
          const app = await buildApp({ config, db: t.db, state });
          await app.listen({ host: '127.0.0.1', port: 0 });
          const { port } = app.server.address() as AddressInfo;
          // the database stays open between rounds: only the HTTP side is shut down here. The grace
          // period is 10 minutes: a drain that waited for it (a connection left open, the one that
          // never sent a request included) would not finish before the suite's timeout
          const stop = gracefulShutdown(app, { ...t.db, close: async () => {} }, state, 600_000, pino({ level: 'silent' }));
          const idle = client(port, null);
          await idle.written;
          // half the requests are admitted before the shutdown (the server has received them),
          // the other half are written just before it
          let received = 0;
          app.server.on('request', () => received++);
          const request = () => client(port, 'GET /v1/events?limit=1 HTTP/1.1\r\nHost: lineup\r\n\r\n');
          const admitted = Array.from({ length: CLIENTS / 2 }, request);
          await Promise.all(admitted.map((c) => c.written));
          while (received < admitted.length) await new Promise((resolve) => setImmediate(resolve));
          const racing = Array.from({ length: CLIENTS / 2 }, request);
          await Promise.all(racing.map((c) => c.written));
          await stop();
          const clients = [...admitted, ...racing];
          for (const [i, c] of clients.entries()) {
            const { data, error } = await c.outcome;
            const res = response(data);
            assert.ok(res, `round ${round}, client ${i}: no complete answer (${error ?? 'closed'}): ${JSON.stringify(data.slice(0, 200))}`);
            if (i < admitted.length) assert.equal(res.status, 200, `round ${round}, admitted client ${i}: ${res.body.slice(0, 200)}`);
            if (res.status === 200) {
              assert.equal(JSON.parse(res.body).ok, true);
              counts.ok++;
            } else {
              assert.equal(res.status, 503, `round ${round}, client ${i}: ${res.body.slice(0, 200)}`);
              assert.equal(JSON.parse(res.body).error.type, 'unavailable');
              assert.equal(res.headers.connection, 'close');
              counts.refused++;
            }
          }
          const idleOutcome = await idle.outcome;
          assert.equal(idleOutcome.data, '', 'an idle connection is closed without an answer');
          // new connections are refused once the server stopped
          const late = client(port, 'GET /v1/health HTTP/1.1\r\nHost: lineup\r\n\r\n');
          const lateOutcome = await late.outcome;
          assert.equal(lateOutcome.data, '');
          assert.equal(lateOutcome.error, 'ECONNREFUSED');
        }
      } finally {
        await t.drop();
      }
      console.log(`shutdown drain on ${engine.name}: ${counts.ok} answered 200, ${counts.refused} answered 503 over ${ROUNDS} rounds`);
    });
  });
}
