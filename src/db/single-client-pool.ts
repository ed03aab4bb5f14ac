/**
 * The PGlite connection as a pool. PGlite has exactly one connection, and its node-postgres
 * shim shares one connection object between clients: when `pg.Pool` discards a client after a
 * failed query, the shim's delayed `end` reaches the NEXT client, which then fails ("Connection
 * terminated unexpectedly") or, worse, reads an empty result. So the embedded engine gets one
 * long-lived `pg.Client`, handed out to one user at a time (a FIFO mutex), never discarded.
 * It offers the subset of `pg.Pool` the service uses: query, connect/release, end, on.
 */
import pg from 'pg';

type Release = (err?: Error | boolean) => void;

export class SingleClientPool {
  private readonly client: pg.Client;
  private connected: Promise<void> | null = null;
  private tail: Promise<void> = Promise.resolve();
  private ended = false;
  private held = false;
  private waiting = 0;

  constructor(config: pg.ClientConfig) {
    this.client = new pg.Client(config);
    this.client.on('error', () => {});
  }

  private ensureConnected(): Promise<void> {
    this.connected ??= this.client.connect().then(() => undefined);
    return this.connected;
  }

  /** Exclusive use of the one client until `release()`. */
  async connect(): Promise<pg.PoolClient> {
    if (this.ended) throw new Error('Cannot use a pool after calling end on the pool');
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => mine);
    this.waiting++;
    await previous;
    this.waiting--;
    try {
      await this.ensureConnected();
    } catch (err) {
      release();
      throw err;
    }
    this.held = true;
    let released = false;
    const lease = {
      query: this.client.query.bind(this.client),
      release: (() => {
        if (!released) {
          released = true;
          this.held = false;
          release();
        }
      }) as Release,
    };
    return lease as unknown as pg.PoolClient;
  }

  query(...args: Parameters<pg.Client['query']>): Promise<pg.QueryResult> {
    return this.connect().then(async (client) => {
      try {
        return await (client.query as (...a: unknown[]) => Promise<pg.QueryResult>)(...args);
      } finally {
        client.release();
      }
    });
  }

  /** pg.Pool's counters, for the pool metrics: one connection, in use or idle. */
  get totalCount(): number {
    return this.connected && !this.ended ? 1 : 0;
  }

  get idleCount(): number {
    return this.totalCount === 1 && !this.held ? 1 : 0;
  }

  get waitingCount(): number {
    return this.waiting;
  }

  /** 'error' listeners hear the client's errors (the pool's own are those of its one client). */
  on(event: string, listener: (...args: unknown[]) => void): this {
    if (event === 'error') this.client.on('error', listener);
    return this;
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.tail;
    if (this.connected) await this.client.end().catch(() => {});
  }
}
