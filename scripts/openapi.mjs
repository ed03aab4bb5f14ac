#!/usr/bin/env node
// `npm run openapi`: regenerates the committed contract from the sources, in three steps:
// 1. the examples (src/http/reference/examples.generated.ts): every GET operation's 200 answer and one
//    refusal, read through the service over the demo catalogue at a fixed date
//    (src/http/reference/examples.ts; about half a minute, PGlite in memory);
// 2. openapi.json, which merges them: what `node bin/lineup.js openapi` prints (CI compares the
//    two byte for byte) and GET /openapi.json answers;
// 3. the client types generated from it (src/client/schema.ts).
// tsx loads the TypeScript sources, so no build is needed.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

function printed(label, code) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) {
    process.stderr.write(`${label} failed\n${run.stderr}`);
    process.exit(run.status ?? 1);
  }
  return run.stdout;
}

const EXAMPLES = 'src/http/reference/examples.generated.ts';
writeFileSync(EXAMPLES, printed('examples', "import { examplesModule, generateExamples } from './src/http/reference/examples.ts'; process.stdout.write(examplesModule(await generateExamples()));"));
console.log(`${EXAMPLES}: regenerated`);
// a process of its own: it reads the examples just written
const document = printed('openapi.json', "import { openApiText } from './src/http/openapi.ts'; process.stdout.write(openApiText());");
writeFileSync('openapi.json', document);
console.log(`openapi.json: ${Object.keys(JSON.parse(document).paths).length} paths`);
const types = spawnSync('npx', ['--no-install', 'openapi-typescript', 'openapi.json', '-o', 'src/client/schema.ts'], { stdio: 'inherit' });
process.exit(types.status ?? 1);
