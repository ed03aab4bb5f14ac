/**
 * Client identity for rate limiting (specification, Limits rule 2). The identity is derived
 * from the socket peer address only; forwarded-address headers are never consulted. IPv4 peers
 * are keyed by their dotted address, IPv4-mapped IPv6 peers (`::ffff:a.b.c.d`, in any case and
 * also in the hex form `::ffff:0102:0304`) share the bucket of that IPv4 address, other IPv6
 * peers share one bucket per /64 prefix (zone ids dropped, canonical lower-case groups without
 * leading zeros, e.g. `2001:db8:0:1::/64`), and a missing or invalid peer falls into the single
 * `unknown` bucket. Pure: no I/O, no framework.
 *
 * Written here, not with ipaddr.js (which the PROXY protocol and the trusted sources use): it
 * reads the deprecated IPv4-compatible spelling `::1.2.3.4` as the IPv4-mapped `::ffff:1.2.3.4`,
 * which would give a native IPv6 peer the bucket of an IPv4 client (the unit test pins this).
 */

import { isIP } from 'node:net';

/** The shared bucket key of every peer whose address is missing or not a valid IP address. */
export const UNKNOWN_IDENTITY = 'unknown';

/** The rate-limiter identity of a socket peer (`request.socket.remoteAddress`). */
export function clientIdentity(remoteAddress: string | undefined): string {
  if (remoteAddress === undefined) return UNKNOWN_IDENTITY;
  const family = isIP(remoteAddress);
  if (family === 4) return remoteAddress; // node:net accepts only canonical dotted quads
  if (family !== 6) return UNKNOWN_IDENTITY;

  const zone = remoteAddress.indexOf('%');
  const groups = ipv6Groups(zone === -1 ? remoteAddress : remoteAddress.slice(0, zone));
  if (groups === null) return UNKNOWN_IDENTITY;

  if (isIpv4Mapped(groups)) {
    const high = groups[6] ?? 0;
    const low = groups[7] ?? 0;
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** `::ffff:0:0/96`: the first 80 bits zero, the next 16 bits all ones. */
function isIpv4Mapped(groups: readonly number[]): boolean {
  for (let i = 0; i < 5; i++) if (groups[i] !== 0) return false;
  return groups[5] === 0xffff;
}

/**
 * The eight 16-bit groups of an IPv6 address already validated by `isIP` (zone id removed):
 * expands `::` and a trailing embedded IPv4 address. Returns null if the text does not parse
 * into exactly eight groups (defensive; `isIP` has already rejected such text).
 */
function ipv6Groups(address: string): number[] | null {
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (head === null || tail === null) return null;
  if (halves.length === 2) {
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return null;
    return [...head, ...new Array<number>(missing).fill(0), ...tail];
  }
  return head.length === 8 ? head : null;
}

/** Colon-separated hex groups; the last part may be a dotted IPv4 address (two groups). */
function parseGroups(text: string): number[] | null {
  if (text === '') return [];
  const parts = text.split(':');
  const groups: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    if (i === parts.length - 1 && part.includes('.')) {
      const octets = part.split('.').map(Number);
      if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255)) {
        return null;
      }
      const [a = 0, b = 0, c = 0, d = 0] = octets;
      groups.push((a << 8) | b, (c << 8) | d);
    } else {
      if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return null;
      groups.push(Number.parseInt(part, 16));
    }
  }
  return groups;
}
