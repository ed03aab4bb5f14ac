/**
 * The `lineup` command as a user runs it: --help everywhere, one-line errors with a non-zero
 * exit, and an import that names the entity and field of every problem and writes nothing.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliArgs } from './spawn-args.js';

function lineup(args: string[], env: Record<string, string> = {}, input?: string) {
  const r = spawnSync(process.execPath, cliArgs(args), {
    env: { ...process.env, LINEUP_LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    input,
    timeout: 600_000, // stops a hung child only: a loaded machine may be slow
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('lineup CLI', () => {
  it('the command and npm start run Node with the same V8 flags (bin/lineup.js), and the shebang runs', () => {
    const shebang = readFileSync('bin/lineup.js', 'utf8').split('\n')[0]!;
    const fromShebang = /^#!\/usr\/bin\/env -S node((?: --\S+)*)$/.exec(shebang);
    assert.ok(fromShebang, shebang);
    const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
    const fromStart = /^node((?: --\S+)*) bin\/lineup\.js serve$/.exec(start);
    assert.ok(fromStart, start);
    assert.equal(fromStart[1], fromShebang[1]);
    assert.match(fromShebang[1]!, / --max-semi-space-size=8\b/);
    // executed directly, as npx and a global install do: env -S splits the flags for node
    const direct = spawnSync('bin/lineup.js', ['--help'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(direct.status, 0, direct.stderr);
    assert.match(direct.stdout, /Commands:/);
  });

  it('every subcommand answers --help with exit 0', () => {
    for (const cmd of ['serve', 'migrate', 'import', 'seed', 'openapi']) {
      const r = lineup([cmd, '--help']);
      assert.equal(r.code, 0, `${cmd}: ${r.err}`);
      assert.match(r.out, new RegExp(`Usage: lineup ${cmd}`));
    }
    const top = lineup(['--help']);
    assert.equal(top.code, 0);
    assert.match(top.out, /Commands:/);
  });

  it('bad input: one line on stderr and a non-zero exit', () => {
    for (const args of [['bogus'], ['serve', '--bogus'], ['seed', '--events', 'x'], ['seed', '--events', '0'], ['import'], ['import', 'a', 'b'], ['openapi', 'extra']]) {
      const r = lineup(args);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.equal(r.err.trim().split('\n').length, 1, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, /^lineup: /);
    }
    const missing = lineup(['import', '/nonexistent/catalogue.json'], { DATABASE_URL: 'pglite:memory' });
    assert.notEqual(missing.code, 0);
    assert.match(missing.err, /no such file/);
  });

  it('a bad configuration value names the variable', () => {
    const r = lineup(['migrate'], { DATABASE_URL: 'mysql://x' });
    assert.equal(r.code, 2);
    assert.match(r.err, /DATABASE_URL/);
    const port = lineup(['migrate'], { PORT: 'eighty' });
    assert.match(port.err, /PORT/);
  });

  it('import rejects a structurally bad document naming entity and field, writes nothing, exit 2; a good one imports', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'lineup-cli-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const data = `pglite:${join(dir, 'db')}`;
    const bad = {
      events: [
        {
          publicId: 'evt000000001',
          slug: 's',
          name: 'N',
          administrativeStateCode: 'postponed',
          schedule: { referenceTimeZoneId: 'Europe/Paris', start: { precision: 'date', localDate: '2023-02-29' } },
          artistIds: ['art000000404'],
        },
      ],
    };
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(bad));
    const r = lineup(['import', file], { DATABASE_URL: data });
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /event evt000000001: administrativeStateCode: /);
    assert.match(r.err, /event evt000000001: schedule\.start\.localDate: /);
    const good = { events: [{ ...bad.events[0], administrativeStateCode: 'scheduled', schedule: { referenceTimeZoneId: 'Europe/Paris', start: { precision: 'date', localDate: '2024-02-29' } }, artistIds: [] }] };
    const ok = lineup(['import', '-'], { DATABASE_URL: data }, JSON.stringify(good));
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.out, /imported 1 entities/);
  });

  it('openapi prints the OpenAPI 3.1.0 document with 19 GET operations and the 3 calendar feeds (extension)', () => {
    const r = lineup(['openapi']);
    assert.equal(r.code, 0, r.err);
    const doc = JSON.parse(r.out);
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    assert.equal(doc.servers, undefined);
    const gets = Object.values(doc.paths as Record<string, Record<string, unknown>>).filter((item) => item.get).length;
    assert.equal(gets, 19 + 3);
  });
});
