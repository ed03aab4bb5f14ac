/**
 * The onRequest stages every request passes, in the order the plugins register them. The
 * router's own refusals (a malformed path, an over-long parameter) bypass Fastify's hooks, so
 * they run the same stages by hand (plugins/errors.ts): one list, two callers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A stage refuses by throwing (the error handler renders the refusal). Async: Fastify awaits it. */
export type RequestStage = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

const stages = new WeakMap<FastifyInstance, RequestStage[]>();

export function addRequestStage(app: FastifyInstance, stage: RequestStage): void {
  app.addHook('onRequest', stage);
  stages.set(app, [...(stages.get(app) ?? []), stage]);
}

export async function runRequestStages(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  for (const stage of stages.get(app) ?? []) await stage(request, reply);
}
