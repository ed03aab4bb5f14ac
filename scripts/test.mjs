#!/usr/bin/env node
// `npm test`: every test/**/*.test.ts through node:test (tsx loads TypeScript). The HTTP suites
// run on PGlite always and also on PostgreSQL when TEST_DATABASE_URL is set (see test/helper.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const only = process.argv.slice(2);
// LINEUP_TEST_ENGINES=postgres (CI's PostgreSQL pass, after a pass on PGlite): only the files that
// run against an engine under test, i.e. that mention one (test/helper.ts `engines()`,
// TEST_DATABASE_URL). The others (unit tests, the CLI on its own PGlite stores, the OpenAPI
// document, the sync journal) do the same thing whatever the engine and ran in the PGlite pass.
const engineFiles = (list) => list.filter((file) => /engine|TEST_DATABASE_URL/.test(readFileSync(file, 'utf8')));
const all = only.length > 0 ? only : find('test');
const files = (only.length === 0 && process.env.LINEUP_TEST_ENGINES === 'postgres' ? engineFiles(all) : all).sort();
const engines = !process.env.TEST_DATABASE_URL
  ? 'PGlite (set TEST_DATABASE_URL to add PostgreSQL)'
  : process.env.LINEUP_TEST_ENGINES === 'postgres'
    ? `PostgreSQL${only.length === 0 ? ' (the files that run against an engine)' : ''}`
    : 'PGlite and PostgreSQL';
console.log(`running ${files.length} test files on ${engines}`);
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, LINEUP_LOG_LEVEL: process.env.LINEUP_LOG_LEVEL ?? 'silent' } },
);
process.exit(result.status ?? 1);
