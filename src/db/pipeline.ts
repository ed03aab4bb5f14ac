/**
 * Pipelined connections (LINEUP_DB_PIPELINE, PostgreSQL only): a few connections in
 * node-postgres' pipeline mode that carry the reads' named prepared statements — the statements
 * whose plan cannot depend on their values (index walks with a LIMIT, src/db/prepared.ts).
 * Several statements share one connection without waiting for each other's answers, so under
 * concurrency a few busy backends do the work of many that sleep and wake per statement
 * (docs/architecture.md#pipelined-connections).
 *
 * The price of pipelining is head-of-line blocking: a statement waits for the ones sent before it
 * on its connection. It is bounded here, and a statement this cannot take goes to the pool:
 *   - only named stable-plan statements are offered (the Reader decides), never one marked
 *     `heavy` (a one-term search its planner prices high: queries/search-shape.ts), and never a
 *     statement planned per request;
 *   - at most `depth` statements in flight per connection;
 *   - a connection whose first statement in line has been running for `stallMs` takes nothing
 *     new: it ran since the connection's last answer (or since it was sent, if later). Under load a
 *     connection's line is long but keeps moving, and that is not a stall; a slow statement stops it;
 *   - a connection that is connecting, or failed less than `retryMs` ago, takes nothing.
 *
 * Written here rather than found in a library: pg 8.23 has the pipeline mode (`pipeline: true`)
 * but no pool of pipelined clients, and this routing (fall back to the pool, never queue) is
 * Lineup's admission rule (spec Limits: no queue).
 *
 * Never behind a transaction pooler (PgBouncer): it may hand one client's pipelined statements to
 * different servers. Named statements are turned off there (LINEUP_PREPARED_STATEMENTS=false, or
 * by the first pooler error), and then nothing is offered here.
 */
import pg from 'pg';
import { queryNamed, type NamedStatement } from './named-query.js';
import { RawTextClient } from './raw-text.js';

export interface PipelineOptions {
  /** Pipelined connections. */
  readonly size: number;
  /** Statements in flight per connection at most. */
  readonly depth?: number;
  /** A connection whose first statement in line has been running this long takes nothing new. */
  readonly stallMs?: number;
  /** After a connection failed, this long before it is opened again. */
  readonly retryMs?: number;
  /** Milliseconds, monotonic (tests pass their own). */
  readonly now?: () => number;
}

export type PipelinedQuery = NamedStatement;

/** One pipelined connection, from its opening to its failure or end. */
interface Connection {
  readonly client: pg.Client;
  /** Connected and not failed since. */
  ready: boolean;
  /** Settles when the connection attempt has (either way). */
  opened: Promise<void>;
  /** When each statement in flight was sent, oldest first (answers come back in order). */
  readonly sent: number[];
  /** When the last answer came back: the statement now first in line has been running since then (or since it was sent). */
  answeredAt: number;
  /** Statements written since this turn of the event loop began are held back until it ends. */
  corked: boolean;
}

/** Why a statement was not taken (it ran on the pool): the metrics' `reason` label. */
export type PipelineDecline = 'full' | 'stalled' | 'not_connected';
export const PIPELINE_DECLINES: readonly PipelineDecline[] = ['full', 'stalled', 'not_connected'];

/** What the connections did since they were created (read by the metrics when scraped). */
export interface PipelineCounts {
  /** Statements sent on a pipelined connection. */
  sent: number;
  /** Statements not taken, by why. */
  readonly declined: Record<PipelineDecline, number>;
}

interface Slot {
  connection: Connection | null;
  /** When this slot's last connection failed (to connect, or later). */
  failedAt: number;
}

export class PipelinedConnections {
  private readonly slots: Slot[];
  private readonly depth: number;
  private readonly stallMs: number;
  private readonly retryMs: number;
  private readonly now: () => number;
  private closed = false;
  readonly counts: PipelineCounts = { sent: 0, declined: { full: 0, stalled: 0, not_connected: 0 } };

  constructor(
    private readonly config: pg.ClientConfig,
    options: PipelineOptions,
  ) {
    this.depth = options.depth ?? 8;
    this.stallMs = options.stallMs ?? 20;
    this.retryMs = options.retryMs ?? 1000;
    this.now = options.now ?? (() => performance.now());
    this.slots = Array.from({ length: options.size }, () => ({ connection: null, failedAt: -Infinity }));
  }

  /**
   * Sends the statement on the least busy connection that can take it now, or returns null (the
   * caller runs it on the pool). Opens connections on first use and again after a failure.
   */
  tryQuery<R extends pg.QueryResultRow>(query: PipelinedQuery): Promise<pg.QueryResult<R>> | null {
    if (this.closed) return null;
    const now = this.now();
    let best: Connection | null = null;
    let decline: PipelineDecline = 'not_connected';
    for (const slot of this.slots) {
      const c = slot.connection;
      if (c === null) {
        if (now - slot.failedAt >= this.retryMs) this.open(slot);
        continue;
      }
      if (!c.ready) continue;
      if (c.sent.length > 0 && now - Math.max(c.sent[0]!, c.answeredAt) >= this.stallMs) {
        decline = 'stalled';
        continue;
      }
      if (c.sent.length >= this.depth) {
        if (decline === 'not_connected') decline = 'full';
        continue;
      }
      if (best === null || c.sent.length < best.sent.length) best = c;
    }
    if (best === null) {
      this.counts.declined[decline]++;
      return null;
    }
    const c = best;
    this.counts.sent++;
    c.sent.push(now);
    const answered = (): void => {
      c.sent.shift();
      c.answeredAt = this.now();
    };
    if (!c.corked) this.corkUntilLoopTurnEnds(c);
    const result = queryNamed<R>(c.client, query);
    result.then(answered, answered);
    return result;
  }

  /**
   * Holds the connection's writes back until the event loop's check phase: the statements that
   * requests read in this poll phase chose go to PostgreSQL in one write, which wakes its backend
   * once. pg corks and uncorks around each statement itself, and the cork here outlasts those.
   */
  private corkUntilLoopTurnEnds(c: Connection): void {
    const stream = c.client.connection.stream;
    c.corked = true;
    stream.cork();
    setImmediate(() => {
      c.corked = false;
      stream.uncork();
    });
  }

  /** Statements in flight on each open connection. */
  get inFlight(): number[] {
    return this.slots.map((s) => s.connection?.sent.length ?? 0);
  }

  /** Connections ready to take statements now. */
  get ready(): number {
    return this.slots.filter((s) => s.connection?.ready === true).length;
  }

  get size(): number {
    return this.slots.length;
  }

  /** Ends every connection; statements already sent are answered first (pg's pipeline mode). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.slots.map(async (slot) => {
        const c = slot.connection;
        if (c === null) return;
        await c.opened; // ending a client while it connects may never settle
        await c.client.end().catch(() => {});
      }),
    );
  }

  private open(slot: Slot): void {
    const client = new RawTextClient({ ...this.config, pipeline: true });
    const connection: Connection = { client, ready: false, sent: [], opened: Promise.resolve(), answeredAt: -Infinity, corked: false };
    slot.connection = connection;
    const fail = (): void => {
      // pg rejects the statements still in flight itself (connection terminated)
      if (slot.connection !== connection) return;
      slot.connection = null;
      slot.failedAt = this.now();
      client.end().catch(() => {});
    };
    // unheard, a connection error would end the process
    client.on('error', fail);
    client.on('end', fail);
    connection.opened = client.connect().then(() => {
      if (!this.closed) connection.ready = true;
    }, fail);
  }
}
