/**
 * The service's Prometheus metrics (prom-client), one registry per app so that several apps in
 * one process (tests) never share counters. Names and units follow Prometheus conventions
 * (`lineup_` prefix, `_total` counters, `_seconds` durations); every label has a bounded set of
 * values: route templates (never a raw URL), a fixed list of methods, statuses, refusal reasons,
 * statement kinds (the query layer's static statement names). The process's own metrics
 * (`process_*`, `nodejs_*`, event-loop lag included) are prom-client's defaults, under their
 * conventional names so that stock dashboards read them. docs/operations.md lists every metric.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { StatementOutcome } from '../db/reader.js';
import { PIPELINE_DECLINES, type PipelinedConnections } from '../db/pipeline.js';

/** Why a request was refused (the `reason` label, and the `reason` of the refusal's log line). */
export type RefusalReason =
  | 'rate_limited'
  | 'identity_store_full'
  | 'route_executions_full'
  | 'database_reads_full'
  | 'database_unavailable'
  | 'stopping'
  | 'parser_malformed'
  | 'parser_headers_too_large'
  | 'parser_uri_too_long'
  | 'parser_timeout';

export const REFUSAL_REASONS: readonly RefusalReason[] = [
  'rate_limited',
  'identity_store_full',
  'route_executions_full',
  'database_reads_full',
  'database_unavailable',
  'stopping',
  'parser_malformed',
  'parser_headers_too_large',
  'parser_uri_too_long',
  'parser_timeout',
];


/** Why a connection from a trusted proxy was closed before HTTP (PROXY protocol). */
export type ProxyRejection = 'missing_header' | 'malformed_header' | 'header_timeout';

const METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE', 'CONNECT', 'TRACE']);

/** Methods outside the standard ones are one label value, so a client cannot create series. */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'other';
}

/** Request durations: the API answers in milliseconds; the statement timeout is seconds. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What the gauges read when scraped (set by the app once its parts exist). */
export interface MetricSources {
  readonly pool?: { readonly totalCount?: number; readonly idleCount?: number; readonly waitingCount?: number };
  readonly readSlotsInUse?: () => number;
  readonly readSlots?: number;
  readonly routeExecutionsInUse?: () => number;
  readonly limiterIdentities?: () => number;
  /** Keep-alive connections the listener stops reading until their turn (http/turn-budget.ts). */
  readonly connectionsWaitingTurn?: () => number;
  /** LINEUP_DB_PIPELINE's connections, when there are any. */
  readonly pipeline?: Pick<PipelinedConnections, 'counts' | 'ready' | 'size' | 'inFlight'>;
}

export interface MetricsOptions {
  /** prom-client's default process metrics (CPU, memory, handles, GC, event-loop lag). */
  readonly processMetrics?: boolean;
}

export class Metrics {
  readonly registry = new Registry();
  private sources: MetricSources = {};

  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly requestDuration: Histogram<'route' | 'method'>;
  readonly refusals: Counter<'reason'>;
  readonly statements: Counter<'kind' | 'outcome'>;
  readonly statementDuration: Histogram<'kind'>;
  readonly statementTimeouts: Counter<'kind'>;
  readonly poolErrors: Counter;
  readonly proxyRejections: Counter<'reason'>;

