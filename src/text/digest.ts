/**
 * Digests in one call where Node has it (`crypto.hash`, 20.12+), with a Hash object otherwise.
 * A list page takes three SHA-256 digests (its controls' fingerprint, its next cursor's
 * checksum, its ETag); with a Hash object each, they were ≈ 3% of an Event's Artists route's
 * Node CPU. The importer hashes every entity it reads (MD5), and prepared statements are named
 * by their text's SHA-1. Strings are hashed as UTF-8.
 */
import crypto from 'node:crypto';

export type DigestAlgorithm = 'md5' | 'sha1' | 'sha256';

const oneShot = typeof crypto.hash === 'function';

/** The digest as text. */
export function digest(algorithm: DigestAlgorithm, data: string | Buffer, encoding: 'hex' | 'base64url'): string {
  return oneShot ? crypto.hash(algorithm, data, encoding) : crypto.createHash(algorithm).update(data).digest(encoding);
}

/** The digest's bytes. */
export function digestBytes(algorithm: DigestAlgorithm, data: string | Buffer): Buffer {
  return oneShot ? (crypto.hash(algorithm, data, 'buffer') as unknown as Buffer) : crypto.createHash(algorithm).update(data).digest();
}
