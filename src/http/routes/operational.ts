/**
 * GET (and HEAD) /v1/health and /v1/ready (spec: Endpoints). Health reports only that the process runs;
 * ready probes the database, sharing one in-flight probe among concurrent callers, and answers
 * 503 when the probe fails or the service is stopping. Neither accepts query parameters.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.js';
import { isUnavailable } from '../../db/unavailable.js';
import { DatabaseUnavailableError } from '../../db/errors.js';
import { invalidQuery, unavailable } from '../errors.js';
import { sendUncached } from '../respond.js';
import { searchOf } from '../../controls/query-string.js';
import type { ServiceState } from '../service-state.js';

function refuseQuery(rawUrl: string): void {
  if (searchOf(rawUrl) !== '') {
    throw invalidQuery('This operation accepts no query parameters.', [{ parameter: '*', message: 'no query parameters are accepted' }]);
  }
}

export function readinessProbe(db: Database, timeoutMs: number): () => Promise<boolean> {
  let inFlight: Promise<boolean> | null = null;
  const probe = async (): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      const deadline = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const query = db.pool.query('SELECT 1 AS ok').then(
        (r) => r.rows[0]?.ok === 1,
        (err) => {
          if (!isUnavailable(err)) throw err;
          return false;
        },
      );
      return await Promise.race([query, deadline]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
  return () => {
    inFlight ??= probe().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

/** `ready` is the shared probe (the operator listener's /ready uses the same one). */
export function operationalRoutes(app: FastifyInstance, ready: () => Promise<boolean>, state: ServiceState): void {
  app.get('/v1/health', async (request, reply) => {
    refuseQuery(request.raw.url ?? '');
    return sendUncached(reply, { ok: true, data: { status: 'ok' } });
  });
  app.get('/v1/ready', async (request, reply) => {
    refuseQuery(request.raw.url ?? '');
    if (state.stopping || state.notReady) throw unavailable('The service is stopping.');
    // answered and counted like every database-unavailable 503 (reason database_unavailable)
    if (!(await ready())) throw new DatabaseUnavailableError('readiness probe failed');
    return sendUncached(reply, { ok: true, data: { status: 'ready' } });
  });
}
