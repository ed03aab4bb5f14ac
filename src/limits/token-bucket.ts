/**
 * Per-client token buckets (specification, Limits: rate allowance, rate limiter store, rules 1
 * and 2). Every identity starts with a full bucket of `burst` tokens; each allowed request
 * spends one token; tokens are replenished fractionally on arrival (elapsed time × refill rate,
 * capped at `burst`). An exhausted bucket answers `limited` with the whole seconds until one
 * token is available. The store keeps at most `maxIdentities` identities; an identity idle for
 * `idleMs` is forgotten. Expiry is amortized on the request path: besides the lookup Map, the
 * buckets form a linked list in order of last activity (an identity moves to the newest end on
 * every attempt, allowed or rejected), so each call inspects at most `expiryChecksPerRequest` of
 * the oldest entries and stops at the first one still active; there is never a full sweep, and
 * every step is O(1) (a linked list rather than Map re-insertion, whose deleted slots would have
 * to be skipped when iterating from the oldest end). When the store is still full, a new
 * identity is answered `full` (a 503 for the caller) while known identities keep being served.
 * Pure: the clock is injected, no timers, no framework.
 */

export interface RateLimiterOptions {
  /** Bucket capacity and initial content, in tokens (spec default 60). */
  readonly burst: number;
  /** Tokens replenished per second, fractionally (spec default 1). */
  readonly refillPerSec: number;
  /** Largest number of identities held at once (spec default 10,000). */
  readonly maxIdentities: number;
  /** Inactivity after which an identity is forgotten, in ms (spec: 5 min). */
  readonly idleMs?: number;
  /** Most store entries inspected for expiry per `take` (spec: 64). */
  readonly expiryChecksPerRequest?: number;
  /** Monotonic clock in milliseconds; defaults to `performance.now()`. */
  readonly now?: () => number;
}

export type TakeResult =
  /** Allowed; one token was spent. `remaining` is the whole tokens left. */
  | { readonly kind: 'allowed'; readonly remaining: number }
  /** The identity's bucket is exhausted (HTTP 429); nothing was spent. */
  | { readonly kind: 'limited'; readonly retryAfterSeconds: number }
  /** The identity is new and the store is full (HTTP 503); nothing was stored. */
  | { readonly kind: 'full'; readonly retryAfterSeconds: number };

interface Bucket {
  readonly identity: string;
  /** Tokens held at `refilledAt` (before the refill owed since then). */
  tokens: number;
  /** When `tokens` was last computed; only moves when a token is spent. */
  refilledAt: number;
  /** Last attempt, allowed or rejected: the expiry clock. */
  lastSeen: number;
  /** Neighbours in order of last activity: `older` towards `oldest`, `newer` towards `newest`. */
  older: Bucket | null;
  newer: Bucket | null;
}

/** Tolerance for floating-point refill arithmetic (a billionth of a token). */
const EPSILON = 1e-9;

export class RateLimiter {
  private readonly burst: number;
  private readonly refillPerSec: number;
  private readonly maxIdentities: number;
  private readonly idleMs: number;
  private readonly expiryChecks: number;
  private readonly now: () => number;
  private readonly buckets = new Map<string, Bucket>();
  /** Least and most recently active buckets (ends of the activity list). */
  private oldest: Bucket | null = null;
  private newest: Bucket | null = null;

  constructor(options: RateLimiterOptions) {
    const {
      burst,
      refillPerSec,
      maxIdentities,
      idleMs = 300_000,
      expiryChecksPerRequest = 64,
      now = () => performance.now(),
    } = options;
    requireFinite('burst', burst, burst >= 1);
    requireFinite('refillPerSec', refillPerSec, refillPerSec > 0);
    requireFinite(
      'maxIdentities',
      maxIdentities,
      Number.isInteger(maxIdentities) && maxIdentities >= 1,
    );
    requireFinite('idleMs', idleMs, idleMs > 0);
    requireFinite(
      'expiryChecksPerRequest',
      expiryChecksPerRequest,
      Number.isInteger(expiryChecksPerRequest) && expiryChecksPerRequest >= 1,
    );
    this.burst = burst;
    this.refillPerSec = refillPerSec;
    this.maxIdentities = maxIdentities;
    this.idleMs = idleMs;
    this.expiryChecks = expiryChecksPerRequest;
    this.now = now;
  }

