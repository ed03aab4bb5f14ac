/** What a route handler may use: the clock and admitted database reads. */
import type { FastifyRequest } from 'fastify';
import type { Reader } from '../../db/reader.js';

export interface RouteContext {
  /** The request's operation time. */
  readonly clock: () => Date;
  /** Runs one admitted database read for the request (503 when none can be admitted). */
  readonly read: <T>(request: FastifyRequest, fn: (reader: Reader) => Promise<T>) => Promise<T>;
}
