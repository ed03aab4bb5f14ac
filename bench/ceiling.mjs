// The ceiling of the benchmark: a bare Fastify route answering a fixed JSON body (the bytes of the
// Events first page of the same run), in its own process like the Lineup server.
// env: PORT, BODY_FILE
import fs from 'node:fs';
import Fastify from 'fastify';

const body = fs.readFileSync(process.env.BODY_FILE);
const app = Fastify({ logger: false });
app.get('/fixed', (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').send(body);
});
app.get('/v1/ready', (_request, reply) => reply.send({ status: 'ready' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => app.close().then(() => process.exit(0)));
