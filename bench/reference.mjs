// The references of the benchmark: a bare Fastify + pg service doing each scenario's
// database work and nothing of the contract, in its own process like the Lineup server.
//   GET /ref/<scenario>      replays the statements Lineup issued for the scenario (captured in
//                            process; prepared under the same names when Lineup prepares them)
//                            and answers JSON.stringify of their rows: no validation, projection,
//                            cursor or ETag.
//   GET /pg-json/<scenario>  (the Events first page) the page statement wrapped in json_agg:
//                            PostgreSQL renders the JSON, Node passes the text through.
//   GET /fixed               a fixed body of the Events first page's bytes, no database (context).
//   GET /v1/health           a constant answer, no database (the overload scenario's probe).
// env: PORT, DATABASE_URL, SCENARIOS_FILE (JSON: { id: [{ name?, text, values }] }), BODY_FILE, POOL_SIZE
import fs from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const scenarios = JSON.parse(fs.readFileSync(process.env.SCENARIOS_FILE, 'utf8'));
const body = fs.readFileSync(process.env.BODY_FILE);
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_SIZE ?? 16),
  options: '-c jit=off -c max_parallel_workers_per_gather=0', // Lineup's planner settings
});
pool.on('error', () => {});
const pgJson = (s) => ({
  ...(s.name ? { name: `${s.name}_json` } : {}),
  text: `SELECT coalesce(json_agg(t), '[]'::json)::text AS body FROM (${s.text}) t`,
  values: s.values,
});

const app = Fastify({ logger: false });
app.get('/ref/:id', async (request, reply) => {
  const statements = scenarios[request.params.id];
  if (!statements) return reply.code(404).send({ error: 'no such scenario' });
  const results = [];
  for (const s of statements) results.push((await pool.query(s)).rows);
  reply.header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify(results);
});
app.get('/pg-json/:id', async (request, reply) => {
  const statements = scenarios[request.params.id];
  if (!statements || statements.length !== 1) return reply.code(404).send({ error: 'one-statement scenarios only' });
  const { rows } = await pool.query(pgJson(statements[0]));
  reply.header('content-type', 'application/json; charset=utf-8');
  return rows[0].body;
});
app.get('/fixed', (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').send(body);
});
app.get('/v1/ready', (_request, reply) => reply.send({ status: 'ready' }));
// the overload scenario's probe (bench/lib/overload.mjs)
app.get('/v1/health', (_request, reply) => reply.send({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => app.close().then(() => pool.end()).then(() => process.exit(0)));
