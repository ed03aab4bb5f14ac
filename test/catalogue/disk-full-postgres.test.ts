/**
 * PostgreSQL out of disk under `lineup import` (SQLSTATE 53100), on a PostgreSQL instance of the
 * test's own whose temporary tablespace is a 1 MB tmpfs: the import exits 1 with one line naming
 * PostgreSQL, the SQLSTATE and what to free, and the previous catalogue is kept. Skipped, saying
 * why, without root, Debian's postgresql or a mount.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { describe, test } from 'node:test';
import { demoDocumentChunks } from '../../src/catalogue/demo.js';
import { Cleanup, startPrimary, workDir } from '../topology/cluster.js';
import { cliArgs } from '../spawn-args.js';

function lineup(args: string[], url: string) {
  const r = spawnSync(process.execPath, cliArgs(args), {
    env: { ...process.env, LINEUP_LOG_LEVEL: 'silent', DATABASE_URL: url },
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { code: r.status, err: r.stderr };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function writeDemo(file: string, events: number, seed: string): Promise<void> {
  const out = createWriteStream(file);
  for (const chunk of demoDocumentChunks({ events, seed })) if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  out.end();
  await finished(out);
}

function missing(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (mount, and PostgreSQL run as the postgres user)';
  if (!existsSync('/usr/lib/postgresql')) return 'needs Debian postgresql';
  if (spawnSync('id', ['postgres']).status !== 0) return 'needs the postgres user (Debian postgresql)';
  return null;
}

describe('PostgreSQL out of disk under an import', () => {
  test('53100: exit 1 naming PostgreSQL and what to free; the previous catalogue is kept', async (t) => {
    const lacking = missing();
    if (lacking !== null) return t.skip(lacking);
    const cleanup = new Cleanup();
    try {
      const dir = workDir(cleanup);
      const tiny = join(dir, 'tiny');
      mkdirSync(tiny);
      const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,uid=postgres', 'tmpfs', tiny], { encoding: 'utf8' });
      if (mounted.status !== 0) return t.skip(`mount -t tmpfs was refused: ${mounted.stderr.trim()}`);
      cleanup.add(() => spawnSync('umount', [tiny]));
      const server = startPrimary(dir, await freePort(), cleanup);
      const url = server.url();
      const old = join(dir, 'old.json');
      const next = join(dir, 'new.json');
      await writeDemo(old, 40, 'pg-disk-full-old');
      await writeDemo(next, 3000, 'pg-disk-full-new');

      const first = lineup(['import', old], url);
      assert.equal(first.code, 0, first.err);
      // the import's staging tables are temporary: they go to the 1 MB tablespace
      await server.sql(`CREATE TABLESPACE tiny LOCATION '${tiny}'`);
      await server.sql(`ALTER DATABASE postgres SET temp_tablespaces = tiny`);

      const r = lineup(['import', next], url);
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, /^lineup: PostgreSQL ran out of disk \(53100: could not (extend|write)/);
      assert.match(r.err, /free space on the database server/);
      assert.match(r.err, /the previous catalogue is kept/);
      assert.equal(r.err.trim().split('\n').length, 1, r.err);
      const [row] = await server.sql<{ n: number }>(`SELECT count(*)::int AS n FROM events`);
      assert.equal(row!.n, 40);
    } finally {
      await cleanup.run();
    }
  });
});
