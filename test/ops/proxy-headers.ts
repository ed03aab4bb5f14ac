/** PROXY protocol v2 headers built by hand, byte for byte from HAProxy's proxy-protocol.txt (not with the parsing library). */

export const SIG = Buffer.from('0d0a0d0a000d0a515549540a', 'hex');

/** A v2 header: version 2, `command` (0 LOCAL, 1 PROXY), family/transport byte, address block, TLVs. */
export function v2(command: number, famProto: number, address: Buffer, tlvs = Buffer.alloc(0)): Buffer {
  const len = Buffer.alloc(2);
  len.writeUInt16BE(address.length + tlvs.length);
  return Buffer.concat([SIG, Buffer.from([0x20 | command, famProto]), len, address, tlvs]);
}

export function v2Inet4(src: number[], dst: number[], sport: number, dport: number): Buffer {
  const ports = Buffer.alloc(4);
  ports.writeUInt16BE(sport, 0);
  ports.writeUInt16BE(dport, 2);
  return Buffer.concat([Buffer.from(src), Buffer.from(dst), ports]);
}

export function v2Inet6(src: string, dst: string, sport: number, dport: number): Buffer {
  const bytes = (a: string) => {
    const [head = '', tail = ''] = a.split('::');
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = [...h, ...new Array(8 - h.length - t.length).fill('0'), ...t];
    return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
  };
  const ports = Buffer.alloc(4);
  ports.writeUInt16BE(sport, 0);
  ports.writeUInt16BE(dport, 2);
  return Buffer.concat([bytes(src), bytes(dst), ports]);
}
