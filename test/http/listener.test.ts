/**
 * Listener limits (spec Limits): 5 s header/request receive, 5 s keep-alive, 100 requests per
 * connection, 16 KiB of headers — each enforced while other clients keep being served.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { engines, serveForSuite } from '../helper.js';

function connect(base: string): Promise<net.Socket> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => resolve(socket));
    socket.on('error', reject);
  });
}

/**
 * Everything the server sends on a socket: `until` waits (by socket events, not by time) for a
 * condition on it; `closed` resolves when the socket closes, telling whether the server closed
 * it (`byGuard` when nothing did within 30 s and the guard destroyed it, so no test can hang).
 */
function watch(socket: net.Socket) {
  let data = '';
  let closedAt = -1;
  let byGuard = false;
  const guard = setTimeout(() => {
    byGuard = true;
    socket.destroy();
  }, 30_000);
  socket.on('data', (c) => (data += c.toString('latin1')));
  const closed = new Promise<{ at: number; data: string; byGuard: boolean }>((resolve) =>
    socket.on('close', () => {
      clearTimeout(guard);
      closedAt = Date.now();
      resolve({ at: closedAt, data, byGuard });
    }),
  );
  return {
    get data() {
      return data;
    },
    get isClosed() {
      return closedAt >= 0;
    },
    closed,
    async until(done: (data: string) => boolean): Promise<void> {
      while (!done(data) && closedAt < 0) {
        await new Promise<void>((resolve) => {
          const next = () => {
            socket.off('data', next).off('close', next);
            resolve();
          };
          socket.on('data', next).on('close', next);
        });
      }
    },
  };
}

const statusesOf = (data: string) => (data.match(/HTTP\/1\.1 \d{3}/g) ?? []).map((s) => s.slice(9));

function closed(socket: net.Socket): Promise<{ at: number; data: string; byGuard: boolean }> {
  return watch(socket).closed;
}

const engine = engines()[0]!; // listener behaviour does not depend on the database engine

