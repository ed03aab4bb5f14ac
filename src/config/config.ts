/**
 * Configuration: environment variables, validated once at start (decisions §1).
 * A bad value stops the process with a message naming the variable.
 */

export type DatabaseTarget =
  | { readonly engine: 'postgres'; readonly url: string }
  | { readonly engine: 'pglite'; readonly dataDir: string | null };

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly database: DatabaseTarget;
  readonly seedDemo: boolean;
  readonly rateBurst: number;
  readonly rateRefillPerSec: number;
  readonly rateMaxIdentities: number;
  readonly maxActiveRequests: number;
  readonly dbReads: number;
  readonly statementTimeoutMs: number;
  readonly shutdownGraceMs: number;
  readonly logLevel: string;
  /** `serve` (and import/seed) may apply pending migrations when the database is writable. */
  readonly migrate: boolean;
  /** Name stable-plan statements (prepared once per connection); off behind a transaction pooler. */
  readonly preparedStatements: boolean;
  /** Pipelined connections for the named statements (PostgreSQL, direct connections only; 0 = none, also whenever naming is off). */
  readonly dbPipeline: number;
  /** On SIGTERM, ready answers 503 this long while requests are still served, before the drain. */
  readonly shutdownDelayMs: number;
  /** Operator listener (/live, /ready, /metrics); null = off. */
  readonly adminPort: number | null;
  readonly adminHost: string;
  /** Trusted sources (CIDRs, canonical) whose connections begin with a PROXY protocol header. */
  readonly proxyProtocol: readonly string[];
  /** Listener deadlines (spec Limits: 5 s each) and requests per connection (100). */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxRequestsPerConnection: number;
  /** Database lock and connection timeouts (spec Limits: 500 ms, 2 s). */
  readonly lockTimeoutMs: number;
  readonly connectionTimeoutMs: number;
  /** Rate limiter: an identity idle this long is forgotten (spec Limits: 5 min). */
  readonly rateIdleMs: number;
  /** Serve the API reference: GET /openapi.json and the interactive page GET /docs (off: both 404). */
  readonly docs: boolean;
  /** Refusals are logged as one summary line per this interval, never a line each. */
  readonly refusalLogIntervalMs: number;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`${variable}: ${message}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const DEFAULT_DATABASE_URL = 'pglite:./data/catalogue';

export function parseDatabaseUrl(value: string, variable = 'DATABASE_URL'): DatabaseTarget {
  if (/^postgres(ql)?:\/\//.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError(variable, 'is not a valid postgres:// URL');
    }
    return { engine: 'postgres', url: value };
  }
  if (value.startsWith('pglite:')) {
    const rest = value.slice('pglite:'.length);
    if (rest === 'memory') return { engine: 'pglite', dataDir: null };
    if (rest.length === 0) throw new ConfigError(variable, 'pglite: needs a directory or "memory"');
    return { engine: 'pglite', dataDir: rest };
  }
  throw new ConfigError(variable, 'must start with postgres://, postgresql:// or pglite:');
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw.trim());
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(n > 0)) throw new ConfigError(name, `must be a positive number, got "${raw}"`);
  return n;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const v = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

import { trustedSources } from './trusted-sources.js';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = (env.LINEUP_LOG_LEVEL ?? 'info').trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LINEUP_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const host = (env.HOST ?? '127.0.0.1').trim() || '127.0.0.1';
  const database = parseDatabaseUrl((env.DATABASE_URL ?? '').trim() || DEFAULT_DATABASE_URL);
  const adminPortRaw = (env.LINEUP_ADMIN_PORT ?? '').trim();
  const headersTimeoutMs = integer(env, 'LINEUP_HEADERS_TIMEOUT_MS', 5000, 1, 600_000);
  const requestTimeoutMs = integer(env, 'LINEUP_REQUEST_TIMEOUT_MS', 5000, 1, 600_000);
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError('LINEUP_REQUEST_TIMEOUT_MS', `must be at least LINEUP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}), got ${requestTimeoutMs}`);
  }
  const preparedStatements = boolean(env, 'LINEUP_PREPARED_STATEMENTS', true);
  const dbPipeline = integer(env, 'LINEUP_DB_PIPELINE', 0, 0, 64);
  return {
    host,
    port: integer(env, 'PORT', 3000, 0, 65535),
    database,
    // The demo catalogue is for the embedded store only: an empty PostgreSQL database is an
    // operator's, never written by serve unless asked (decisions §1).
    seedDemo: boolean(env, 'LINEUP_SEED_DEMO', database.engine === 'pglite'),
    rateBurst: integer(env, 'LINEUP_RATE_BURST', 60, 1, 1_000_000_000),
    rateRefillPerSec: positiveNumber(env, 'LINEUP_RATE_REFILL_PER_SEC', 1),
    rateMaxIdentities: integer(env, 'LINEUP_RATE_MAX_IDENTITIES', 10_000, 1, 10_000_000),
    maxActiveRequests: integer(env, 'LINEUP_MAX_ACTIVE_REQUESTS', 32, 1, 100_000),
    dbReads: integer(env, 'LINEUP_DB_READS', 1, 1, 1_000),
    statementTimeoutMs: integer(env, 'LINEUP_STATEMENT_TIMEOUT_MS', 3000, 1, 600_000),
    shutdownGraceMs: integer(env, 'LINEUP_SHUTDOWN_GRACE_MS', 5000, 0, 600_000),
    logLevel,
    migrate: boolean(env, 'LINEUP_MIGRATE', true),
    preparedStatements,
    // they carry only named statements: none when naming is off (behind a transaction pooler)
    dbPipeline: preparedStatements ? dbPipeline : 0,
    shutdownDelayMs: integer(env, 'LINEUP_SHUTDOWN_DELAY_MS', 0, 0, 600_000),
    adminPort: adminPortRaw === '' || adminPortRaw.toLowerCase() === 'off' ? null : integer(env, 'LINEUP_ADMIN_PORT', 0, 0, 65535),
    adminHost: (env.LINEUP_ADMIN_HOST ?? '127.0.0.1').trim() || '127.0.0.1',
    proxyProtocol: trustedSources(env.LINEUP_PROXY_PROTOCOL ?? '', 'LINEUP_PROXY_PROTOCOL'),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'LINEUP_KEEP_ALIVE_TIMEOUT_MS', 5000, 1, 600_000),
    maxRequestsPerConnection: integer(env, 'LINEUP_MAX_REQUESTS_PER_CONNECTION', 100, 1, 1_000_000),
    lockTimeoutMs: integer(env, 'LINEUP_LOCK_TIMEOUT_MS', 500, 1, 600_000),
    connectionTimeoutMs: integer(env, 'LINEUP_CONNECTION_TIMEOUT_MS', 2000, 1, 600_000),
    rateIdleMs: integer(env, 'LINEUP_RATE_IDLE_MS', 300_000, 1, 86_400_000),
    docs: boolean(env, 'LINEUP_DOCS', true),
    refusalLogIntervalMs: integer(env, 'LINEUP_REFUSAL_LOG_INTERVAL_MS', 10_000, 10, 3_600_000),
  };
}

/** A config for tests and tools: defaults, with overrides. */
export function configWith(overrides: Partial<Config>, env: NodeJS.ProcessEnv = {}): Config {
  return { ...loadConfig(env), ...overrides };
}
