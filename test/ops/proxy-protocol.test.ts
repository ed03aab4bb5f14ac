/**
 * LINEUP_PROXY_PROTOCOL through the real listener, with raw sockets: a trusted source's
 * connection begins with a PROXY header (v1 or v2, IPv4 or IPv6, possibly split across TCP
 * writes) and the address it carries is the client for every rule of spec Limits; a trusted
 * connection without a valid header is closed without an answer; other sources are served as
 * before, their PROXY-looking bytes being plain (malformed) HTTP. Forwarded headers stay ignored.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { engines, openTestDatabase, type TestDatabase } from '../helper.js';
import { scrape, startOpsServer, type OpsServer } from './support.js';
import { v2, v2Inet4, v2Inet6 } from './proxy-headers.js';
import { loadConfig } from '../../src/config/config.js';

const engine = engines()[0]!; // connection handling does not depend on the database engine

const request = (path = '/v1/health', extra = '') => Buffer.from(`GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`);
const v1 = (line: string) => Buffer.from(`${line}\r\n`);

/** Sends `chunks` from `localAddress` (each its own write, after the previous one was flushed); resolves with all bytes read until close. */
function exchange(server: OpsServer, localAddress: string, chunks: Buffer[], split = false): Promise<string> {
  const port = Number(new URL(server.base).port);
  return new Promise((resolve, reject) => {
    let data = '';
    const socket = net.connect({ port, host: '127.0.0.1', localAddress, noDelay: true }, async () => {
      for (const chunk of chunks) {
        if (!split) {
          socket.write(chunk);
          continue;
        }
        for (const byte of chunk) {
          await new Promise<void>((r) => socket.write(Buffer.from([byte]), () => r()));
          await new Promise((r) => setTimeout(r, 1)); // separate TCP segments
        }
      }
    });
    socket.on('data', (c) => (data += c.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(data));
  });
}

function answers(raw: string): Array<{ status: number; id: string }> {
  return [...raw.matchAll(/HTTP\/1\.1 (\d{3})[^]*?X-Request-ID: ([0-9a-f-]{36})/gi)].map((m) => ({ status: Number(m[1]), id: m[2]!.toLowerCase() }));
}

/** The rate-limiter identity the server logged for a request id. */
async function peerOf(server: OpsServer, id: string): Promise<string | undefined> {
  for (let i = 0; i < 3000; i++) {
    const line = server.logs.find((l) => l.reqId === id);
    if (line) return line.peer;
    await new Promise((r) => setTimeout(r, 10));
  }
  return undefined;
}

describe('LINEUP_PROXY_PROTOCOL', () => {
  let t: TestDatabase;
  before(async () => {
    t = await openTestDatabase(engine);
  });
  after(async () => t.drop());

  it('is a list of addresses and CIDRs, empty by default, validated', () => {
    assert.deepEqual(loadConfig({}).proxyProtocol, []);
    assert.deepEqual(loadConfig({ LINEUP_PROXY_PROTOCOL: '127.0.0.1, 10.0.0.0/8 ::1' }).proxyProtocol, ['127.0.0.1/32', '10.0.0.0/8', '::1/128']);
    assert.throws(() => loadConfig({ LINEUP_PROXY_PROTOCOL: '10.0.0.0/33' }), /LINEUP_PROXY_PROTOCOL/);
    assert.throws(() => loadConfig({ LINEUP_PROXY_PROTOCOL: 'proxy.local' }), /LINEUP_PROXY_PROTOCOL/);
  });

  describe('from a trusted source', () => {
    let server: OpsServer;
    before(async () => {
      // debug: the peer of a refused request is read from its own `refused` line
      server = await startOpsServer(t.db, { proxyProtocol: ['127.0.0.1/32'], rateBurst: 1, rateRefillPerSec: 0.001, logLevel: 'debug' });
    });
    after(async () => server.close());

    it('v1 TCP4: the carried address is the client: its own bucket, in the logs too', async () => {
      const [a] = answers(await exchange(server, '127.0.0.1', [v1('PROXY TCP4 203.0.113.7 192.0.2.1 56324 80'), request()]));
      assert.equal(a?.status, 200);
      assert.equal(await peerOf(server, a!.id), '203.0.113.7');
      const [again] = answers(await exchange(server, '127.0.0.1', [v1('PROXY TCP4 203.0.113.7 192.0.2.1 56325 80'), request()]));
      assert.equal(again?.status, 429, 'the same client, through another proxy connection, shares its bucket');
      const [other] = answers(await exchange(server, '127.0.0.1', [v1('PROXY TCP4 203.0.113.8 192.0.2.1 56326 80'), request()]));
      assert.equal(other?.status, 200, 'another client behind the same proxy has its own bucket');
    });

    it('v2 IPv6: peers share a bucket per /64; IPv4-mapped shares the IPv4 bucket', async () => {
      const via6 = (src: string) => v2(1, 0x21, v2Inet6(src, '2001:db8::1', 4000, 80));
      const [a] = answers(await exchange(server, '127.0.0.1', [via6('2001:db8:1:2::5'), request()]));
      assert.equal(a?.status, 200);
      assert.equal(await peerOf(server, a!.id), '2001:db8:1:2::/64');
      const [b] = answers(await exchange(server, '127.0.0.1', [via6('2001:db8:1:2:ffff::6'), request()]));
      assert.equal(b?.status, 429, 'same /64');
      const [c] = answers(await exchange(server, '127.0.0.1', [via6('2001:db8:1:3::5'), request()]));
      assert.equal(c?.status, 200, 'another /64');

      const [d] = answers(await exchange(server, '127.0.0.1', [v2(1, 0x11, v2Inet4([198, 51, 100, 9], [192, 0, 2, 1], 1, 80)), request()]));
      assert.equal(d?.status, 200);
      const [e] = answers(await exchange(server, '127.0.0.1', [via6('::ffff:c633:6409'), request()]));
      assert.equal(e?.status, 429, '::ffff:198.51.100.9 is 198.51.100.9');
      assert.equal(await peerOf(server, e!.id), '198.51.100.9');
    });

    it('a header split across TCP writes, and several pipelined requests after it, are served', async () => {
      const raw = await exchange(
        server,
        '127.0.0.1',
        [v2(1, 0x11, v2Inet4([203, 0, 113, 20], [192, 0, 2, 1], 1, 80)), Buffer.from('GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n')],
        true,
      );
      const [split] = answers(raw);
      assert.equal(split?.status, 200);
      assert.equal(await peerOf(server, split!.id), '203.0.113.20');

      const relaxed = await startOpsServer(t.db, { proxyProtocol: ['127.0.0.1/32'] });
      try {
        const header = v1('PROXY TCP4 203.0.113.21 192.0.2.1 1 80');
        const pipelined = Buffer.concat([header, Buffer.from('GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n'), request('/v1/ready')]);
        const got = answers(await exchange(relaxed, '127.0.0.1', [pipelined]));
        assert.deepEqual(got.map((g) => g.status), [200, 200]);
        assert.deepEqual(await Promise.all(got.map((g) => peerOf(relaxed, g.id))), ['203.0.113.21', '203.0.113.21']);
      } finally {
        await relaxed.close();
      }
    });

    it('LOCAL (v2) and UNKNOWN (v1) keep the proxy as the peer', async () => {
      const [local] = answers(await exchange(server, '127.0.0.1', [v2(0, 0x00, Buffer.alloc(0)), request()]));
      assert.equal(local?.status, 200);
      assert.equal(await peerOf(server, local!.id), '127.0.0.1');
      const [unknown] = answers(await exchange(server, '127.0.0.1', [v1('PROXY UNKNOWN'), request()]));
      assert.equal(unknown?.status, 429, 'the proxy itself, whose one token LOCAL spent');
    });

    it('forwarded-address headers are ignored: the header names the client', async () => {
      const [a] = answers(
        await exchange(server, '127.0.0.1', [v1('PROXY TCP4 203.0.113.30 192.0.2.1 1 80'), request('/v1/health', 'X-Forwarded-For: 198.51.100.77\r\nForwarded: for=198.51.100.78\r\n')]),
      );
      assert.equal(a?.status, 200);
      assert.equal(await peerOf(server, a!.id), '203.0.113.30');
    });

    it('closes a connection without a valid header, answering nothing, and counts it', async () => {
      const before = await scrape(server.admin);
      assert.equal(await exchange(server, '127.0.0.1', [request()]), '', 'plain HTTP from the proxy');
      assert.equal(await exchange(server, '127.0.0.1', [v1('PROXY TCP4 203.0.113.999 192.0.2.1 1 80'), request()]), '');
      const version1 = v2(1, 0x11, v2Inet4([203, 0, 113, 7], [192, 0, 2, 1], 1, 80));
      version1[12] = 0x11;
      assert.equal(await exchange(server, '127.0.0.1', [version1, request()]), '');
      const m = await scrape(server.admin);
      const rejected = (reason: string) =>
        m.value('lineup_proxy_protocol_rejected_connections_total', { reason }) - before.value('lineup_proxy_protocol_rejected_connections_total', { reason });
      assert.equal(rejected('missing_header'), 1);
      assert.equal(rejected('malformed_header'), 2);
      assert.equal(m.value('lineup_http_requests_total') - before.value('lineup_http_requests_total'), 0);
    });

    it('closes a proxy connection that sends no header by the header deadline (LINEUP_HEADERS_TIMEOUT_MS)', async () => {
      const quick = await startOpsServer(t.db, { proxyProtocol: ['127.0.0.1/32'], headersTimeoutMs: 200, requestTimeoutMs: 200 });
      try {
        assert.equal(await exchange(quick, '127.0.0.1', []), '');
        assert.equal(await exchange(quick, '127.0.0.1', [Buffer.from('PROXY TCP4 203.0.113.7')]), '');
        const m = await scrape(quick.admin);
        assert.equal(m.value('lineup_proxy_protocol_rejected_connections_total', { reason: 'header_timeout' }), 2);
      } finally {
        await quick.close();
      }
    });
  });

  describe('from a source that is not trusted', () => {
    let server: OpsServer;
    before(async () => {
      server = await startOpsServer(t.db, { proxyProtocol: ['127.0.0.2/32', '10.0.0.0/8'], rateBurst: 1, rateRefillPerSec: 0.001 });
    });
    after(async () => server.close());

    it('serves plain HTTP as before and treats a PROXY header as malformed HTTP', async () => {
      const [plain] = answers(await exchange(server, '127.0.0.1', [request('/v1/health', 'X-Forwarded-For: 198.51.100.77\r\n')]));
      assert.equal(plain?.status, 200);
      assert.equal(await peerOf(server, plain!.id), '127.0.0.1');
      const [spoofed] = answers(await exchange(server, '127.0.0.1', [v1('PROXY TCP4 203.0.113.7 192.0.2.1 1 80'), request()]));
      assert.equal(spoofed?.status, 400, 'no address is taken from an untrusted peer');
      const [trusted] = answers(await exchange(server, '127.0.0.2', [v1('PROXY TCP4 203.0.113.7 192.0.2.1 1 80'), request()]));
      assert.equal(trusted?.status, 200);
      assert.equal(await peerOf(server, trusted!.id), '203.0.113.7');
    });
  });
});