describe('listener limits', () => {
  const suite = serveForSuite(engine);

  it('closes a slow-header client and an idle keep-alive after 5 s, serving others meanwhile', async () => {
    const started = Date.now();
    const slow = await connect(suite.server.base);
    const slowWatch = watch(slow);
    slow.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => !slow.destroyed && slow.write('X-Drip: 1\r\n'), 1000);

    const idle = await connect(suite.server.base);
    const idleWatch = watch(idle);
    idle.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await idleWatch.until((d) => statusesOf(d).length === 1);

    // another client is served normally while those two hold their connections (they are
    // still open when its answers come: the server is not waiting for them)
    for (let i = 0; i < 5; i++) {
      const res = await suite.server.get('/v1/health');
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
    assert.ok(!slowWatch.isClosed && !idleWatch.isClosed, 'the other client was served while both connections were held');

    const s = await slowWatch.closed;
    clearInterval(drip);
    const i = await idleWatch.closed;
    // closed by the server (not by the test's guard), and not before the 5 s deadline
    assert.equal(s.byGuard, false, 'the server closed the slow client');
    assert.ok(s.at - started >= 4500, `slow client closed after ${s.at - started} ms`);
    assert.match(s.data, /^HTTP\/1\.1 400 /);
    assert.match(s.data, /not received in time/);
    assert.match(s.data, /"invalid_query"/);
    assert.equal(i.byGuard, false, 'the server closed the idle keep-alive');
    assert.match(i.data, /^HTTP\/1\.1 200 /);
    assert.ok(i.at - started >= 4500, `idle keep-alive closed after ${i.at - started} ms`);
  });

  it('refuses more than 16 KiB of headers with an enveloped 400 and keeps serving', async () => {
    const socket = await connect(suite.server.base);
    const done = closed(socket);
    socket.write(`GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(16 * 1024 + 1)}\r\n\r\n`);
    const { data } = await done;
    assert.match(data, /^HTTP\/1\.1 400 /);
    assert.match(data, /headers are too large/);
    assert.match(data, /x-request-id: [0-9a-f-]{36}/i);
    assert.match(data, /\{"ok":false,"error":\{"type":"invalid_query"/);
    const res = await suite.server.get('/v1/health');
    assert.equal(res.status, 200);
  });

  it('refuses a URL over the 16 KiB header limit with an enveloped 414; a HEAD gets the headers alone', async () => {
    const target = `/v1/events?nameContains=${'a'.repeat(17 * 1024)}`;
    for (const method of ['GET', 'HEAD']) {
      const socket = await connect(suite.server.base);
      const done = closed(socket);
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      const { data } = await done;
      assert.match(data, /^HTTP\/1\.1 414 /, method);
      assert.match(data, /x-request-id: [0-9a-f-]{36}/i);
      const [head, body] = data.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(head!)?.[1]);
      assert.ok(length > 0, 'Content-Length is that of the GET body');
      if (method === 'GET') {
        assert.equal(Buffer.byteLength(body!), length);
        assert.match(body!, /^\{"ok":false,"error":\{"type":"invalid_query","message":"The request URL is too long/);
      } else {
        assert.equal(body, '', 'no body after the headers of a HEAD response');
      }
    }
    // Node's own client reads the HEAD refusal cleanly (a body there broke its parser)
    const { hostname, port } = new URL(suite.server.base);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: hostname, port: Number(port), method: 'HEAD', path: target, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 414);
  });

  it('a HEAD refused for oversized headers carries no body either', async () => {
    const socket = await connect(suite.server.base);
    const done = closed(socket);
    socket.write(`HEAD /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(16 * 1024 + 1)}\r\n\r\n`);
    const { data } = await done;
    assert.match(data, /^HTTP\/1\.1 400 /);
    assert.ok(data.endsWith('\r\n\r\n'), 'the response ends with its headers');
  });

  it('serves at most 100 requests on one keep-alive connection, then closes it', async () => {
    const socket = await connect(suite.server.base);
    const w = watch(socket);
    // one request at a time, each after the previous answer, until the server closes
    for (let i = 1; i <= 101 && !w.isClosed; i++) {
      socket.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await w.until((d) => statusesOf(d).length >= i);
    }
    const { data, byGuard } = await w.closed;
    assert.equal(byGuard, false, 'the server closed the connection');
    assert.deepEqual(statusesOf(data), Array(100).fill('200'), 'connection closed after 100 responses');
    assert.match(data.slice(data.lastIndexOf('HTTP/1.1')), /connection: close/i);
  });

  it('pipelined requests beyond the active-execution limit get enveloped 503s, never 500', async () => {
    const socket = await connect(suite.server.base);
    const w = watch(socket);
    socket.write('GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(60));
    await w.until((d) => statusesOf(d).length >= 60 && d.endsWith('}'));
    socket.end();
    const { data } = await w.closed;
    const statuses = statusesOf(data);
    assert.equal(statuses.length, 60);
    assert.ok(statuses.every((s) => s === '200' || s === '503'), statuses.join(','));
    assert.ok(statuses.filter((s) => s === '200').length >= 32);
  });
});

/** One raw request on its own connection (it ends with Connection: close): the server's bytes. */
async function exchange(base: string, request: string): Promise<string> {
  const socket = await connect(base);
  const done = closed(socket);
  socket.write(request);
  const { data, byGuard } = await done;
  assert.equal(byGuard, false, 'the server closed the connection');
  return data;
}

function parse(data: string): { status: number; headers: string; body: string } {
  const [head, ...rest] = data.split('\r\n\r\n');
  return { status: Number(head!.slice(9, 12)), headers: head!, body: rest.join('\r\n\r\n') };
}

describe('HTTP edges of the listener', () => {
  const suite = serveForSuite(engine);

  it('an unsupported Expect is served as if absent: the normal answer or the envelope, with a request id', async () => {
    const health = parse(await exchange(suite.server.base, 'GET /v1/health HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n'));
    assert.equal(health.status, 200);
    assert.match(health.headers, /\r\nx-request-id: [0-9a-f-]{36}/i);
    assert.equal(JSON.parse(health.body).data.status, 'ok');

    const missing = parse(await exchange(suite.server.base, 'GET /v1/nowhere HTTP/1.1\r\nHost: x\r\nExpect: something\r\nConnection: close\r\n\r\n'));
    assert.equal(missing.status, 404);
    assert.match(missing.headers, /\r\nx-request-id: [0-9a-f-]{36}/i);
    assert.equal(JSON.parse(missing.body).error.type, 'not_found');

    // 100-continue stays Node's: an interim 100, then the answer
    const proceed = await exchange(suite.server.base, 'GET /v1/health HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n');
    assert.match(proceed, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });

  it('more than one Host header is a 400 envelope with a request id, whether the values differ or not', async () => {
    const hosts = ['Host: a.example\r\nHost: b.example', 'Host: x\r\nHost: x', 'Host: x\r\nhOST: x', 'Host: x\r\nHost: x\r\nHost: x'];
    for (const lines of hosts) {
      const res = parse(await exchange(suite.server.base, `GET /v1/health HTTP/1.1\r\n${lines}\r\nConnection: close\r\n\r\n`));
      assert.equal(res.status, 400, lines);
      assert.match(res.headers, /\r\nx-request-id: [0-9a-f-]{36}/i);
      assert.match(res.headers, /\r\ncache-control: no-store/i);
      assert.deepEqual(JSON.parse(res.body), { ok: false, error: { type: 'invalid_query', message: 'A request may carry only one Host header.' } });
    }
    const one = parse(await exchange(suite.server.base, 'GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    assert.equal(one.status, 200);
  });

  it('HTTP/1.0 without Host is served; HTTP/1.1 without Host is a 400 envelope', async () => {
    const old = parse(await exchange(suite.server.base, 'GET /v1/health HTTP/1.0\r\n\r\n'));
    assert.equal(old.status, 200);
    assert.match(old.headers, /\r\nx-request-id: [0-9a-f-]{36}/i);
    const missing = parse(await exchange(suite.server.base, 'GET /v1/health HTTP/1.1\r\nConnection: close\r\n\r\n'));
    assert.equal(missing.status, 400);
    assert.equal(JSON.parse(missing.body).error.message, 'An HTTP/1.1 request needs a Host header.');
  });
});
