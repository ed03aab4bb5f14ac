#!/usr/bin/env -S node --max-semi-space-size=8
// The `lineup` command: runs the compiled CLI (built by `npm install` through the prepare script).
//
// The runtime is checked first, before the CLI is imported: its code and dependencies need the
// Node.js that package.json's engines.node names, and on an older one they fail with errors that
// do not say why. This file stays plain JavaScript that any Node.js parses, and imports the CLI
// only once the check has passed.
//
// V8's young generation is capped at 8 MB per semi-space (Node 24 lets it grow to 64 MB on a
// machine with a large heap limit). Under load the server's short-lived garbage fills whatever the
// cap allows, so the cap bounds the server's RSS at no measurable cost in CPU per request
// (`npm run bench` reports the server's peak RSS). A V8 heap size can only be set when the process
// starts, so it is here for `lineup` and `npx lineup`, and in package.json's `start` (which does
// not rely on this file's mode bits); test/cli.test.ts holds the two to the same flags.
// `node bin/lineup.js` runs without them.
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const floor = Number(/^>=\s*(\d+)/.exec(engines.node)[1]);
const major = Number(process.versions.node.split('.')[0]);

if (major < floor) {
  console.error(`lineup: needs Node.js ${floor} or newer, found Node.js ${process.versions.node} (${process.execPath})`);
  process.exitCode = 2;
} else {
  import('../dist/cli.js')
    .then(({ main }) => main(process.argv.slice(2)))
    .then(
      (code) => { if (typeof code === 'number') process.exitCode = code; },
      (err) => { console.error(`lineup: ${err instanceof Error ? err.message : String(err)}`); process.exitCode = 1; },
    );
}
