#!/usr/bin/env node
// The `lineup` command: runs the compiled CLI (built by `npm install` through the prepare script).
import { main } from '../dist/cli.js';

main(process.argv.slice(2)).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { console.error(`lineup: ${err instanceof Error ? err.message : String(err)}`); process.exitCode = 1; },
);
