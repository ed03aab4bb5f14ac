/**
 * PROXY protocol (HAProxy's, v1 text and v2 binary) on the public listener, opt-in per trusted
 * source (LINEUP_PROXY_PROTOCOL). A connection whose socket peer is trusted must begin with a
 * header; the address it carries then becomes the socket's `remoteAddress`, so every rule of
 * spec Limits (one bucket per peer, IPv6 by /64, IPv4-mapped sharing the IPv4 bucket) applies
 * to the real client unchanged. A trusted connection without a valid header is closed before
 * any HTTP is read; connections from other sources are handed to HTTP untouched.
 * Forwarded-address headers stay ignored in every mode.
 *
 * The header fields are decoded by `proxy-protocol-js`; the framing (how many bytes belong to
 * the header, a header split across TCP segments, HTTP bytes arriving in the same segment) and
 * the connection handling are ours: the library parses a complete header but neither frames a
 * stream (v2's length field and TLVs) nor validates v1 addresses.
 * A LOCAL command (v2) or UNKNOWN protocol (v1), used by a proxy's own health checks, and an
 * unspecified or Unix address family keep the real socket peer.
 */
import type http from 'node:http';
import type net from 'node:net';
import ipaddr from 'ipaddr.js';
import {
  Command,
  INETProtocol,
  IPv4ProxyAddress,
  IPv6ProxyAddress,
  V1ProxyProtocol,
  V2ProxyProtocol,
} from 'proxy-protocol-js';
import type { ProxyRejection } from '../metrics/metrics.js';

const V1_PREFIX = Buffer.from('PROXY ', 'latin1');
/** A v1 line is at most 107 bytes, CRLF included (the protocol's own bound). */
const V1_MAX = 107;
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
/** v2 address block plus TLVs; the format allows 64 KiB, we accept what fits the 16 KiB header budget. */
const V2_MAX_LENGTH = 16 * 1024;

/** The real client a header names, or null to keep the socket peer (LOCAL, UNKNOWN, UNSPEC, Unix). */
export type ProxyHeader = { readonly address: string; readonly family: 'IPv4' | 'IPv6'; readonly port: number } | null;

export type Framing =
  /** More bytes are needed to know. */
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'header'; readonly header: ProxyHeader; readonly length: number }
  | { readonly kind: 'rejected'; readonly reason: Exclude<ProxyRejection, 'header_timeout'> };

const INCOMPLETE: Framing = { kind: 'incomplete' };

/** Pure: where the PROXY header at the start of `buf` ends and what it says. */
export function frameProxyHeader(buf: Buffer): Framing {
  if (buf.length === 0) return INCOMPLETE;
  if (buf[0] === V1_PREFIX[0]) {
    const n = Math.min(buf.length, V1_PREFIX.length);
    if (!buf.subarray(0, n).equals(V1_PREFIX.subarray(0, n))) return { kind: 'rejected', reason: 'missing_header' };
    const end = buf.subarray(0, V1_MAX).indexOf('\r\n');
    if (end === -1) return buf.length >= V1_MAX ? { kind: 'rejected', reason: 'malformed_header' } : INCOMPLETE;
    const header = v1Header(buf.subarray(0, end + 2).toString('latin1'));
    return header === undefined ? { kind: 'rejected', reason: 'malformed_header' } : { kind: 'header', header, length: end + 2 };
  }
  if (buf[0] === V2_SIGNATURE[0]) {
    const n = Math.min(buf.length, V2_SIGNATURE.length);
    if (!buf.subarray(0, n).equals(V2_SIGNATURE.subarray(0, n))) return { kind: 'rejected', reason: 'missing_header' };
    if (buf.length < 16) return INCOMPLETE;
    const length = buf.readUInt16BE(14);
    if (length > V2_MAX_LENGTH) return { kind: 'rejected', reason: 'malformed_header' };
    if (buf.length < 16 + length) return INCOMPLETE;
    const header = v2Header(buf.subarray(0, 16 + length));
    return header === undefined ? { kind: 'rejected', reason: 'malformed_header' } : { kind: 'header', header, length: 16 + length };
  }
  return { kind: 'rejected', reason: 'missing_header' };
}

const PORT = /^(0|[1-9]\d{0,4})$/;

/** undefined = malformed. */
function v1Header(line: string): ProxyHeader | undefined {
  if (line.startsWith('PROXY UNKNOWN')) return null; // the rest of the line is to be ignored
  let parsed: V1ProxyProtocol;
  try {
    parsed = V1ProxyProtocol.parse(line);
  } catch {
    return undefined;
  }
  const { source, destination, inetProtocol } = parsed;
  const ports = [String(source.port), String(destination.port)];
  const rawPorts = line.trimEnd().split(' ').slice(4);
  if (rawPorts.some((p) => !PORT.test(p)) || ports.some((p) => Number(p) > 65535)) return undefined;
  if (inetProtocol === INETProtocol.TCP4) {
    if (![source.ipAddress, destination.ipAddress].every((a) => ipaddr.IPv4.isValidFourPartDecimal(a))) return undefined;
    return { address: ipaddr.IPv4.parse(source.ipAddress).toString(), family: 'IPv4', port: source.port };
  }
  if (inetProtocol === INETProtocol.TCP6) {
    if (![source.ipAddress, destination.ipAddress].every((a) => ipaddr.IPv6.isValid(a) && !a.includes('%'))) return undefined;
    return { address: ipv6Text(ipaddr.IPv6.parse(source.ipAddress)), family: 'IPv6', port: source.port };
  }
  return undefined;
}

