/**
 * The release install, as an operator does it: `npm pack` in the repository, then, in an empty
 * directory, `npm install --omit=dev <tarball>` (from the npm registry) and `npx lineup migrate`,
 * `npx lineup import`, `npx lineup serve` on PGlite, one request, SIGTERM. npm and the installed
 * `lineup` run on the Node.js that runs this file (under `npm run test:release`, the `node` dev
 * dependency's, the floor's line): its directory comes first on the PATH of every command.
 *
 * Not a *.test.ts file: `npm test` does not run it (it rebuilds dist/ through `npm pack` and
 * needs the registry). `npm run test:release` runs it; CI calls that after the main suites.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const MIGRATIONS = readdirSync(join(REPO, 'src/db/migrations')).filter((f) => f.endsWith('.sql'));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const FLOOR = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

/** The command lines of the processes of a process group (Linux /proc). */
function processGroup(pgid: number): string[][] {
  const lines: string[][] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      // /proc/PID/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces, so split after ')'
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
      lines.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== ''));
    } catch {
      // the process ended while it was being read
    }
  }
  return lines;
}

/** A small catalogue document: one Artist and one Venue playing one Event. */
const DOCUMENT = {
  artists: [{ publicId: 'art000000001', slug: 'bjork', name: 'Björk', description: null, profileMediaIds: [], links: [] }],
  venues: [
    {
      publicId: 'ven000000001', slug: 'olympia', name: 'Olympia', statusCode: 'operational', capacity: 2000,
      contact: { email: null, phoneNumber: null },
      address: { formattedAddress: '28 Bd des Capucines, Paris', locality: 'Paris', countryName: 'France', countryCode: 'FR' },
      coordinates: { latitude: 48.87, longitude: 2.33 }, publishCoordinates: true, profileMediaId: null, links: [],
    },
  ],
  events: [
    {
      publicId: 'evt000000001', slug: 'bjork-olympia', name: 'Björk at the Olympia',
      administrativeStateCode: 'scheduled', eventTypeCode: 'concert',
      schedule: { referenceTimeZoneId: 'Europe/Paris', start: { precision: 'date', localDate: '2027-03-01' } },
      artistIds: ['art000000001'], venueIds: ['ven000000001'], seriesIds: [], editionIds: [],
      links: [], ticketLinks: [], digitalLocations: [],
    },
  ],
};

let work: string;
let app: string;
let env: NodeJS.ProcessEnv;

