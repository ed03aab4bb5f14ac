/**
 * The traversal journal on its own (no server): resumed only by the same traversal, a torn last
 * line cut off and read again, anything else malformed discarded; and the lock file's rules.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalWriter, journalFile, replayJournal, type JournalHeader, type JournalPage } from '../../src/sync/journal.js';
import { LOCK_FILE, acquireLock } from '../../src/sync/lock.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lineup-journal-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const header: JournalHeader = { journal: 1, collection: 'events', mode: 'incremental', baseUrl: 'http://api.test', checkpoint: '2026-01-01T00:00:00.000000Z', url: '/v1/events?sort=updatedAt&limit=2' };
const rec = (n: number) => ({ publicId: `Ev${String(n).padStart(10, '0')}`, updatedAt: `2026-01-0${n}T00:00:00.000000Z` }) as never;

function written(dir: string, pages: number): string {
  const file = journalFile(dir, 'events');
  const writer = JournalWriter.create(file, header);
  for (let p = 1; p <= pages; p++) writer.page(p === pages ? null : `/v1/events?sort=updatedAt&limit=2&cursor=c${p}`, [rec(2 * p - 1), rec(2 * p)]);
  writer.close();
  return file;
}

function replay(file: string, h: JournalHeader = header) {
  const pages: JournalPage[] = [];
  return { result: replayJournal(file, h, (p) => pages.push(p)), pages };
}

describe('the traversal journal', () => {
  it('replays every page of the same traversal and continues from the last next-link', () => {
    const dir = tempDir();
    const file = written(dir, 3);
    const { result, pages } = replay(file);
    assert.equal(result.kind, 'resumed');
    assert.deepEqual(pages.map((p) => [p.page, p.records.length]), [[1, 2], [2, 2], [3, 2]]);
    assert.equal(result.kind === 'resumed' && result.next, null, 'a journal ending on next: null is complete');
    assert.deepEqual(replay(journalFile(tempDir(), 'events')).result, { kind: 'absent' });
  });

  it('a torn last line is cut off before appending; that page is read again', () => {
    const dir = tempDir();
    const file = journalFile(dir, 'events');
    const writer = JournalWriter.create(file, header);
    writer.page('/v1/events?cursor=c1', [rec(1)]);
    writer.close();
    const intact = readFileSync(file, 'utf8');
    appendFileSync(file, '{"page":2,"next":null,"records":[{"publicId":"Ev');
    const { result } = replay(file);
    assert.deepEqual(result, { kind: 'resumed', pages: 1, next: '/v1/events?cursor=c1', validBytes: Buffer.byteLength(intact) });
    const resumed = JournalWriter.resume(file, Buffer.byteLength(intact), 1);
    resumed.page(null, [rec(2)]);
    resumed.close();
    assert.deepEqual(replay(file).pages.map((p) => p.page), [1, 2]);
  });

  it('another traversal, or a malformed journal, is discarded with the reason', () => {
    const dir = tempDir();
    const file = written(dir, 2);
    const reason = (h: Partial<JournalHeader>) => {
      const r = replay(file, { ...header, ...h }).result;
      return r.kind === 'discarded' ? r.reason : r.kind;
    };
    assert.equal(reason({ mode: 'full' }), 'it is of an incremental traversal and this run is full');
    assert.match(reason({ checkpoint: '2026-02-01T00:00:00.000000Z' }), /^it began from checkpoint 2026-01-01/);
    assert.equal(reason({ url: '/v1/events?sort=updatedAt&limit=3' }), 'it reads other fields or another page size');
    assert.equal(reason({ baseUrl: 'http://other.test' }), 'it reads http://api.test');
    assert.equal(reason({ collection: 'venues' }), 'it is not a journal of this collection');

    const [h, p1, p2] = readFileSync(file, 'utf8').split('\n');
    const discarded = (text: string) => {
      writeFileSync(file, text);
      const r = replay(file).result;
      return r.kind === 'discarded' ? r.reason : r.kind;
    };
    assert.equal(discarded(`${h}\n${p2}\n`), 'line 2 is not page 1');
    assert.equal(discarded(`${h}\nnot json\n${p2}\n`), 'line 2 is not JSON');
    assert.equal(discarded(`${h}\n${p1}\n${p2}\n${p2}\n`), 'it continues past its last page');
    assert.equal(discarded(''), 'it is empty');
    assert.equal(discarded(h!.slice(0, 20)), 'its header was not completely written');
  });
});

describe('the lock file', () => {
  it('is exclusive, names its holder, and is removed only by its holder', async () => {
    const dir = tempDir();
    const file = join(dir, LOCK_FILE);
    const notices: string[] = [];
    const lock = await acquireLock(dir, (m) => notices.push(m));
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(file, 'utf8'))), ['pid', 'host', 'token']);
    await assert.rejects(acquireLock(dir, () => {}), new RegExp(`locked by a running sync \\(pid ${process.pid} on ${hostname()}\\)`));
    writeFileSync(file, JSON.stringify({ pid: process.pid, host: hostname(), token: 'someone else' }));
    lock.release();
    assert.ok(existsSync(file), 'a lock that is no longer ours is left alone');
    rmSync(file);
    const again = await acquireLock(dir, () => {});
    again.release();
    assert.ok(!existsSync(file));
    assert.deepEqual(notices, []);
  });
});