/** Compact text, IPv4-mapped addresses the way Node writes a socket peer (`::ffff:a.b.c.d`). */
function ipv6Text(address: ipaddr.IPv6): string {
  return address.isIPv4MappedAddress() ? `::ffff:${address.toIPv4Address().toString()}` : address.toString();
}

/** undefined = malformed. TLVs after the address block are ignored. */
function v2Header(block: Buffer): ProxyHeader | undefined {
  let parsed: V2ProxyProtocol;
  try {
    parsed = V2ProxyProtocol.parse(new Uint8Array(block));
  } catch {
    return undefined;
  }
  if (parsed.command === Command.LOCAL) return null;
  const address = parsed.proxyAddress;
  if (address instanceof IPv4ProxyAddress) {
    return { address: ipaddr.fromByteArray([...address.sourceAddress.address]).toString(), family: 'IPv4', port: address.sourcePort };
  }
  if (address instanceof IPv6ProxyAddress) {
    return { address: ipv6Text(new ipaddr.IPv6([...address.sourceAddress.address])), family: 'IPv6', port: address.sourcePort };
  }
  return null; // AF_UNSPEC or AF_UNIX: no IP client to name
}

export interface ProxyProtocolOptions {
  /** Is this socket peer a trusted proxy (whose connections must carry a header)? */
  readonly trusted: (peer: string | undefined) => boolean;
  /** A trusted connection that has not sent its whole header by then is closed. */
  readonly headerTimeoutMs: number;
  readonly onReject?: (reason: ProxyRejection, peer: string | undefined) => void;
}

type ConnectionListener = (this: http.Server, socket: net.Socket) => void;

/**
 * Puts the PROXY protocol in front of `server`'s HTTP connection handling: Node's own
 * 'connection' listeners run only once a trusted connection's header has been read (the bytes
 * after it are given back to the stream first), and at once for other connections.
 */
export function acceptProxyProtocol(server: http.Server, options: ProxyProtocolOptions): void {
  const http = server.listeners('connection') as ConnectionListener[];
  server.removeAllListeners('connection');
  const handOver = (socket: net.Socket) => {
    for (const listener of http) listener.call(server, socket);
  };
  // Connections still waiting for their header are not HTTP's yet: closing idle or all
  // connections (shutdown) closes them too, rather than waiting for their header deadline.
  const pending = new Set<net.Socket>();
  const closeAll = server.closeAllConnections.bind(server);
  const closeIdle = server.closeIdleConnections.bind(server);
  const closePending = () => {
    for (const socket of pending) socket.destroy();
  };
  server.closeAllConnections = () => {
    closePending();
    closeAll();
  };
  server.closeIdleConnections = () => {
    closePending();
    closeIdle();
  };

  server.on('connection', (socket: net.Socket) => {
    const peer = socket.remoteAddress;
    if (!options.trusted(peer)) return handOver(socket);
    pending.add(socket);
    let buffered: Buffer = Buffer.alloc(0);
    const finish = () => {
      clearTimeout(timer);
      pending.delete(socket);
      socket.removeListener('data', onData);
      socket.removeListener('error', onError);
      socket.removeListener('close', onClose);
    };
    const reject = (reason: ProxyRejection) => {
      finish();
      options.onReject?.(reason, peer);
      socket.destroy();
    };
    const onError = () => {
      finish();
      socket.destroy();
    };
    const onClose = () => finish();
    const onData = (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      const framing = frameProxyHeader(buffered);
      if (framing.kind === 'incomplete') return;
      if (framing.kind === 'rejected') return reject(framing.reason);
      finish();
      socket.pause();
      const { header } = framing;
      if (header !== null) {
        // The carried client is this connection's peer for everything downstream (limits, logs).
        Object.defineProperty(socket, 'remoteAddress', { value: header.address, configurable: true });
        Object.defineProperty(socket, 'remoteFamily', { value: header.family, configurable: true });
        Object.defineProperty(socket, 'remotePort', { value: header.port, configurable: true });
      }
      const rest = buffered.subarray(framing.length);
      if (rest.length > 0) socket.unshift(rest);
      handOver(socket);
      socket.resume();
    };
    const timer = setTimeout(() => reject('header_timeout'), options.headerTimeoutMs);
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('close', onClose);
  });
}
