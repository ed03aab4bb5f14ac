/**
 * Hostile clients: slow headers (slowloris), silent and idle keep-alive connections,
 * more than 100 requests on one connection (sequential and pipelined), 16 KiB + 1 of headers,
 * a 4,097-byte URL, pipelined requests and clients that disconnect mid-response. Each is handled
 * per the spec's Limits while a well-behaved client keeps succeeding, and is answered while the
 * attackers still hold their connections (an order of events, not a latency: the machine may be slow).
 *
 * The server runs the spec's rate limits (burst 60, 1 token/s) on a rate-limiter clock that stands
 * still (a slow run must not refill a flood's bucket). Clients are told apart by their
 * loopback source address (127.0.0.0/8 all reaches the server): each attacker and each bystander
 * has its own identity, as distinct network peers would. LINEUP_DB_READS is 4 here: with the
 * default 1, any two concurrent reads give one a 503 by design, hostile or not.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { EVENT_FIELDS } from '../../src/plan/event-fields.js';
import { configWith } from '../../src/config/config.js';
import { createOperations, type Operations } from '../../src/http/admin/operations.js';
import { engines, openTestDatabase, startServer, type TestDatabase, type TestServer } from '../helper.js';
import { importDoc } from '../fixtures/events-setup.js';
import { eventsCatalogue } from '../fixtures/events-catalogue.js';

const engine = engines()[0]!; // listener behaviour does not depend on the database engine
const BIG = `/v1/events?limit=50&fields=${EVENT_FIELDS.join(',')}&include=artists,venues`;

let nextPeer = 10;
/**
 * A fresh client identity (spec Limits rule 2: the socket peer). The second octet comes from the
 * pid: two runs at once (CI passes, a developer's run) must not bind the same source addresses.
 */