  constructor(options: MetricsOptions = {}) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'lineup_http_requests_total',
      help: 'HTTP requests answered by the public listener, by route template, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.requestDuration = new Histogram({
      name: 'lineup_http_request_duration_seconds',
      help: 'Time from receiving a request to handing its response to the socket, by route template and method',
      labelNames: ['route', 'method'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.refusals = new Counter({
      name: 'lineup_http_refusals_total',
      help: 'Requests refused by admission, the database or the HTTP parser, by reason',
      labelNames: ['reason'],
      registers,
    });
    for (const reason of REFUSAL_REASONS) this.refusals.inc({ reason }, 0);
    this.statements = new Counter({
      name: 'lineup_db_statements_total',
      help: 'SQL statements run for reads, by kind (statement name) and outcome (ok, timeout, unavailable, error)',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.statementDuration = new Histogram({
      name: 'lineup_db_statement_duration_seconds',
      help: 'SQL statement durations for reads, by kind',
      labelNames: ['kind'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.statementTimeouts = new Counter({
      name: 'lineup_db_statement_timeouts_total',
      help: 'SQL statements that passed the statement timeout (server-side or the client-side deadline), by kind',
      labelNames: ['kind'],
      registers,
    });
    this.poolErrors = new Counter({
      name: 'lineup_db_pool_errors_total',
      help: 'Errors raised by idle database connections (e.g. the server closed them)',
      registers,
    });
    this.proxyRejections = new Counter({
      name: 'lineup_proxy_protocol_rejected_connections_total',
      help: 'Connections from trusted proxies closed because they did not begin with a valid PROXY protocol header, by reason',
      labelNames: ['reason'],
      registers,
    });
    const sources = () => this.sources;
    new Gauge({
      name: 'lineup_db_pool_connections',
      help: 'Database connections held by the pool, by state (in_use, idle)',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = sources().pool;
        const total = pool?.totalCount ?? 0;
        const idle = pool?.idleCount ?? 0;
        this.set({ state: 'in_use' }, Math.max(0, total - idle));
        this.set({ state: 'idle' }, idle);
      },
    });
    new Gauge({
      name: 'lineup_db_pool_waiting_requests',
      help: 'Statements waiting for a database connection from the pool',
      registers,
      collect() {
        this.set(sources().pool?.waitingCount ?? 0);
      },
    });
    new Gauge({
      name: 'lineup_db_read_slots_in_use',
      help: 'Admitted database reads running now (LINEUP_DB_READS is the capacity)',
      registers,
      collect() {
        this.set(sources().readSlotsInUse?.() ?? 0);
      },
    });
    new Gauge({
      name: 'lineup_db_read_slots',
      help: 'Admitted database reads allowed at once (LINEUP_DB_READS)',
      registers,
      collect() {
        this.set(sources().readSlots ?? 0);
      },
    });
    new Gauge({
      name: 'lineup_http_route_executions_in_use',
      help: 'Route executions running now (LINEUP_MAX_ACTIVE_REQUESTS is the capacity)',
      registers,
      collect() {
        this.set(sources().routeExecutionsInUse?.() ?? 0);
      },
    });
    new Gauge({
      name: 'lineup_http_connections_waiting_turn',
      help: 'Keep-alive connections not read until a later turn of the event loop, because a turn reads at most 32 requests (non-zero only under overload)',
      registers,
      collect() {
        this.set(sources().connectionsWaitingTurn?.() ?? 0);
      },
    });
    new Gauge({
      name: 'lineup_rate_limiter_identities',
      help: 'Client identities held by the rate limiter (LINEUP_RATE_MAX_IDENTITIES is the capacity)',
      registers,
      collect() {
        this.set(sources().limiterIdentities?.() ?? 0);
      },
    });
    // LINEUP_DB_PIPELINE (src/db/pipeline.ts): read from its own counts when scraped, nothing on the hot path
    new Counter({
      name: 'lineup_db_pipelined_statements_total',
      help: 'Statements sent on pipelined connections (LINEUP_DB_PIPELINE)',
      registers,
      collect() {
        this.reset();
        this.inc(sources().pipeline?.counts.sent ?? 0);
      },
    });
    new Counter({
      name: 'lineup_db_pipeline_declined_total',
      help: 'Named statements the pipelined connections did not take (run on the pool instead), by reason (full, stalled, not_connected)',
      labelNames: ['reason'],
      registers,
      collect() {
        this.reset();
        for (const reason of PIPELINE_DECLINES) this.inc({ reason }, sources().pipeline?.counts.declined[reason] ?? 0);
      },
    });
    new Gauge({
      name: 'lineup_db_pipeline_connections',
      help: 'Pipelined connections (LINEUP_DB_PIPELINE), by state (ready, not_ready)',
      labelNames: ['state'],
      registers,
      collect() {
        const p = sources().pipeline;
        this.set({ state: 'ready' }, p?.ready ?? 0);
        this.set({ state: 'not_ready' }, p ? p.size - p.ready : 0);
      },
    });
    new Gauge({
      name: 'lineup_db_pipeline_in_flight',
      help: 'Statements sent on pipelined connections and not yet answered',
      registers,
      collect() {
        this.set((sources().pipeline?.inFlight ?? []).reduce((a, b) => a + b, 0));
      },
    });
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Tell the gauges where to read (called by the app once its limiter, gates and pool exist). */
  watch(sources: MetricSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  refused(reason: RefusalReason): void {
    this.refusals.inc({ reason });
  }

  statement(kind: string, seconds: number, outcome: StatementOutcome): void {
    this.statements.inc({ kind, outcome });
    this.statementDuration.observe({ kind }, seconds);
    if (outcome === 'timeout') this.statementTimeouts.inc({ kind });
  }

  request(route: string, method: string, status: number, seconds: number): void {
    const m = methodLabel(method);
    this.requests.inc({ route, method: m, status: String(status) });
    this.requestDuration.observe({ route, method: m }, seconds);
  }

  /** The exposition: Prometheus text format 0.0.4. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
