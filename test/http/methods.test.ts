/**
 * Methods (the 405 rule): the path and the method are decided before a request
 * body is looked at; the operational routes answer HEAD and the preflight like resource routes.
 * Every refusal spends a token and carries X-Request-ID, CORS and no-store; a request whose body
 * was not read has its connection closed after the answer.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { engines, serveForSuite } from '../helper.js';

interface RawAnswer {
  readonly status: number;
  readonly head: string;
  readonly body: string;
  /** The server closed the connection after the answer (we never asked it to). */
  readonly closed: boolean;
}

/**
 * Writes `text` on a fresh connection (keep-alive), reads one answer, then waits for the server
 * to close the connection: until it does when the answer says `Connection: close`, else `waitMs`.
 */
function exchange(base: string, text: string, waitMs = 1500): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let data = '';
    let timer: NodeJS.Timeout = setTimeout(() => socket.destroy(new Error(`no answer to ${text.slice(0, 40)}`)), 10_000);
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const end = data.indexOf('\r\n\r\n');
      const head = end < 0 ? data : data.slice(0, end);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), head, body: end < 0 ? '' : data.slice(end + 4), closed });
      socket.destroy();
    };
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      const end = data.indexOf('\r\n\r\n');
      const length = end < 0 ? undefined : /^content-length: (\d+)/im.exec(data.slice(0, end))?.[1];
      const complete = end >= 0 && (length === undefined || data.length - end - 4 >= Number(length));
      if (complete) {
        clearTimeout(timer);
        // an answer that announces the close is followed by it however slow the machine: wait for it
        // (30 s is a guard only); otherwise the server has `waitMs` to close the connection unasked
        const announced = /^connection: close/im.test(data.slice(0, end));
        timer = setTimeout(() => finish(false), announced ? 30_000 : waitMs);
      }
    });
    socket.on('close', () => finish(true));
    socket.on('error', (err) => (data === '' ? reject(err) : finish(true)));
  });
}

