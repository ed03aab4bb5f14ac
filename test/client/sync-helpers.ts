/**
 * Shared by the sync suites: temporary mirror directories, file snapshots, and the check that a
 * mirror equals the server record for record with the checkpoints at the server's greatest marker.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_FIELDS } from '../../src/plan/event-fields.js';
import { VENUE_FIELDS } from '../../src/plan/resource-fields.js';
import { readMirror, readState } from '../../src/sync/sync.js';
import { serverState, type ClientWorld } from './world.js';

export const FIELDS = { events: EVENT_FIELDS.join(','), venues: VENUE_FIELDS.join(',') };

const dirs: string[] = [];
export const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lineup-sync-'));
  dirs.push(dir);
  return dir;
};
export const removeTempDirs = () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
};
export const snapshot = (dir: string) => Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
export const lines = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean);

/** The mirror equals the server, record for record (every field). */
export async function assertConverged(w: ClientWorld, dir: string) {
  const server = await serverState(w.server.base, FIELDS);
  for (const c of ['events', 'venues'] as const) {
    const mirror = readMirror(dir, c);
    assert.deepEqual([...mirror.keys()].sort(), [...server[c].keys()].sort(), `${c}: the same publicIds`);
    for (const [id, record] of server[c]) assert.deepEqual(mirror.get(id), record, `${c} ${id}`);
    const ids = lines(dir, `${c}.jsonl`).map((l) => JSON.parse(l).publicId as string);
    assert.equal(new Set(ids).size, ids.length, `${c}.jsonl holds each publicId once`);
  }
  const greatest = (m: Map<string, Record<string, unknown>>) => [...m.values()].map((r) => r.updatedAt as string).sort().at(-1) ?? null;
  const state = readState(dir)!;
  assert.equal(state.checkpoints.events, greatest(server.events));
  assert.equal(state.checkpoints.venues, greatest(server.venues));
}
