/**
 * The bounded-memory commit (src/sync/merge.ts): journal records sorted in small runs on disk,
 * merged with the last read of a publicId winning, then merged with the old mirror.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { commitMirror, mirrorLine } from '../../src/sync/merge.js';
import type { MirrorRecord } from '../../src/sync/files.js';

const rec = (publicId: string, v: number): MirrorRecord => ({ publicId, name: `v${v}`, updatedAt: `2025-01-01T00:00:0${v % 10}.000000Z` }) as never;

/** Every directory setup made (the property test makes hundreds), removed when the file's tests end. */
const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function setup(pages: MirrorRecord[][], old: MirrorRecord[] | null) {
  const dir = mkdtempSync(join(tmpdir(), 'lineup-merge-'));
  made.push(dir);
  const journal = join(dir, 'events.journal.jsonl');
  const lines = [JSON.stringify({ journal: 1, collection: 'events', mode: 'full', baseUrl: 'http://x', checkpoint: null, url: '/v1/events' })];
  pages.forEach((records, i) => lines.push(JSON.stringify({ page: i + 1, next: i + 1 < pages.length ? '/v1/events?cursor=x' : null, records })));
  writeFileSync(journal, `${lines.join('\n')}\n`);
  // an old mirror as the previous design wrote it (no publicId-first guarantee) and as this one does
  if (old) writeFileSync(join(dir, 'events.jsonl'), old.map((r, i) => (i % 2 ? JSON.stringify({ name: r.name, updatedAt: r.updatedAt, publicId: r.publicId }) : mirrorLine(r))).join('\n') + '\n');
  const read = () => readFileSync(join(dir, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as MirrorRecord);
  return { dir, journal, read };
}

/** The reference: a Map in read order. */
function expected(pages: MirrorRecord[][], old: MirrorRecord[] | null, full: boolean) {
  const map = new Map<string, MirrorRecord>();
  if (!full) for (const r of old ?? []) map.set(r.publicId, r);
  for (const page of pages) for (const r of page) map.set(r.publicId, r);
  const removed = full ? (old ?? []).filter((r) => !pages.some((p) => p.some((x) => x.publicId === r.publicId))).length : 0;
  return { records: [...map.values()].sort((a, b) => (a.publicId < b.publicId ? -1 : 1)), removed };
}

describe('commitMirror', () => {
  test('the last read of a publicId wins across runs and within a run; output ordered by publicId', () => {
    const pages = [[rec('c', 1), rec('a', 1)], [rec('b', 1), rec('a', 2)], [rec('c', 2), rec('a', 3), rec('d', 1)]];
    const { dir, journal, read } = setup(pages, null);
    const r = commitMirror(dir, 'events', journal, true, 2);
    assert.deepEqual(read().map((x) => `${x.publicId}:${x.name}`), ['a:v3', 'b:v1', 'c:v2', 'd:v1']);
    assert.deepEqual(r, { mirrored: 4, removed: 0 });
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('.run-')), [], 'run files removed');
  });

  test('full: exactly what was read, counting the old records not seen; incremental: old records kept, new ones win', () => {
    const pages = [[rec('b', 5), rec('e', 5)]];
    const old = [rec('a', 1), rec('b', 1), rec('c', 1)];
    let s = setup(pages, old);
    assert.deepEqual(commitMirror(s.dir, 'events', s.journal, true, 1), { mirrored: 2, removed: 2 });
    assert.deepEqual(s.read().map((x) => `${x.publicId}:${x.name}`), ['b:v5', 'e:v5']);
    s = setup(pages, old);
    assert.deepEqual(commitMirror(s.dir, 'events', s.journal, false, 1), { mirrored: 4, removed: 0 });
    assert.deepEqual(s.read().map((x) => `${x.publicId}:${x.name}`), ['a:v1', 'b:v5', 'c:v1', 'e:v5']);
  });

  test('equals the in-memory reference for any pages, old mirror, run size and mode', () => {
    const id = fc.constantFrom(...'ABCDEFGHab01'.split('').map((c) => `${c}0000000000${c}`));
    const record = fc.tuple(id, fc.nat(9)).map(([i, v]) => rec(i, v));
    fc.assert(
      fc.property(
        fc.array(fc.array(record, { maxLength: 6 }), { minLength: 1, maxLength: 6 }),
        fc.option(fc.uniqueArray(record, { selector: (r) => r.publicId, maxLength: 8 }).map((a) => a.sort((x, y) => (x.publicId < y.publicId ? -1 : 1)))),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        (pages, old, runSize, full) => {
          const s = setup(pages, old);
          const r = commitMirror(s.dir, 'events', s.journal, full, runSize);
          const want = expected(pages, old, full);
          assert.deepEqual(s.read(), want.records);
          assert.deepEqual(r, { mirrored: want.records.length, removed: want.removed });
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});
