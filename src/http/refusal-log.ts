/**
 * Refusals are logged as one counted summary per interval, never a line each: under overload
 * they come by thousands a second, and a line each would cost the service the CPU it is short
 * of (and flood the logs). The metrics count every refusal by reason
 * (lineup_http_refusals_total); each refusal's own line, with its request id, is logged at
 * debug level.
 *
 *   refused 5120 requests in the last 10 s: rate_limited 5000, route_executions_full 120
 */
import type { Logger } from 'pino';
import type { RefusalReason } from '../metrics/metrics.js';

export class RefusalLog {
  private counts = new Map<RefusalReason, number>();
  private total = 0;
  private since: number;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: Pick<Logger, 'warn'>,
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.since = now();
  }

  /** Writes a summary every interval in which something was refused (the timer never holds the process). */
  start(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what was refused since the last summary. */
  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }

  add(reason: RefusalReason): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
    this.total++;
  }

  /** One line for the refusals since the last one, if there were any. */
  flush(): void {
    const now = this.now();
    const seconds = Math.max(0, Math.round((now - this.since) / 100) / 10);
    this.since = now;
    if (this.total === 0) return;
    const refused = Object.fromEntries([...this.counts].sort((a, b) => b[1] - a[1]));
    const total = this.total;
    this.counts = new Map();
    this.total = 0;
    const parts = Object.entries(refused).map(([reason, n]) => `${reason} ${n}`);
    this.log.warn({ refused, total, seconds }, `refused ${total} request${total === 1 ? '' : 's'} in the last ${seconds} s: ${parts.join(', ')}`);
  }
}
