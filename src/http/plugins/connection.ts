/**
 * Every response names its request (X-Request-ID, server-generated), and a connection serves at
 * most LINEUP_MAX_REQUESTS_PER_CONNECTION requests: the last one's response carries
 * Connection: close. Enforced here rather than by server.maxRequestsPerSocket, whose bare 503
 * for a pipelined extra request would carry neither the envelope nor a request id.
 */
import fp from 'fastify-plugin';
import { addRequestStage } from './request-stages.js';

export interface ConnectionOptions {
  readonly maxRequestsPerConnection: number;
}

export const connection = fp<ConnectionOptions>(
  async (app, { maxRequestsPerConnection }) => {
    const requestsPerSocket = new WeakMap<object, number>();
    addRequestStage(app, (request, reply) => {
      reply.header('X-Request-ID', request.id);
      const served = (requestsPerSocket.get(request.socket) ?? 0) + 1;
      requestsPerSocket.set(request.socket, served);
      if (served >= maxRequestsPerConnection) reply.header('Connection', 'close');
    });
  },
  { name: 'lineup-connection' },
);