function run(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, `${command} ${args.join(' ')} exited ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

describe('release install: npm pack, npm install --omit=dev, lineup on PGlite', { timeout: 600_000 }, () => {
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'lineup-release-'));
    app = join(work, 'app');
    mkdirSync(app);
    // (its own package.json, so npm installs here rather than in a parent project)
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'lineup-release-check', private: true }));
    const { TEST_DATABASE_URL: _, ...rest } = process.env;
    // npm's own `#!/usr/bin/env node` and the installed bin's `env -S node` find this Node first
    const PATH = [dirname(process.execPath), rest.PATH].filter(Boolean).join(delimiter);
    env = { ...rest, PATH, DATABASE_URL: `pglite:${join(work, 'catalogue')}`, HOST: '127.0.0.1', PORT: '0', LINEUP_LOG_LEVEL: 'info' };
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  let tarball: string;

  it('runs on a Node.js at the floor or above, and npm runs on the same one', () => {
    assert.match(FLOOR, /^>=\d+$/);
    assert.ok(Number(process.versions.node.split('.')[0]) >= Number(FLOOR.slice(2)), `${process.version} is not ${FLOOR}`);
    const versions = JSON.parse(run(NPM, ['version', '--json'], app).stdout) as { node: string };
    assert.equal(versions.node, process.versions.node);
  });

  it('npm pack: the built code, the migrations and the bin; no sources, tests or source maps', () => {
    const r = run(NPM, ['pack', '--json', '--pack-destination', work], REPO);
    const [pack] = JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as [{ filename: string; files: { path: string }[] }];
    tarball = join(work, pack.filename);
    const files = pack.files.map((f) => f.path);
    for (const needed of ['package.json', 'bin/lineup.js', 'dist/cli.js', 'dist/server.js', 'dist/client/index.js', 'dist/client/index.d.ts']) {
      assert.ok(files.includes(needed), `${needed} is in the tarball`);
    }
    assert.ok(MIGRATIONS.length > 0);
    for (const m of MIGRATIONS) assert.ok(files.includes(`dist/db/migrations/${m}`), `migration ${m} is in the tarball`);
    // npm packs LICENSE whatever `files` says; the licence must travel with the code anyway
    const unwanted = files.filter((f) => !/^(bin|dist)\//.test(f) && !['package.json', 'README.md', 'LICENSE'].includes(f));
    assert.deepEqual(unwanted, [], 'nothing outside bin/ and dist/ but package.json, README.md and LICENSE');
    assert.ok(files.includes('LICENSE'), 'the licence is in the tarball');
    assert.deepEqual(files.filter((f) => f.endsWith('.map') || (f.endsWith('.ts') && !f.endsWith('.d.ts'))), []);
  });

  it('npm install --omit=dev <tarball> into an empty directory needs no dev dependency', () => {
    // npm never runs `prepare` (tsc) for a tarball: with typescript absent, a build would fail here
    const installed = run(NPM, ['install', '--omit=dev', '--no-audit', '--no-fund', tarball], app);
    // no installed package declares a runtime that leaves out this one
    assert.doesNotMatch(installed.stderr, /EBADENGINE/, installed.stderr);
    const modules = join(app, 'node_modules');
    const manifest = JSON.parse(readFileSync(join(modules, 'lineup', 'package.json'), 'utf8')) as { engines?: { node?: string } };
    assert.equal(manifest.engines?.node, FLOOR, 'the tarball declares the runtime floor');
    assert.ok(existsSync(join(modules, 'lineup', 'dist', 'cli.js')));
    assert.ok(existsSync(join(modules, 'fastify')) && existsSync(join(modules, '@electric-sql', 'pglite')));
    for (const dev of ['typescript', 'tsx', '@types/node', 'fast-check', 'playwright-core', '@redocly/cli']) {
      assert.ok(!existsSync(join(modules, dev)), `dev dependency ${dev} is not installed`);
    }
  });

  it('npx lineup migrate and lineup import run from the installed package', () => {
    const migrated = run(NPX, ['--no', 'lineup', 'migrate'], app);
    assert.match(migrated.stdout, new RegExp(`applied migrations ${MIGRATIONS.map((m) => Number(m.slice(0, 3))).join(', ')}\\b`));
    const file = join(work, 'catalogue.json');
    writeFileSync(file, JSON.stringify(DOCUMENT));
    const imported = run(NPX, ['--no', 'lineup', 'import', file], app);
    assert.match(imported.stdout, /imported 3 entities/);
  });

  it('npx lineup serve answers a request over the imported catalogue and stops on SIGTERM', async () => {
    // its own process group (npx → sh → node), signalled as a whole like a service manager or a
    // terminal's Ctrl-C does: npx forwards a signal only to the shell, which does not pass it on
    const server = spawn(NPX, ['--no', 'lineup', 'serve'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    server.stderr.on('data', (chunk: Buffer) => { err += chunk.toString(); });
    const closed = new Promise<number | null>((resolve) => server.on('close', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        server.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const listening = /Lineup listening on (http:\/\/[^\s"]+)/.exec(out);
          if (listening) resolve(listening[1]!);
        });
        void closed.then((code) => reject(new Error(`serve exited ${code} before listening:\n${out}\n${err}`)));
      });
      const res = await fetch(`${url}/v1/events?fields=name,venues`);
      assert.equal(res.status, 200);
      const body = (await res.json()) as { data: { publicId: string; name: string; venues: { items: { name: string }[] } }[] };
      // the start-up line names the runtime: this one, through the PATH
      assert.match(out, new RegExp(`"Lineup listening on \\S+ \\(database: [^)]*\\) on Node\\.js ${process.versions.node.replaceAll('.', '\\.')}"`));
      // exactly the imported Event: the store is the one `lineup import` wrote (no demo seeded)
      assert.deepEqual(body.data.map((e) => [e.publicId, e.name, e.venues.items.map((v) => v.name)]), [
        ['evt000000001', 'Björk at the Olympia', ['Olympia']],
      ]);
      // the installed command's shebang runs the server with its V8 young-generation cap
      // (bin/lineup.js): the node process of the group carries the flag
      const nodes = processGroup(server.pid!).filter((cmdline) => /(^|\/)node$/.test(cmdline[0] ?? ''));
      assert.ok(nodes.some((cmdline) => cmdline.includes('--max-semi-space-size=8')), `server processes: ${JSON.stringify(nodes)}`);
    } finally {
      process.kill(-server.pid!, 'SIGTERM');
    }
    // (the pipes close when the server itself has exited, not only npx)
    const killer = setTimeout(() => process.kill(-server.pid!, 'SIGKILL'), 120_000); // a hung stop only
    await closed;
    clearTimeout(killer);
    assert.match(out, /"msg":"stopped"/, `the server drained and closed its store:\n${out}\n${err}`);
  });
});
