#!/usr/bin/env node
// `npm run docs`: the API reference page, built from the committed contract (openapi.json) by
// Redocly's build-docs into ONE static HTML file (docs/api.html; Redoc's script is inlined, so
// the page works offline). Regenerate after `npm run openapi`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';

mkdirSync('docs', { recursive: true });
const out = 'docs/api.html';
const result = spawnSync(
  'npx',
  ['--no-install', 'redocly', 'build-docs', 'openapi.json', '--output', out, '--title', 'Lineup public read API v1'],
  { stdio: ['ignore', 'inherit', 'inherit'] },
);
if (result.status !== 0) process.exit(result.status ?? 1);
const html = readFileSync(out, 'utf8');
if (/<script[^>]+src=["']https?:/i.test(html)) {
  console.error(`${out} loads a remote script: expected one self-contained file`);
  process.exit(1);
}
console.log(`${out}: ${(statSync(out).size / 1024).toFixed(0)} KiB`);
