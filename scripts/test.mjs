#!/usr/bin/env node
// `npm test`: every test/**/*.test.ts through node:test, transpiled to JavaScript first
// (scripts/test-build.mjs). The HTTP suites
// run on PGlite always and also on PostgreSQL when TEST_DATABASE_URL is set (see test/helper.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildTests } from './test-build.mjs';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Whether process `pid` exists (signal 0 checks without signalling; EPERM: it exists). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

const only = process.argv.slice(2);
// LINEUP_TEST_ENGINES=postgres (CI's PostgreSQL pass, after a pass on PGlite): only the files that
// run against an engine under test, i.e. that mention one (test/helper.ts `engines()`,
// TEST_DATABASE_URL). The others (unit tests, the CLI on its own PGlite stores, the OpenAPI
// document, the sync journal) do the same thing whatever the engine and ran in the PGlite pass, as
// did the files that say their subject "does not depend on the database engine" (listener limits,
// sockets, parameter validation: they take `engines()[0]` only to have a server).
const engineFiles = (list) => list.filter((file) => {
  const text = readFileSync(file, 'utf8');
  return /engine|TEST_DATABASE_URL/.test(text) && !/(does|do) not depend on the database engine/.test(text);
});
const all = only.length > 0 ? only : find('test');
const files = (only.length === 0 && process.env.LINEUP_TEST_ENGINES === 'postgres' ? engineFiles(all) : all).sort();
const engines = !process.env.TEST_DATABASE_URL
  ? 'PGlite (set TEST_DATABASE_URL to add PostgreSQL)'
  : process.env.LINEUP_TEST_ENGINES === 'postgres'
    ? `PostgreSQL${only.length === 0 ? ' (the files that run against an engine)' : ''}`
    : 'PGlite and PostgreSQL';
console.log(`running ${files.length} test files on ${engines}, Node.js ${process.versions.node}`);
// one directory per run: two runs in one checkout do not write each other's files; a run stopped
// by a signal leaves its directory, removed by the next run once its process is gone
const cache = join('node_modules', '.cache', 'lineup-test');
for (const name of existsSync(cache) ? readdirSync(cache) : []) {
  const pid = /^run-(\d+)$/.exec(name)?.[1];
  if (pid !== undefined && !alive(Number(pid))) rmSync(join(cache, name), { recursive: true, force: true });
}
// absolute: node --test reads a relative argument as a glob pattern, and its globs skip node_modules
const out = resolve(cache, `run-${process.pid}`);
const compiled = await buildTests(out);
let result;
try {
  result = spawnSync(
    process.execPath,
    ['--enable-source-maps', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files.map(compiled)],
    { stdio: 'inherit', env: { ...process.env, LINEUP_LOG_LEVEL: process.env.LINEUP_LOG_LEVEL ?? 'silent' } },
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}
process.exit(result.status ?? 1);
