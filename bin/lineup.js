#!/usr/bin/env -S node --max-semi-space-size=8
// The `lineup` command: runs the compiled CLI (built by `npm install` through the prepare script).
// V8's young generation is capped at 8 MB per semi-space (Node 20's default: 16 MB). Under load the
// server's short-lived garbage fills whatever the cap allows: at 1M Events, c=16, the server's peak
// RSS was ≈ 193 MB with the default and ≈ 175 MB with 8 MB, at no measurable cost in CPU per request
// (bench/notes.md, session 6). A V8 heap size can only be set when the process starts, so it is
// here for `lineup` and `npx lineup`, and in package.json's `start` (which does not rely on this file's
// mode bits); test/cli.test.ts holds the two to the same flags. `node bin/lineup.js` runs without them.
import { main } from '../dist/cli.js';

main(process.argv.slice(2)).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { console.error(`lineup: ${err instanceof Error ? err.message : String(err)}`); process.exitCode = 1; },
);