const header = (head: string, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim();

function assertRefusal(a: RawAnswer, status: number, type: string, what: string): void {
  assert.equal(a.status, status, `${what}: ${a.head.split('\r\n')[0]} ${a.body.slice(0, 200)}`);
  assert.match(header(a.head, 'x-request-id') ?? '', /^[0-9a-f-]{36}$/, `${what}: X-Request-ID`);
  assert.equal(header(a.head, 'access-control-allow-origin'), '*', `${what}: CORS`);
  assert.equal(header(a.head, 'cache-control'), 'no-store', `${what}: no-store`);
  if (type !== '') assert.equal(JSON.parse(a.body).error.type, type, what);
}

const BODY_FORMS = [
  (m: string, p: string) => `${m} ${p} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
  (m: string, p: string) => `${m} ${p} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
];

for (const engine of engines()) {
  describe(`methods before bodies, operational routes on ${engine.name}`, () => {
    const suite = serveForSuite(engine);

    it('an unsupported method on a known path is 405 with Allow, with or without a body; the unread body closes the connection', async () => {
      for (const path of ['/v1/events', '/v1/venues', '/v1/events/EvFete000001/artists', '/v1/health', '/v1/ready']) {
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
          const bare = await exchange(suite.server.base, `${method} ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, 200);
          assertRefusal(bare, 405, 'method_not_allowed', `${method} ${path}`);
          assert.equal(header(bare.head, 'allow'), 'GET, HEAD, OPTIONS', `${method} ${path}: Allow`);
          assert.equal(bare.closed, false, `${method} ${path} without a body keeps its connection`);
          for (const form of BODY_FORMS) {
            const a = await exchange(suite.server.base, form(method, path));
            assertRefusal(a, 405, 'method_not_allowed', `${method} ${path} with a body`);
            assert.equal(header(a.head, 'allow'), 'GET, HEAD, OPTIONS', `${method} ${path}: Allow`);
            assert.equal(header(a.head, 'connection'), 'close', `${method} ${path}: Connection: close`);
            assert.equal(a.closed, true, `${method} ${path}: the unread body's connection is closed`);
          }
        }
      }
    });

    it('a path with percent-escapes is the path the router serves, for every method and the body rule', async () => {
      // GET /v1/%65vents is served as /v1/events: its other methods are that path's 405
      const served = await exchange(suite.server.base, 'GET /v1/%65vents?limit=1 HTTP/1.1\r\nHost: x\r\n\r\n', 200);
      assert.equal(served.status, 200, served.head.split('\r\n')[0]);
      for (const path of ['/v1/%65vents', '/v1/%76enues/VnOdeon00001', '/v1/events/EvFete000001/%61rtists']) {
        const bare = await exchange(suite.server.base, `DELETE ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, 200);
        assertRefusal(bare, 405, 'method_not_allowed', `DELETE ${path}`);
        assert.equal(header(bare.head, 'allow'), 'GET, HEAD, OPTIONS', `DELETE ${path}: Allow`);
        const body = await exchange(suite.server.base, BODY_FORMS[0]!('GET', path));
        assertRefusal(body, 400, 'invalid_query', `GET ${path} with a body`);
      }
      // an escaped slash stays inside its segment, as the router keeps it: no such path
      for (const path of ['/v1%2Fevents', '/v1/events%2Fx/artists/y']) {
        const a = await exchange(suite.server.base, `DELETE ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, 200);
        assertRefusal(a, 404, 'not_found', `DELETE ${path}`);
      }
    });

    it('QUERY and CONNECT are decided by path like any other method: 405 with Allow, or 404', async () => {
      for (const method of ['QUERY', 'CONNECT']) {
        for (const path of ['/v1/events', '/v1/health']) {
          const a = await exchange(suite.server.base, `${method} ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, 200);
          assertRefusal(a, 405, 'method_not_allowed', `${method} ${path}`);
          assert.equal(header(a.head, 'allow'), 'GET, HEAD, OPTIONS', `${method} ${path}: Allow`);
        }
        // (an authority is CONNECT's own form: with any other method the parser refuses it, a 400)
        for (const path of method === 'CONNECT' ? ['/v1/nope', 'localhost:443'] : ['/v1/nope']) {
          const a = await exchange(suite.server.base, `${method} ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, 200);
          assertRefusal(a, 404, 'not_found', `${method} ${path}`);
        }
      }
    });

    it('an HTTP/1.1 request without Host is an enveloped 400; HTTP/1.0 needs none', async () => {
      for (const path of ['/v1/health', '/v1/events?limit=1', '/v1/nope']) {
        const a = await exchange(suite.server.base, `GET ${path} HTTP/1.1\r\n\r\n`, 200);
        assertRefusal(a, 400, 'invalid_query', `GET ${path} without Host`);
        assert.match(JSON.parse(a.body).error.message, /Host/);
      }
      // HTTP/1.0 has no Host requirement (answered with an HTTP/1.1 status line, as Node writes them)
      const old = await exchange(suite.server.base, 'GET /v1/health HTTP/1.0\r\n\r\n', 200);
      assert.equal(old.status, 200, old.head.split('\r\n')[0]);
    });

    it('an unknown path is 404 whatever the method and body; a supported method with a body is 400', async () => {
      for (const path of ['/v1/nope', '/v2/events', '/v1/events/', '/']) {
        for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS']) {
          for (const form of BODY_FORMS) {
            const a = await exchange(suite.server.base, form(method, path));
            assertRefusal(a, 404, 'not_found', `${method} ${path} with a body`);
            assert.equal(a.closed, true, `${method} ${path}: closed`);
          }
        }
      }
      for (const method of ['GET', 'HEAD', 'OPTIONS']) {
        for (const form of BODY_FORMS) {
          const a = await exchange(suite.server.base, form(method, '/v1/events'));
          assertRefusal(a, 400, method === 'HEAD' ? '' : 'invalid_query', `${method} /v1/events with a body`);
          assert.equal(a.closed, true, `${method} with a body: closed`);
        }
      }
    });

    it('health and ready answer HEAD (same headers, no body) and the preflight like resource routes', async () => {
      for (const path of ['/v1/health', '/v1/ready']) {
        const get = await suite.server.get(path);
        const getText = await get.text();
        assert.equal(get.status, 200);
        const head = await suite.server.get(path, { method: 'HEAD' });
        assert.equal(head.status, 200, `HEAD ${path}`);
        assert.equal(await head.text(), '');
        assert.equal(head.headers.get('content-type'), get.headers.get('content-type'));
        assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(getText)));
        assert.equal(head.headers.get('cache-control'), 'no-store');
        assert.equal(head.headers.get('access-control-allow-origin'), '*');
        const pre = await suite.server.get(path, {
          method: 'OPTIONS',
          headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match' },
        });
        assert.equal(pre.status, 204, `OPTIONS ${path}`);
        assert.equal(pre.headers.get('access-control-allow-methods'), 'GET, HEAD, OPTIONS');
        assert.equal(pre.headers.get('access-control-allow-headers'), 'If-None-Match');
        assert.equal(pre.headers.get('access-control-allow-origin'), '*');
        assert.equal(pre.headers.get('cache-control'), 'no-store');
        assert.match(pre.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
        const headQuery = await suite.server.get(`${path}?x=1`, { method: 'HEAD' });
        assert.equal(headQuery.status, 400, `HEAD ${path}?x=1`);
      }
    });
  });

  describe(`refusals spend their token on ${engine.name}`, () => {
    const suite = serveForSuite(engine, { rateBurst: 3, rateRefillPerSec: 0.001 });

    it('405 with a body, 404 with a body and 400 with a body each spend a token', async () => {
      const forms = [BODY_FORMS[0]!('POST', '/v1/events'), BODY_FORMS[0]!('POST', '/v1/nope'), BODY_FORMS[0]!('GET', '/v1/health')];
      const statuses = [];
      for (const text of forms) statuses.push((await exchange(suite.server.base, text)).status);
      assert.deepEqual(statuses, [405, 404, 400]);
      const limited = await exchange(suite.server.base, BODY_FORMS[0]!('POST', '/v1/events'));
      assertRefusal(limited, 429, 'rate_limited', 'the fourth request');
    });
  });
}
