/**
 * Deterministic pseudo-random numbers for the demo catalogue: every entity draws from its own
 * generator seeded by (seed, kind, index), so entity i can be produced without producing the
 * others (lazy generation, any order) and the document is identical for identical inputs.
 */

/** cyrb128: a fast 128-bit string hash, used to seed sfc32. */
function cyrb128(str: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(key: string) {
    [this.a, this.b, this.c, this.d] = cyrb128(key);
    for (let i = 0; i < 8; i++) this.next();
  }

  /** sfc32: uniform in [0, 1). */
  next(): number {
    this.a |= 0;
    this.b |= 0;
    this.c |= 0;
    this.d |= 0;
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Index in [0, n) skewed towards 0 (popular artists and venues appear more often). */
  skewed(n: number, power = 2): number {
    return Math.min(n - 1, Math.floor(n * this.next() ** power));
  }

  /** Picks by weight: `[[value, weight], …]`. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, w] of choices) total += w;
    let r = this.next() * total;
    for (const [value, w] of choices) {
      r -= w;
      if (r < 0) return value;
    }
    return choices[choices.length - 1]![0];
  }

  hex(length: number): string {
    let s = '';
    while (s.length < length) s += Math.floor(this.next() * 4294967296).toString(16).padStart(8, '0');
    return s.slice(0, length);
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(n: number, width: number): string {
  let s = '';
  for (let i = 0; i < width; i++) {
    s = BASE62[n % 62]! + s;
    n = Math.floor(n / 62);
  }
  return s;
}

/**
 * A publicId for entity `index` of `kind`: 6 characters hashed from (seed, kind), then the
 * index in base 62 (6 characters, so unique up to 56 billion per kind).
 */
export function demoPublicId(prefix: string, index: number): string {
  return prefix + base62(index, 6);
}

export function idPrefix(seed: string, kind: string): string {
  const [h1, h2] = cyrb128(`${seed}/${kind}`);
  return base62(h1 % 238_328, 3) + base62(h2 % 238_328, 3); // 62^3 = 238,328
}
