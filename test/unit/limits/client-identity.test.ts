/**
 * Client identity (specification, Limits rule 2): the socket peer only; IPv4-mapped addresses
 * share their IPv4 bucket, IPv6 peers share a /64, missing or invalid peers share `unknown`.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { clientIdentity, UNKNOWN_IDENTITY } from '../../../src/limits/client-identity.js';
import { RateLimiter } from '../../../src/limits/token-bucket.js';

describe('clientIdentity', () => {
  it('keys an IPv4 peer by its address', () => {
    assert.equal(clientIdentity('203.0.113.7'), '203.0.113.7');
    assert.equal(clientIdentity('127.0.0.1'), '127.0.0.1');
    assert.equal(clientIdentity('0.0.0.0'), '0.0.0.0');
  });

  it('maps IPv4-mapped IPv6 peers to their IPv4 bucket, in any case and in hex form', () => {
    for (const peer of [
      '::ffff:1.2.3.4',
      '::FFFF:1.2.3.4',
      '::ffff:102:304',
      '::FFFF:0102:0304',
      '0:0:0:0:0:ffff:1.2.3.4',
      '0000:0000:0000:0000:0000:FFFF:0102:0304',
    ]) {
      assert.equal(clientIdentity(peer), '1.2.3.4', peer);
    }
    assert.equal(clientIdentity('::ffff:ffff:ffff'), '255.255.255.255');
    assert.equal(clientIdentity('::ffff:0:0'), '0.0.0.0');
  });

  it('keys an IPv6 peer by its canonical /64 prefix', () => {
    assert.equal(clientIdentity('2001:db8:0:1::1'), '2001:db8:0:1::/64');
    assert.equal(clientIdentity('2001:0DB8:0000:0001:FFFF:FFFF:FFFF:FFFF'), '2001:db8:0:1::/64');
    assert.equal(clientIdentity('2001:db8:0:1:abcd::'), '2001:db8:0:1::/64');
    assert.equal(clientIdentity('2001:db8::'), '2001:db8:0:0::/64');
    assert.equal(clientIdentity('::1'), '0:0:0:0::/64');
    assert.equal(clientIdentity('::'), '0:0:0:0::/64');
    assert.equal(clientIdentity('2001:db8:0:1::1.2.3.4'), '2001:db8:0:1::/64');
  });

  it('drops zone ids', () => {
    assert.equal(clientIdentity('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(clientIdentity('FE80::abcd:1%en0'), 'fe80:0:0:0::/64');
  });

  it('puts two addresses of one /64 together and different /64s apart', () => {
    const a = clientIdentity('2001:db8:aaaa:1::1');
    const b = clientIdentity('2001:db8:aaaa:1:ffff:ffff:ffff:fffe');
    const c = clientIdentity('2001:db8:aaaa:2::1');
    assert.equal(a, b);
    assert.notEqual(a, c);
    // IPv4-compatible / other IPv6 forms are not IPv4-mapped.
    assert.notEqual(clientIdentity('::1.2.3.4'), '1.2.3.4');
    assert.notEqual(clientIdentity('64:ff9b::1.2.3.4'), '1.2.3.4');
  });

  it('gives every spelling of an IPv6 address the key of its first four groups', () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.boolean(), (groups, up) => {
        const mapped = groups.slice(0, 6).join(',') === '0,0,0,0,0,65535';
        fc.pre(!mapped);
        const full = groups.map((g) => g.toString(16).padStart(4, '0')).join(':');
        const compressed = new URL(`http://[${full}]/`).hostname.slice(1, -1); // RFC 5952 form
        const expected = `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
        const spelled = up ? full.toUpperCase() : full;
        assert.equal(clientIdentity(spelled), expected);
        assert.equal(clientIdentity(compressed), expected);
        assert.equal(clientIdentity(`${compressed}%eth0`), expected);
      }),
    );
  });

  it('maps every IPv4-mapped address to its IPv4 address', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), ([a, b, c, d]) => {
        const ipv4 = `${a}.${b}.${c}.${d}`;
        const hex = `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        assert.equal(clientIdentity(ipv4), ipv4);
        assert.equal(clientIdentity(`::ffff:${ipv4}`), ipv4);
        assert.equal(clientIdentity(hex), ipv4);
        assert.equal(clientIdentity(hex.toUpperCase()), ipv4);
      }),
    );
  });

  it('sends missing or invalid peers to the single unknown bucket', () => {
    assert.equal(UNKNOWN_IDENTITY, 'unknown');
    for (const peer of [
      undefined,
      '',
      'garbage',
      'unknown',
      '1.2.3',
      '1.2.3.256',
      '01.2.3.4',
      ' 1.2.3.4',
      '[::1]',
      '::ffff:1.2.3.256',
      '1:2:3:4:5:6:7:8:9',
      'fe80::1%',
      '2001:db8::g',
    ]) {
      assert.equal(clientIdentity(peer), 'unknown', String(peer));
    }
  });
});

describe('identities and buckets', () => {
  const limiter = (burst: number) =>
    new RateLimiter({ burst, refillPerSec: 1, maxIdentities: 100, now: () => 0 });

  it('IPv4-mapped peers share the bucket of their IPv4 address', () => {
    const rl = limiter(2);
    assert.equal(rl.take(clientIdentity('1.2.3.4')).kind, 'allowed');
    assert.equal(rl.take(clientIdentity('::ffff:1.2.3.4')).kind, 'allowed');
    assert.equal(rl.take(clientIdentity('::FFFF:102:304')).kind, 'limited');
    assert.equal(rl.take(clientIdentity('1.2.3.5')).kind, 'allowed');
    assert.equal(rl.size, 2);
  });

  it('IPv6 peers of one /64 share a bucket; another /64 has its own', () => {
    const rl = limiter(2);
    assert.equal(rl.take(clientIdentity('2001:db8:0:1::1')).kind, 'allowed');
    assert.equal(rl.take(clientIdentity('2001:db8:0:1::2%eth0')).kind, 'allowed');
    assert.equal(rl.take(clientIdentity('2001:db8:0:1:ffff::9')).kind, 'limited');
    assert.equal(rl.take(clientIdentity('2001:db8:0:2::1')).kind, 'allowed');
  });

  it('missing and invalid peers share one unknown bucket', () => {
    const rl = limiter(2);
    assert.equal(rl.take(clientIdentity(undefined)).kind, 'allowed');
    assert.equal(rl.take(clientIdentity('garbage')).kind, 'allowed');
    assert.equal(rl.take(clientIdentity('')).kind, 'limited');
    assert.equal(rl.size, 1);
  });
});
