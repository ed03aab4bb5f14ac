/**
 * LINEUP_PROXY_PROTOCOL: a comma- or space-separated list of trusted source addresses or CIDRs
 * (ipaddr.js parses both families). A bare address is its own /32 or /128. IPv4-mapped IPv6
 * forms are read as the IPv4 address they carry, the way a socket peer is matched.
 */
import ipaddr from 'ipaddr.js';
import { ConfigError } from './config.js';

/** Canonical CIDR strings (`10.0.0.0/8`, `2001:db8::/32`); throws ConfigError naming the variable. */
export function trustedSources(raw: string, variable: string): string[] {
  const entries = raw.split(/[\s,]+/).filter((e) => e !== '');
  return entries.map((entry) => {
    try {
      const [address, prefix] = entry.includes('/')
        ? ipaddr.parseCIDR(entry)
        : (() => {
            const a = ipaddr.parse(entry);
            return [a, a.kind() === 'ipv4' ? 32 : 128] as const;
          })();
      if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
        return `${(address as ipaddr.IPv6).toIPv4Address().toString()}/${prefix - 96}`;
      }
      return `${address.toString()}/${prefix}`;
    } catch {
      throw new ConfigError(variable, `"${entry}" is not an IP address or CIDR`);
    }
  });
}

/** A matcher over canonical CIDRs: is this socket peer one of the trusted sources? */
export function trustedMatcher(cidrs: readonly string[]): (peer: string | undefined) => boolean {
  const ranges = cidrs.map((c) => ipaddr.parseCIDR(c));
  if (ranges.length === 0) return () => false;
  return (peer) => {
    if (peer === undefined || !ipaddr.isValid(peer)) return false;
    const address = ipaddr.process(peer.split('%')[0]!); // IPv4-mapped → IPv4
    return ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  };
}
