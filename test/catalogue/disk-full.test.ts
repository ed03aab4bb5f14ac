/**
 * A full disk under `lineup import` and a PGlite store that cannot open, on small filesystems the
 * test mounts (tmpfs; CI runs as root): the command exits non-zero with one line naming the cause
 * and the folder to free, never 0 in silence nor a hang, and the previous catalogue opens again
 * once there is room. Skipped, saying why, where mounting is refused. The stores are the test's
 * own PGlite folders: the file does not depend on the database engine under test.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, createWriteStream, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { after, before, describe, test } from 'node:test';
import { demoCatalogue, demoDocumentChunks } from '../../src/catalogue/demo.js';
import { countCatalogue, importCatalogue } from '../../src/catalogue/importer.js';
import { openDatabase } from '../../src/db/database.js';
import { migratedPgliteSnapshot } from '../helper.js';
import { cliArgs } from '../spawn-args.js';

const MB = 1024 * 1024;

/** Runs `lineup`; a child still running after `timeout` ms is killed (a hang fails the test). */
function lineup(args: string[], env: Record<string, string>, timeout = 300_000) {
  const r = spawnSync(process.execPath, cliArgs(args), {
    env: { ...process.env, LINEUP_LOG_LEVEL: 'silent', PORT: '0', LINEUP_ADMIN_PORT: '', ...env },
    encoding: 'utf8',
    timeout,
  });
  return { code: r.status, signal: r.signal, err: r.stderr };
}

/** Mounts a tmpfs of `size` (mount's units: 8m, 128k) on `dir`; the reason when mounting is refused. */
function mountTmpfs(dir: string, size: string): string | null {
  if (process.getuid?.() !== 0) return 'mounting a small filesystem needs root (CI runs as root)';
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  return r.status === 0 ? null : `mount -t tmpfs was refused: ${(r.stderr || r.error?.message || '').trim()}`;
}

function resize(dir: string, mb: number): void {
  const r = spawnSync('mount', ['-o', `remount,size=${mb}m`, dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

function unmount(dir: string): void {
  spawnSync('umount', [dir]);
}

function sizeMb(dir: string): number {
  let bytes = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) bytes += statSync(join(e.parentPath, e.name)).size;
  return Math.ceil(bytes / MB);
}

async function writeDemo(file: string, events: number, seed: string): Promise<void> {
  const out = createWriteStream(file);
  for (const chunk of demoDocumentChunks({ events, seed })) if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  out.end();
  await finished(out);
}

/** A migrated PGlite store in `dir`, holding the demo catalogue of `events` Events (none: empty). */
async function makeStore(dir: string, events: number): Promise<number> {
  const db = await openDatabase({ engine: 'pglite', dataDir: dir }, { pgliteSnapshot: await migratedPgliteSnapshot() });
  try {
    if (events > 0) await importCatalogue(db, demoCatalogue({ events, seed: 'disk-full-old' }));
    return (await countCatalogue(db)).events;
  } finally {
    await db.close();
  }
}

async function storedEvents(dir: string): Promise<number> {
  const db = await openDatabase({ engine: 'pglite', dataDir: dir });
  try {
    return (await countCatalogue(db)).events;
  } finally {
    await db.close();
  }
}

describe('a full disk under an import', () => {
  const base = mkdtempSync(join(tmpdir(), 'lineup-disk-full-'));
  const mounts: string[] = [];
  const doc = join(base, 'new.json');
  let skip: string | null = null;

  before(async () => {
    skip = mountTmpfs(join(base, 'probe'), '1m');
    if (skip === null) unmount(join(base, 'probe'));
    await writeDemo(doc, 5000, 'disk-full-new');
  });

  after(() => {
    for (const dir of mounts) unmount(dir);
    rmSync(base, { recursive: true, force: true });
  });

  test('the PGlite store full: exit 1 naming the store; it cannot open until space is freed, then holds the old catalogue', async (t) => {
    if (skip !== null) return t.skip(skip);
    const template = join(base, 'template');
    const old = await makeStore(template, 40);
    const mount = join(base, 'small-store');
    // the store as it is, plus 8 MB
    const refused = mountTmpfs(mount, `${sizeMb(template) + 8}m`);
    if (refused !== null) return t.skip(refused);
    mounts.push(mount);
    const store = join(mount, 'store');
    cpSync(template, store, { recursive: true });
    const env = { DATABASE_URL: `pglite:${store}` };

    const imported = lineup(['import', doc], env);
    assert.equal(imported.signal, null, 'the import ended by itself');
    assert.equal(imported.code, 1, imported.err);
    assert.ok(imported.err.includes(`the PGlite store ${store} is full`), imported.err);
    assert.match(imported.err, /free space there/);
    assert.match(imported.err, /previous catalogue is kept/);

    // still full: each command on the store says why and exits, within the kill timeout
    for (const command of [['migrate'], ['import', doc], ['serve']]) {
      const r = lineup(command, env, 60_000);
      assert.equal(r.signal, null, `${command[0]} ended by itself`);
      assert.equal(r.code, 1, `${command[0]}: ${r.err}`);
      assert.ok(r.err.includes(`the PGlite store ${store}`), `${command[0]}: ${r.err}`);
      assert.match(r.err, /is full/, `${command[0]}: ${r.err}`);
    }

    resize(mount, sizeMb(template) + 200);
    const migrated = lineup(['migrate'], env);
    assert.equal(migrated.code, 0, migrated.err);
    assert.equal(await storedEvents(store), old);
  });

  test('TMPDIR full: exit 1 naming TMPDIR and its path; nothing written, no temporary folder left', async (t) => {
    if (skip !== null) return t.skip(skip);
    const store = join(base, 'empty-store');
    await makeStore(store, 0);
    const temp = join(base, 'small-tmp');
    const refused = mountTmpfs(temp, '128k');
    if (refused !== null) return t.skip(refused);
    mounts.push(temp);

    const r = lineup(['import', doc], { DATABASE_URL: `pglite:${store}`, TMPDIR: temp });
    assert.equal(r.code, 1, r.err);
    assert.ok(r.err.includes(`no space left in TMPDIR (${temp})`), r.err);
    assert.match(r.err, /point TMPDIR elsewhere/);
    assert.deepEqual(readdirSync(temp), []);
    assert.equal(await storedEvents(store), 0);
  });
});
