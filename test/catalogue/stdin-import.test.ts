/**
 * `lineup import -`: the importer reads the document from a child process's stdin (into its own
 * in-memory PGlite, so this file runs once, in the PGlite pass, not in CI's PostgreSQL pass).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { childArgs } from '../spawn-args.js';
import { fullDocument } from './fixture.js';

test("'-' reads the document from stdin", () => {
  const r = spawnSync(process.execPath, childArgs('./stdin-import.child', import.meta.url), { input: JSON.stringify(fullDocument()), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { entities: 16, counts: { media: 4, artists: 2, venues: 3, series: 2, editions: 2, events: 3 } });
});
