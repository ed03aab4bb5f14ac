/**
 * The runtime floor: package.json's engines.node, the Node.js that npm scripts run on (the `node`
 * dev dependency in node_modules/.bin), and `lineup` refusing, in one line, a runtime below it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

interface PackageJson {
  engines: { node: string };
  devDependencies: Record<string, string>;
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as PackageJson;
const floor = Number(/^>=(\d+)$/.exec(pkg.engines.node)?.[1]);
const majorOf = (version: string) => Number(/^v?(\d+)\./.exec(version)?.[1]);

/** Every `node` on the PATH (and Debian's /usr/bin/node), one per binary, with its version. */
function nodesOnMachine(): { path: string; version: string }[] {
  const candidates = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'node')), '/usr/bin/node', '/usr/local/bin/node'];
  const seen = new Set<string>();
  const found: { path: string; version: string }[] = [];
  for (const path of candidates) {
    let real: string;
    try {
      accessSync(path, constants.X_OK);
      real = realpathSync(path);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    if (r.status === 0) found.push({ path, version: r.stdout.trim() });
  }
  return found;
}

describe('runtime', () => {
  it('engines.node is a floor, and the pinned runtime that npm scripts run on meets it', () => {
    assert.ok(floor >= 24, pkg.engines.node);
    const pinned = pkg.devDependencies.node;
    assert.ok(pinned, 'the `node` dev dependency pins the runtime of npm scripts');
    assert.equal(majorOf(/\d+\.\d+\.\d+/.exec(pinned)?.[0] ?? ''), floor, `node ${pinned} is the floor's line`);
    assert.ok(majorOf(process.version) >= floor, `this test runs on ${process.version}`);
  });

  it('lineup on a runtime below the floor stops with one line naming the floor and the runtime found', (t) => {
    const older = nodesOnMachine().filter((n) => majorOf(n.version) < floor);
    if (older.length === 0) {
      t.skip(`no Node.js older than ${floor} on this machine`);
      return;
    }
    for (const { path, version } of older) {
      for (const args of [['serve'], ['--help']]) {
        const r = spawnSync(path, ['bin/lineup.js', ...args], {
          encoding: 'utf8',
          timeout: 60_000,
          env: { ...process.env, PORT: '0', DATABASE_URL: 'pglite:memory' },
        });
        assert.equal(r.status, 2, `${path} ${args.join(' ')}: ${r.stderr}`);
        assert.equal(r.stdout, '');
        assert.equal(r.stderr, `lineup: needs Node.js ${floor} or newer, found Node.js ${version.replace(/^v/, '')} (${realpathSync(path)})\n`);
      }
    }
  });
});
