/**
 * `lineup migrate`, `import` and `seed` remove the temporary folders of imports whose process no
 * longer runs, and only those, and say how much they removed.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { TempDir } from '../../src/catalogue/temp-files.js';
import { cliArgs } from '../spawn-args.js';

/** The pid of a process that has exited (and been reaped): no process has it now. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  assert.equal(r.status, 0);
  return r.pid!;
}

describe('leftover temporary folders of imports', () => {
  const temp = mkdtempSync(join(tmpdir(), 'lineup-leftovers-'));
  const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
  after(() => {
    live.kill();
    rmSync(temp, { recursive: true, force: true });
  });

  test("an import's temporary folder carries its process's id", () => {
    const dir = TempDir.create('lineup-import-');
    try {
      assert.ok(dir.dir.split('/').pop()!.startsWith(`lineup-import-${process.pid}-`), dir.dir);
    } finally {
      dir.remove();
    }
  });

  test('removes the dead import\'s folder, keeps the live one\'s, and reports the count and size', () => {
    const dead = join(temp, `lineup-staging-${deadPid()}-a1B2c3`);
    const deadToo = join(temp, `lineup-import-${deadPid()}-d4E5f6`);
    const alive = join(temp, `lineup-import-${live.pid}-g7H8i9`);
    const mine = join(temp, `lineup-staging-${process.pid}-j0K1l2`);
    const other = join(temp, 'lineup-something-else');
    for (const dir of [dead, deadToo, alive, mine, other]) mkdirSync(dir);
    writeFileSync(join(dead, 'spool'), Buffer.alloc(3 * 1024 * 1024));
    writeFileSync(join(deadToo, 'lists'), Buffer.alloc(1024 * 1024));
    writeFileSync(join(alive, 'lists'), 'live');

    const r = spawnSync(process.execPath, cliArgs(['migrate']), {
      env: { ...process.env, LINEUP_LOG_LEVEL: 'silent', DATABASE_URL: 'pglite:memory', TMPDIR: temp },
      encoding: 'utf8',
      timeout: 300_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(existsSync(dead), false);
    assert.equal(existsSync(deadToo), false);
    assert.deepEqual(readdirSync(temp).sort(), [alive, mine, other].map((d) => d.slice(temp.length + 1)).sort());
    assert.match(r.stderr, new RegExp(`removed 2 leftover temporary folders \\(4\\.0 MB\\) of imports that are no longer running from TMPDIR \\(${temp.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`));
  });
});