const OCTET = 20 + (process.pid % 200);
const peer = () => `127.${OCTET}.${Math.floor(nextPeer / 250) + 1}.${(nextPeer++ % 250) + 1}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sample {
  readonly path: string;
  readonly status: number;
  /** When the answer had come (Date.now()), to order it against the attackers' connections. */
  readonly at: number;
}

function get(base: string, path: string, localAddress: string): Promise<Sample> {
  const { port } = new URL(base);
  return new Promise((resolve) => {
    // status -1: no answer (refused, reset or 30 s without one); -2: the answer was cut short
    const done = (status: number) => resolve({ path, status, at: Date.now() });
    const req = http.request({ host: '127.0.0.1', port: Number(port), path, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
      res.on('error', () => done(-2));
      res.on('close', () => done(res.complete ? (res.statusCode ?? 0) : -2));
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', () => done(-1));
    req.end();
  });
}

/** A well-behaved client: a health check and a database read, one after the other, paced. */
function bystander(base: string): { samples: readonly Sample[]; served(n: number): Promise<void>; stop(): Promise<Sample[]> } {
  const samples: Sample[] = [];
  const waiters: Array<() => void> = [];
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      // a peer of its own for each request: with the limiter's clock standing still, one identity
      // would run out of tokens after 60 requests however slowly the run goes
      samples.push(await get(base, i % 2 === 0 ? '/v1/health' : '/v1/events?limit=5', peer()));
      waiters.splice(0).forEach((w) => w());
      await sleep(150);
    }
  })();
  /** Resolves once `n` answers have come since the call. */
  const served = async (n: number) => {
    const until = samples.length + n;
    while (samples.length < until) await new Promise<void>((r) => waiters.push(r));
  };
  return {
    samples,
    served,
    async stop() {
      // the bystander keeps going for a few requests after the attack, too
      await served(4);
      running = false;
      await loop;
      return samples;
    },
  };
}

function assertServedNormally(samples: Sample[], label: string): void {
  assert.ok(samples.length >= 4, `${label}: only ${samples.length} bystander requests`);
  const bad = samples.filter((s) => s.status !== 200);
  assert.deepEqual(bad, [], `${label}: the other client was hurt`);
}

/** Every attacker socket, destroyed after each test whatever happened (a leftover would hold server.close()). */
const open = new Set<net.Socket>();

function connect(base: string, localAddress: string): Promise<net.Socket> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: Number(port), host: '127.0.0.1', localAddress }, () => resolve(socket));
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', reject);
  });
}

/**
 * Everything the server sends until it closes the connection, when it closed, and whether the
 * test's guard had to close it (a connection the server never closes: no test hangs on it).
 */
function collect(socket: net.Socket, timeoutMs = 30_000): Promise<{ at: number; data: string; byGuard: boolean }> {
  let data = '';
  let byGuard = false;
  socket.on('data', (c: Buffer) => (data += c.toString('latin1')));
  socket.on('error', () => {});
  const guard = setTimeout(() => {
    byGuard = true;
    socket.destroy();
  }, timeoutMs);
  return new Promise((resolve) =>
    socket.on('close', () => {
      clearTimeout(guard);
      resolve({ at: Date.now(), data, byGuard });
    }),
  );
}

/** Resolves when the socket has received data satisfying `done`, or closed. */
async function received(socket: net.Socket, done: () => boolean): Promise<void> {
  while (!done() && !socket.destroyed) {
    await new Promise<void>((resolve) => {
      const next = () => {
        socket.off('data', next).off('close', next);
        resolve();
      };
      socket.on('data', next).on('close', next);
    });
  }
}

const statusesOf = (data: string) => (data.match(/HTTP\/1\.1 \d{3}/g) ?? []).map((s) => Number(s.slice(9)));

function assertEnvelopedRefusal(data: string, status: number, message: RegExp): void {
  assert.match(data, new RegExp(`^HTTP/1\\.1 ${status} `), data.slice(0, 200));
  assert.match(data, /x-request-id: [0-9a-f-]{36}/i);
  assert.match(data, /access-control-allow-origin: \*/i);
  assert.match(data, /cache-control: no-store/i);
  assert.match(data, /\{"ok":false,"error":\{"type":"invalid_query"/);
  assert.match(data, message);
}

// the timeout only stops a hung run
describe('hostile clients cannot hurt other clients', { timeout: 600_000 }, () => {
  let t: TestDatabase;
  let server: TestServer;
  const config = { rateBurst: 60, rateRefillPerSec: 1, dbReads: 4 };
  const operations = { metrics: undefined } as unknown as Operations;
  before(async () => {
    t = await openTestDatabase(engine);
    await importDoc(t.db, eventsCatalogue);
    const ops = createOperations(t.db, configWith(config));
    Object.assign(operations, ops);
    const frozen = Date.now(); // the limiter's clock: buckets do not refill during the run
    server = await startServer(t.db, config, undefined, { operations: ops, limiterNow: () => frozen });
    for (let i = 0; i < 3; i++) await get(server.base, '/v1/events?limit=5', peer());
  });

  /** Resolves when no route execution and no database read is running (every slot is back). */
  async function idle(): Promise<void> {
    const inUse = async (name: string) => (await operations.metrics.registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;
    while ((await inUse('lineup_http_route_executions_in_use')) > 0 || (await inUse('lineup_db_read_slots_in_use')) > 0) {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  afterEach(() => {
    for (const socket of open) socket.destroy();
  });
  after(async () => {
    await server.close();
    await t.drop();
  });

  it('slow headers, silent connections and idle keep-alives are closed after 5 s; others are served meanwhile', async () => {
    const watch = bystander(server.base);
    const started = Date.now();
    const slow = await Promise.all(Array.from({ length: 20 }, () => connect(server.base, peer())));
    const slowDone = slow.map((s) => collect(s));
    for (const s of slow) s.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => slow.forEach((s) => !s.destroyed && s.write('X-Drip: 1\r\n')), 1000);
    const silent = await Promise.all(Array.from({ length: 10 }, () => connect(server.base, peer())));
    const silentDone = silent.map((s) => collect(s));
    const idle = await Promise.all(Array.from({ length: 10 }, () => connect(server.base, peer())));
    const idleDone = idle.map((s) => collect(s));
    for (const s of idle) s.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
    try {
      const [s, q, i] = await Promise.all([Promise.all(slowDone), Promise.all(silentDone), Promise.all(idleDone)]);
      for (const r of [...s, ...q, ...i]) {
        const after = r.at - started;
        assert.equal(r.byGuard, false, `the server never closed it: ${JSON.stringify(r.data.slice(0, 200))}`);
        assert.ok(after >= 4500, `closed after ${after} ms: ${JSON.stringify(r.data.slice(0, 200))}`);
      }
      for (const r of s) assertEnvelopedRefusal(r.data, 400, /not received in time/);
      for (const r of q) assert.ok(r.data === '' || /^HTTP\/1\.1 400 /.test(r.data), r.data.slice(0, 100));
      for (const r of i) assert.deepEqual(statusesOf(r.data), [200]);
      // the bystander had answers while all forty connections were still held
      const firstClose = Math.min(...[...s, ...q, ...i].map((r) => r.at));
      const during = watch.samples.filter((x) => x.at < firstClose);
      assert.ok(during.length >= 2, `only ${during.length} bystander answers while the attackers held their connections`);
    } finally {
      clearInterval(drip);
    }
    assertServedNormally(await watch.stop(), 'slowloris');
  });

  it('more than 100 requests on one connection: the 100th answer closes it, the flood is rate limited', async () => {
    const watch = bystander(server.base);
    // sequential keep-alive requests
    const socket = await connect(server.base, peer());
    const done = collect(socket);
    let data = '';
    socket.on('data', (c: Buffer) => (data += c.toString('latin1')));
    for (let i = 1; i <= 110 && !socket.destroyed; i++) {
      socket.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await received(socket, () => statusesOf(data).length >= i);
    }
    const seq = await done;
    const statuses = statusesOf(seq.data);
    assert.equal(statuses.length, 100, `answers before close: ${statuses.length}`);
    assert.ok(statuses.every((s) => s === 200 || s === 429), statuses.join(','));
    // burst 60 (the limiter's clock stands still: no refill): the rest of the flood is 429
    assert.deepEqual(statuses, [...Array(60).fill(200), ...Array(40).fill(429)]);
    assert.match(seq.data.slice(seq.data.lastIndexOf('HTTP/1.1')), /connection: close/i);
    assert.match(seq.data, /retry-after: \d+/i);

    // pipelined: at most 100 answers, each enveloped, then the connection closes
    const piped = await connect(server.base, peer());
    const pipedDone = collect(piped);
    piped.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(150));
    const p = await pipedDone;
    const pipedStatuses = statusesOf(p.data);
    assert.ok(pipedStatuses.length >= 60 && pipedStatuses.length <= 100, `pipelined answers: ${pipedStatuses.length}`);
    assert.ok(pipedStatuses.every((s) => s === 200 || s === 429 || s === 503), pipedStatuses.join(','));
    assertServedNormally(await watch.stop(), '>100 requests per connection');
  });

  it('16 KiB + 1 of headers and a 4,097-byte URL are refused with envelopes; the limits themselves are served', async () => {
    const watch = bystander(server.base);
    // Node counts the request target and header names and values towards maxHeaderSize
    const big = await connect(server.base, peer());
    const bigDone = collect(big);
    big.write(`GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(16 * 1024 + 1)}\r\n\r\n`);
    assertEnvelopedRefusal((await bigDone).data, 400, /headers are too large/);
    const fits = await connect(server.base, peer());
    const fitsDone = collect(fits);
    fits.write(`GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: ${'a'.repeat(15 * 1024)}\r\n\r\n`);
    assert.deepEqual(statusesOf((await fitsDone).data), [200]);

    // the URL limit: 4,096 bytes pass the listener (here a 404: the id is no publicId), 4,097 are a 414
    const target = (n: number) => `/v1/events/${'a'.repeat(n - '/v1/events/'.length)}`;
    const at = await get(server.base, target(4096), peer());
    assert.equal(at.status, 404);
    for (const url of [target(4097), `/v1/events?nameContains=${'a'.repeat(4097 - 24)}`, `/v1/health?${'a'.repeat(8000)}`]) {
      const s = await connect(server.base, peer());
      const d = collect(s);
      s.write(`GET ${url} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      const { data } = await d;
      assert.match(data, /^HTTP\/1\.1 414 /, `${url.length}-byte URL: ${data.slice(0, 80)}`);
      assert.match(data, /x-request-id: [0-9a-f-]{36}/i);
      assert.match(data, /\{"ok":false,"error":\{"type":"invalid_query"/);
    }
    assertServedNormally(await watch.stop(), 'oversized requests');
  });

  it('pipelined requests are answered in order, each with its own request id', async () => {
    const watch = bystander(server.base);
    const socket = await connect(server.base, peer());
    const done = collect(socket);
    const paths = ['/v1/health', '/v1/events?limit=1', '/v1/nope', '/v1/events?bogus=1', '/v1/venues?limit=2', '/v1/ready', '/v1/events/EvFete000001', '/v1/health?x=1'];
    socket.write(paths.map((p, i) => `GET ${p} HTTP/1.1\r\nHost: x\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join(''));
    const { data } = await done;
    assert.deepEqual(statusesOf(data), [200, 200, 404, 400, 200, 200, 200, 400]);
    const ids = (data.match(/x-request-id: ([0-9a-f-]{36})/gi) ?? []).map((h) => h.slice(14));
    assert.equal(new Set(ids).size, paths.length);
    assertServedNormally(await watch.stop(), 'pipelining');
  });

  it('clients that disconnect before or during their response release their capacity', async () => {
    const watch = bystander(server.base);
    for (let round = 0; round < 10; round++) {
      await Promise.all(
        Array.from({ length: 4 }, async (_, k) => {
          const s = await connect(server.base, peer());
          s.on('error', () => {});
          s.write(`GET ${k % 2 === 0 ? BIG : '/v1/health'} HTTP/1.1\r\nHost: x\r\n\r\n`);
          if (k < 2) {
            s.destroy(); // gone before the answer
            return;
          }
          await new Promise<void>((resolve) => {
            setTimeout(() => {
              s.destroy();
              resolve();
            }, 10_000);
            s.once('data', () => {
              s.resetAndDestroy(); // gone mid-response
              resolve();
            });
            s.once('close', () => resolve());
          });
        }),
      );
    }
    // the bystander is done first: its own requests must not take one of the slots counted below
    const samples = await watch.stop();
    await idle();
    // every active-execution slot (32) and every read slot came back
    const burst = await Promise.all(Array.from({ length: 32 }, () => get(server.base, '/v1/health', peer())));
    assert.deepEqual(burst.map((s) => s.status), Array(32).fill(200));
    const reads = await Promise.all(Array.from({ length: 4 }, () => get(server.base, '/v1/events?limit=2', peer())));
    assert.deepEqual(reads.map((s) => s.status), [200, 200, 200, 200]);
    assertServedNormally(samples, 'disconnecting clients');
  });
});