  /** Identities currently held (expired ones may linger until an amortized check meets them). */
  get size(): number {
    return this.buckets.size;
  }

  /** One request attempt by `identity`: spend a token, or say why not and for how long. */
  take(identity: string): TakeResult {
    const now = this.now();
    this.expireOldest(now);

    let bucket = this.buckets.get(identity);
    if (bucket !== undefined && this.isIdle(bucket, now)) {
      // Idle past expiry but not yet met by the amortized check: it is forgotten all the same,
      // so the outcome never depends on how far the sweep got.
      this.remove(bucket);
      bucket = undefined;
    }

    if (bucket === undefined) {
      if (this.buckets.size >= this.maxIdentities) {
        return { kind: 'full', retryAfterSeconds: this.secondsUntilOldestExpires(now) };
      }
      bucket = {
        identity,
        tokens: this.burst,
        refilledAt: now,
        lastSeen: now,
        older: null,
        newer: null,
      };
      this.buckets.set(identity, bucket);
    } else {
      this.unlink(bucket);
    }
    bucket.lastSeen = Math.max(bucket.lastSeen, now);
    this.append(bucket); // the newest end: the most recently active

    const available = this.available(bucket, now);
    if (available + EPSILON >= 1) {
      bucket.tokens = Math.max(0, available - 1);
      bucket.refilledAt = Math.max(bucket.refilledAt, now);
      return { kind: 'allowed', remaining: Math.floor(bucket.tokens + EPSILON) };
    }
    // Rejected: activity for expiry only. Tokens and their timestamp stay as they were, so the
    // refill owed since the last spend keeps accruing exactly.
    const retryAfterSeconds = wholeSeconds((1 - available) / this.refillPerSec);
    return { kind: 'limited', retryAfterSeconds };
  }

  /** Tokens held now: stored tokens plus the fractional refill since, capped at the burst. */
  private available(bucket: Bucket, now: number): number {
    const elapsedMs = Math.max(0, now - bucket.refilledAt);
    return Math.min(this.burst, bucket.tokens + (elapsedMs * this.refillPerSec) / 1000);
  }

  private isIdle(bucket: Bucket, now: number): boolean {
    return now - bucket.lastSeen >= this.idleMs;
  }

  /** Amortized expiry: at most `expiryChecks` of the oldest entries, stopping at an active one. */
  private expireOldest(now: number): void {
    for (let checks = 0; checks < this.expiryChecks; checks++) {
      const oldest = this.oldest;
      if (oldest === null || !this.isIdle(oldest, now)) return;
      this.remove(oldest);
    }
  }

  /** Retry-After for a full store: until the least recently active identity would expire. */
  private secondsUntilOldestExpires(now: number): number {
    if (this.oldest === null) return 1;
    return wholeSeconds((this.oldest.lastSeen + this.idleMs - now) / 1000);
  }

  /** Forget a bucket. */
  private remove(bucket: Bucket): void {
    this.unlink(bucket);
    this.buckets.delete(bucket.identity);
  }

  /** Take a bucket out of the activity list (it stays in the Map). */
  private unlink(bucket: Bucket): void {
    if (bucket.older === null) this.oldest = bucket.newer;
    else bucket.older.newer = bucket.newer;
    if (bucket.newer === null) this.newest = bucket.older;
    else bucket.newer.older = bucket.older;
    bucket.older = null;
    bucket.newer = null;
  }

  /** Put an unlinked bucket at the newest end of the activity list. */
  private append(bucket: Bucket): void {
    bucket.older = this.newest;
    bucket.newer = null;
    if (this.newest === null) this.oldest = bucket;
    else this.newest.newer = bucket;
    this.newest = bucket;
  }
}

/** Whole seconds, rounded up, at least 1 (a digits-only Retry-After value). */
function wholeSeconds(seconds: number): number {
  const whole = Math.ceil(seconds - EPSILON);
  return Number.isFinite(whole) && whole >= 1 ? whole : 1;
}

function requireFinite(name: string, value: number, valid: boolean): void {
  if (!Number.isFinite(value) || !valid) {
    throw new RangeError(`RateLimiter: invalid ${name}: ${String(value)}`);
  }
}
