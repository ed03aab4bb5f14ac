/**
 * The onRequest stages every request passes, in the order the plugins register them. The
 * router's own refusals (a malformed path, an over-long parameter) bypass Fastify's hooks, so
 * they run the same stages by hand (plugins/errors.ts): one list, two callers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * A stage refuses by throwing (the error handler renders the refusal). A stage that waits for
 * something returns a promise; the others return nothing and cost no promise.
 */
export type RequestStage = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

const stages = new WeakMap<FastifyInstance, RequestStage[]>();

/**
 * Adds a stage. The stages run in ONE onRequest hook, registered with the first stage (so at
 * that plugin's place in the hook order), one after the other: a hook per stage cost every
 * request a promise and a turn of the hook runner per stage.
 */
export function addRequestStage(app: FastifyInstance, stage: RequestStage): void {
  let list = stages.get(app);
  if (list === undefined) {
    const added: RequestStage[] = (list = []);
    stages.set(app, added);
    app.addHook('onRequest', (request, reply, done) => runFrom(added, 0, request, reply, done));
  }
  list.push(stage);
}

function runFrom(list: readonly RequestStage[], first: number, request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
  for (let i = first; i < list.length; i++) {
    let result: void | Promise<void>;
    try {
      result = list[i]!(request, reply);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (result !== undefined) {
      result.then(() => runFrom(list, i + 1, request, reply, done), (err: unknown) => done(err as Error));
      return;
    }
  }
  done();
}

export function runRequestStages(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  return new Promise((resolve, reject) => runFrom(stages.get(app) ?? [], 0, request, reply, (err) => (err ? reject(err) : resolve())));
}
