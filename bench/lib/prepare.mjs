/** 1. Prepare the catalogue (kept between runs). */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { DATABASE_URL, ENGINE, EVENTS, PGLITE_DIR, PG_URL, ROOT, SEED, log, opt } from './config.mjs';
import { mb, runChild } from './util.mjs';

export async function prepare() {
  const todayUtc = new Date().toISOString().slice(0, 10);
  if (ENGINE === 'postgres') {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect().catch((err) => {
      throw new Error(
        `cannot connect to ${PG_URL} (${err.message}). Create the benchmark database once, as a superuser:\n` +
          `  su postgres -c "psql -c \\"CREATE DATABASE bench OWNER app TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C.UTF-8'\\""`,
      );
    });
    try {
      const dbName = (await client.query('SELECT current_database() AS d')).rows[0].d;
      // JIT compiles any plan estimated above jit_above_cost (100,000): a LIMIT 21 walk whose
      // full-scan estimate is large would spend far longer compiling than running. Short reads
      // never gain from it: Lineup's sessions turn it off (docs/architecture.md#planner-settings), and
      // the benchmark's database has it off too, for every connection that times raw SQL.
      await client.query(`ALTER DATABASE "${dbName.replace(/"/g, '""')}" SET jit = off`);
      const meta = await readPgMeta(client);
      if (!opt.reseed && meta && Number(meta.events) === EVENTS && meta.seed === SEED) {
        const { rows } = await client.query('SELECT count(*)::int AS n FROM events');
        if (rows[0].n === Number(meta.event_rows)) {
          log(`reusing the catalogue in ${dbName}: ${EVENTS} Events, seed "${SEED}", seeded ${meta.seeded_at}`);
          return { reused: true, ...normalizeMeta(meta) };
        }
      }
      if (!/bench/i.test(dbName)) throw new Error(`refusing to reset database "${dbName}": its name must contain "bench"`);
      log(`resetting the public schema of ${dbName} and seeding ${EVENTS} Events (seed "${SEED}")…`);
      await client.query('DROP SCHEMA public CASCADE');
      await client.query('CREATE SCHEMA public');
    } finally {
      await client.end();
    }
  } else {
    const metaFile = path.join(PGLITE_DIR, 'bench-meta.json');
    if (!opt.reseed && fs.existsSync(metaFile)) {
      const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
      log(`reusing the PGlite catalogue in ${PGLITE_DIR}`);
      return { reused: true, ...meta };
    }
    fs.rmSync(PGLITE_DIR, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(PGLITE_DIR), { recursive: true });
    log(`seeding ${EVENTS} Events into PGlite ${PGLITE_DIR} (seed "${SEED}")…`);
  }
  // the command itself (its shebang's V8 flags), as a user runs it; env execs node, same pid
  const seed = await runChild(path.join(ROOT, 'bin', 'lineup.js'), ['seed', '--events', String(EVENTS), '--seed', SEED], {
    DATABASE_URL,
    LINEUP_LOG_LEVEL: 'silent',
  });
  if (seed.code !== 0) throw new Error(`lineup seed failed (exit ${seed.code}):\n${seed.out}`);
  log(`seeded in ${(seed.ms / 1000).toFixed(1)} s, importer peak RSS ${mb(seed.peakKb)} MB`);
  const meta = {
    events: EVENTS,
    seed: SEED,
    anchor_date: todayUtc,
    seeded_at: new Date().toISOString(),
    seed_ms: seed.ms,
    seed_peak_rss_kb: seed.peakKb,
    seed_path: 'lineup seed (the streaming importer, one transaction)',
  };
  if (ENGINE === 'postgres') {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const t = Date.now();
      await client.query('VACUUM (ANALYZE)');
      meta.vacuum_ms = Date.now() - t;
      meta.event_rows = (await client.query('SELECT count(*)::int AS n FROM events')).rows[0].n;
      await client.query(`CREATE TABLE IF NOT EXISTS bench_catalogue (events int, seed text, anchor_date text, seeded_at text,
        seed_ms int, seed_peak_rss_kb int, vacuum_ms int, event_rows int, seed_path text)`);
      await client.query('DELETE FROM bench_catalogue');
      await client.query(
        `INSERT INTO bench_catalogue VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [meta.events, meta.seed, meta.anchor_date, meta.seeded_at, meta.seed_ms, meta.seed_peak_rss_kb, meta.vacuum_ms, meta.event_rows, meta.seed_path],
      );
    } finally {
      await client.end();
    }
  } else {
    fs.writeFileSync(path.join(PGLITE_DIR, 'bench-meta.json'), JSON.stringify(meta, null, 2));
  }
  return { reused: false, ...meta };
}

export async function readPgMeta(client) {
  const { rows } = await client.query(`SELECT to_regclass('public.bench_catalogue') IS NOT NULL AS present`);
  if (!rows[0].present) return null;
  return (await client.query('SELECT * FROM bench_catalogue LIMIT 1')).rows[0] ?? null;
}
export const normalizeMeta = (m) => ({ ...m, events: Number(m.events) });

