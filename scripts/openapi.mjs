#!/usr/bin/env node
// `npm run openapi`: regenerates the committed contract (openapi.json) from the sources, then
// the client types generated from it (src/client/schema.ts). Equivalent to
// `npm run build && node bin/lineup.js openapi > openapi.json && npm run client:types`, without
// needing a build (tsx loads the TypeScript sources).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const print = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--input-type=module', '-e', "import { openApiDocument } from './src/http/openapi.ts'; process.stdout.write(JSON.stringify(openApiDocument(), null, 2) + '\\n');"],
  { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
if (print.status !== 0) {
  process.stderr.write(print.stderr);
  process.exit(print.status ?? 1);
}
writeFileSync('openapi.json', print.stdout);
console.log(`openapi.json: ${Object.keys(JSON.parse(print.stdout).paths).length} paths`);
const types = spawnSync('npx', ['--no-install', 'openapi-typescript', 'openapi.json', '-o', 'src/client/schema.ts'], { stdio: 'inherit' });
process.exit(types.status ?? 1);
