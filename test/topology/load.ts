/**
 * Concurrent reads for a while against Lineup processes, as clients do: first pages, cursor
 * pages, details and conditional re-reads, counting every status (a 5xx is recorded with its body).
 */
import type { Fetcher } from './traverse.js';

export interface LoadResult {
  readonly requests: number;
  readonly statuses: Record<number, number>;
  /** Status, path, body and Retry-After of every 5xx (or network failure, status 0). */
  readonly failures: Array<{ status: number; path: string; body: string; retryAfter: string | null }>;
}

export interface LoadOptions {
  readonly targets: readonly Fetcher[];
  /** Paths to read (with query strings); each may carry a known ETag to send as If-None-Match. */
  readonly paths: ReadonlyArray<{ path: string; etag?: string | null }>;
  /** Concurrent clients per target (at most its LINEUP_DB_READS, which admits without queueing). */
  readonly concurrency: number;
  /** Stops when this resolves. */
  readonly until: Promise<unknown>;
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const statuses: Record<number, number> = {};
  const failures: LoadResult['failures'] = [];
  let requests = 0;
  let done = false;
  void opts.until.then(() => (done = true));
  let turn = 0;
  const worker = async (target: Fetcher) => {
    while (!done) {
      const entry = opts.paths[turn++ % opts.paths.length]!;
      const init = entry.etag && turn % 2 === 0 ? { headers: { 'if-none-match': entry.etag } } : undefined;
      let status = 0;
      let body = '';
      let retryAfter: string | null = null;
      try {
        const res = await target(entry.path, init);
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        body = await res.text();
      } catch (err) {
        body = (err as Error).message;
      }
      requests++;
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 0 || status >= 500) failures.push({ status, path: entry.path, body: body.slice(0, 300), retryAfter });
      if (status === 0 || status === 503) await new Promise((r) => setTimeout(r, 20)); // no hot loop while unavailable
    }
  };
  await Promise.all(opts.targets.flatMap((t) => Array.from({ length: opts.concurrency }, () => worker(t))));
  return { requests, statuses, failures };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
