/**
 * PROXY protocol framing (v1 text, v2 binary): how many bytes belong to the header, what it
 * names, and what is refused. Headers are built by hand here (not with the parsing library),
 * byte for byte from HAProxy's proxy-protocol.txt.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { frameProxyHeader } from '../../../src/limits/proxy-protocol.js';
import { SIG, v2, v2Inet4, v2Inet6 } from '../../ops/proxy-headers.js';

const HTTP = Buffer.from('GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n');

describe('PROXY protocol v1', () => {
  it('frames a TCP4 line and leaves the bytes after it to HTTP', () => {
    const line = Buffer.from('PROXY TCP4 203.0.113.7 192.0.2.1 56324 443\r\n');
    const f = frameProxyHeader(Buffer.concat([line, HTTP]));
    assert.deepEqual(f, { kind: 'header', header: { address: '203.0.113.7', family: 'IPv4', port: 56324 }, length: line.length });
  });

  it('frames a TCP6 line (the address in its compact form)', () => {
    const f = frameProxyHeader(Buffer.from('PROXY TCP6 2001:db8:0:1:0:0:0:5 2001:db8::1 4000 443\r\n'));
    assert.equal(f.kind, 'header');
    assert.deepEqual(f.kind === 'header' && f.header, { address: '2001:db8:0:1::5', family: 'IPv6', port: 4000 });
  });

  it('UNKNOWN keeps the socket peer (a proxy health check)', () => {
    assert.deepEqual(frameProxyHeader(Buffer.from('PROXY UNKNOWN\r\n')), { kind: 'header', header: null, length: 15 });
    assert.deepEqual(frameProxyHeader(Buffer.from('PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n')).kind, 'header');
  });

  it('waits for the rest of a header split anywhere', () => {
    const line = 'PROXY TCP4 203.0.113.7 192.0.2.1 56324 443\r\n';
    for (let i = 1; i < line.length; i++) assert.equal(frameProxyHeader(Buffer.from(line.slice(0, i))).kind, 'incomplete', `${i} bytes`);
  });

  it('refuses what is not a valid v1 line', () => {
    const malformed = [
      'PROXY TCP4 203.0.113.999 192.0.2.1 1 2\r\n',
      'PROXY TCP4 2001:db8::1 192.0.2.1 1 2\r\n',
      'PROXY TCP6 203.0.113.7 2001:db8::1 1 2\r\n',
      'PROXY TCP4 203.0.113.7 192.0.2.1 65536 2\r\n',
      'PROXY TCP4 203.0.113.7 192.0.2.1 -1 2\r\n',
      'PROXY TCP5 203.0.113.7 192.0.2.1 1 2\r\n',
      'PROXY TCP4 203.0.113.7  192.0.2.1 1 2\r\n',
      `PROXY TCP4 ${'1'.repeat(120)}`,
    ];
    for (const m of malformed) assert.deepEqual(frameProxyHeader(Buffer.from(m)), { kind: 'rejected', reason: 'malformed_header' }, m);
    for (const m of ['GET / HTTP/1.1\r\n', 'PROXX', 'proxy TCP4 1.2.3.4 1.2.3.4 1 2\r\n']) {
      assert.deepEqual(frameProxyHeader(Buffer.from(m)), { kind: 'rejected', reason: 'missing_header' }, m);
    }
  });
});

describe('PROXY protocol v2', () => {
  it('frames an IPv4 PROXY header, TLVs included, and leaves the bytes after it to HTTP', () => {
    const tlvs = Buffer.from([0x05, 0x00, 0x03, 0x61, 0x62, 0x63]); // PP2_TYPE_UNIQUE_ID "abc"
    const header = v2(1, 0x11, v2Inet4([203, 0, 113, 7], [192, 0, 2, 1], 56324, 443), tlvs);
    const f = frameProxyHeader(Buffer.concat([header, HTTP]));
    assert.deepEqual(f, { kind: 'header', header: { address: '203.0.113.7', family: 'IPv4', port: 56324 }, length: header.length });
  });

  it('frames an IPv6 PROXY header, IPv4-mapped ones included', () => {
    const f = frameProxyHeader(v2(1, 0x21, v2Inet6('2001:db8:1:2::5', '2001:db8::1', 4000, 443)));
    assert.deepEqual(f.kind === 'header' && f.header, { address: '2001:db8:1:2::5', family: 'IPv6', port: 4000 });
    const mapped = frameProxyHeader(v2(1, 0x21, v2Inet6('::ffff:cb00:7109', '::1', 4000, 443)));
    assert.deepEqual(mapped.kind === 'header' && mapped.header, { address: '::ffff:203.0.113.9', family: 'IPv6', port: 4000 });
  });

  it('LOCAL, UNSPEC and UNIX keep the socket peer', () => {
    const local = v2(0, 0x00, Buffer.alloc(0));
    assert.deepEqual(frameProxyHeader(local), { kind: 'header', header: null, length: 16 });
    const localWithAddress = v2(0, 0x11, v2Inet4([203, 0, 113, 7], [192, 0, 2, 1], 1, 2));
    assert.deepEqual(frameProxyHeader(localWithAddress), { kind: 'header', header: null, length: 28 });
    assert.deepEqual(frameProxyHeader(v2(1, 0x00, Buffer.alloc(0))), { kind: 'header', header: null, length: 16 });
    assert.deepEqual(frameProxyHeader(v2(1, 0x31, Buffer.alloc(216))), { kind: 'header', header: null, length: 232 });
  });

  it('waits for the rest of a header split anywhere', () => {
    const header = v2(1, 0x11, v2Inet4([203, 0, 113, 7], [192, 0, 2, 1], 56324, 443));
    for (let i = 1; i < header.length; i++) assert.equal(frameProxyHeader(header.subarray(0, i)).kind, 'incomplete', `${i} bytes`);
  });

  it('refuses a wrong version, command or family, a block shorter than its family, or an oversized length', () => {
    const good = v2(1, 0x11, v2Inet4([203, 0, 113, 7], [192, 0, 2, 1], 1, 2));
    const version1 = Buffer.from(good);
    version1[12] = 0x11;
    const command2 = Buffer.from(good);
    command2[12] = 0x22;
    const family5 = Buffer.from(good);
    family5[13] = 0x51;
    const short = v2(1, 0x11, Buffer.alloc(8));
    const huge = Buffer.concat([SIG, Buffer.from([0x21, 0x11, 0xff, 0xff])]);
    for (const [name, b] of Object.entries({ version1, command2, family5, short, huge })) {
      assert.deepEqual(frameProxyHeader(b), { kind: 'rejected', reason: 'malformed_header' }, name);
    }
    const badSignature = Buffer.from(good);
    badSignature[5] = 0x0e;
    assert.deepEqual(frameProxyHeader(badSignature), { kind: 'rejected', reason: 'missing_header' });
  });
});
