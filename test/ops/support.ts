/**
 * Test support for the operator features: a public app and its operator listener over one
 * database, the log lines it writes, and metrics scraped from /metrics and read with a real
 * Prometheus text-format parser (parse-prometheus-text-format).
 */
import http from 'node:http';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import parsePrometheus from 'parse-prometheus-text-format';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { configWith, type Config } from '../../src/config/config.js';
import type { Database } from '../../src/db/database.js';
import { createOperations } from '../../src/http/admin/operations.js';
import { startAdmin, type RunningAdmin } from '../../src/http/admin/admin.js';
import type { ServiceState } from '../../src/http/service-state.js';

export interface OpsServer {
  readonly app: FastifyInstance;
  readonly base: string;
  readonly admin: RunningAdmin;
  readonly state: ServiceState;
  /** Every log line written so far, parsed. */
  readonly logs: Array<Record<string, any>>;
  close(): Promise<void>;
}

export async function startOpsServer(db: Database, overrides: Partial<Config> = {}): Promise<OpsServer> {
  const config = configWith({ logLevel: 'info', rateBurst: 1_000_000, adminPort: 0, ...overrides });
  const logs: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: config.logLevel }, sink);
  const state: ServiceState = { stopping: false };
  const operations = createOperations(db, config);
  const app = await buildApp({ config, db, logger, state, operations });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const admin = await startAdmin('127.0.0.1', 0, { operations, state });
  return {
    app,
    base,
    admin,
    state,
    logs,
    async close() {
      await admin.close();
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
    },
  };
}

export interface Sample {
  readonly labels: Record<string, string>;
  readonly value: number;
}

export interface Scrape {
  readonly text: string;
  readonly families: Map<string, { type: string; help: string; samples: Sample[] }>;
  /** Sum of a counter's or gauge's samples whose labels include `labels` (0 when none). */
  value(name: string, labels?: Record<string, string>): number;
  /** A labelled histogram's observation count (its `_count` series) for these labels. */
  count(name: string, labels?: Record<string, string>): number;
}

/**
 * Scrapes /metrics. parse-prometheus-text-format reads every family (names, types, help,
 * labelled counter and gauge samples); it drops the labels of histogram series (its open
 * a known limitation of the package), so a histogram's `_count` for given labels is read from its sample lines.
 */
/**
 * A request is counted when its response has finished (onResponse), which can be just after the
 * client has read it: `requests` waits (bounded) until that many requests were counted.
 */
export async function scrape(admin: RunningAdmin, opts: { requests?: number } = {}): Promise<Scrape> {
  for (let attempt = 0; opts.requests !== undefined && attempt < 3000; attempt++) {
    const m = await scrapeOnce(admin);
    if (m.value('lineup_http_requests_total') >= opts.requests) return m;
    await new Promise((r) => setTimeout(r, 10));
  }
  return scrapeOnce(admin);
}

async function scrapeOnce(admin: RunningAdmin): Promise<Scrape> {
  const res = await fetch(`${admin.url}/metrics`);
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  if (!/^text\/plain; version=0\.0\.4/.test(res.headers.get('content-type') ?? '')) throw new Error('not the Prometheus text format');
  const text = await res.text();
  const families = new Map<string, { type: string; help: string; samples: Sample[] }>();
  for (const family of parsePrometheus(text)) {
    const samples = family.metrics
      .filter((m) => m.value !== undefined)
      .map((m) => ({ labels: m.labels ?? {}, value: Number(m.value) }));
    families.set(family.name, { type: family.type, help: family.help, samples });
  }
  const matches = (have: Record<string, string>, want: Record<string, string>) => Object.entries(want).every(([k, v]) => have[k] === v);
  return {
    text,
    families,
    value(name, labels = {}) {
      const family = families.get(name);
      if (!family) throw new Error(`no metric family ${name}`);
      return family.samples.filter((s) => matches(s.labels, labels)).reduce((sum, s) => sum + s.value, 0);
    },
    count(name, labels = {}) {
      if (families.get(name)?.type !== 'HISTOGRAM') throw new Error(`no histogram ${name}`);
      let total = 0;
      for (const line of text.split('\n')) {
        const m = new RegExp(`^${name}_count(?:\\{(.*)\\})? (\\S+)$`).exec(line);
        if (!m) continue;
        const have = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1]!, x[2]!]));
        if (matches(have, labels)) total += Number(m[2]);
      }
      return total;
    },
  };
}

/** GET from a chosen loopback source address (each is its own rate-limit identity). */
export function getFrom(
  base: string,
  path: string,
  localAddress = '127.0.0.1',
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path, localAddress, agent: false, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end();
  });
}

export { holdStatements } from '../helper.js';
