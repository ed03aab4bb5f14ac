/**
 * Watches the readiness endpoints of Lineup processes while a fault runs: /v1/ready (the public
 * contract: 200, or 503 `unavailable` with Retry-After) and the operator listener's /ready (200 or
 * 503), each polled in a loop of its own, so that a fault is seen as soon as a probe meets it.
 */
import type { LineupProcess } from '../topology/cluster.js';
import { sleep } from '../topology/load.js';

export interface ReadinessSeen {
  /** Statuses per endpoint ("<process> /v1/ready", "<process> /ready"). */
  readonly statuses: Record<string, Record<number, number>>;
  /** Answers outside the contract: another status, or a public 503 without Retry-After or envelope. */
  readonly problems: string[];
}

export interface Readiness {
  /** Whether every endpoint has said 503 at least once. */
  allSaidUnavailable(): boolean;
  /** Resolves once every endpoint has said 503; rejects after `timeoutMs`, or when `check` throws. */
  untilAllSaidUnavailable(timeoutMs: number, check?: () => void): Promise<void>;
  seen(): ReadinessSeen;
  /** What was seen, once the watch has stopped. */
  readonly done: Promise<ReadinessSeen>;
}

export function watchReadiness(processes: readonly LineupProcess[], until: Promise<unknown>): Readiness {
  const statuses: Record<string, Record<number, number>> = {};
  const problems: string[] = [];
  let stopped = false;
  void until.then(() => (stopped = true));
  const watch = async (name: string, url: string, isPublic: boolean) => {
    const seen: Record<number, number> = (statuses[name] = {});
    while (!stopped) {
      const { status, retryAfter, body } = await fetch(url).then(
        async (res) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() }),
        (err: Error) => ({ status: 0, retryAfter: null, body: err.message }),
      );
      seen[status] = (seen[status] ?? 0) + 1;
      if (status !== 200 && status !== 503) problems.push(`${name}: ${status} ${body.slice(0, 200)}`);
      if (status === 503 && isPublic && !(retryAfter && /"type":"unavailable"/.test(body))) problems.push(`${name}: 503 without Retry-After or envelope: ${body.slice(0, 200)}`);
      // no hot loop while it says 503; while it says 200, a probe is in flight most of the time
      if (status !== 200) await sleep(20);
    }
  };
  const watches = processes.flatMap((p) => [watch(`${p.name} /v1/ready`, `${p.url}/v1/ready`, true), watch(`${p.name} /ready`, `${p.adminUrl}/ready`, false)]);
  const allSaidUnavailable = () => Object.values(statuses).every((s) => (s[503] ?? 0) > 0);
  const seen = () => ({ statuses, problems });
  return {
    allSaidUnavailable,
    async untilAllSaidUnavailable(timeoutMs, check) {
      const deadline = performance.now() + timeoutMs;
      while (!allSaidUnavailable()) {
        check?.();
        if (performance.now() > deadline) throw new Error(`readiness never said 503 on every endpoint within ${timeoutMs} ms: ${JSON.stringify(statuses)}`);
        await sleep(20);
      }
    },
    seen,
    done: Promise.all(watches).then(seen),
  };
}
