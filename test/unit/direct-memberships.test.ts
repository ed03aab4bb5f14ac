/**
 * A first import's Event Artist and Venue lists (src/catalogue/member-lists.ts,
 * src/catalogue/direct-memberships.ts) without a database: the records a batch writes aside, the
 * lists resolved from them wherever their members are, the COPY rows with the merge's bases
 * (exact past 2^53), a list with an unknown member left to the SQL by its Event's id, records and
 * spills larger than a read chunk, and the temporary files removed however the import ends.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type pg from 'pg';
import { DirectMemberships } from '../../src/catalogue/direct-memberships.js';
import type { RecordOf } from '../../src/catalogue/document.js';
import { MEMBER_BYTES, MemberListWriter } from '../../src/catalogue/member-lists.js';
import type { CopyIn } from '../../src/db/copy.js';

const pid = (prefix: string, n: number) => prefix + String(n).padStart(12 - prefix.length, '0');
const member = (p: string) => ({ publicId: p }) as never;
const event = (artistIds: string[], venueIds: string[]) => ({ artistIds, venueIds }) as unknown as RecordOf['events'];
const client = {} as pg.PoolClient;

/** A DirectMemberships whose COPYs are recorded: table → rows as text lines. */
async function recorded() {
  const copies = new Map<string, string[]>();
  const copyIn: CopyIn = async (_client, table, columns, bytes) => {
    assert.deepEqual(columns, ['event_id', table === 'event_artists' ? 'artist_id' : 'venue_id', 'position']);
    const lines = Buffer.from(bytes).toString('utf8').split('\n');
    assert.equal(lines.pop(), '');
    copies.set(table, [...(copies.get(table) ?? []), ...lines]);
  };
  const direct = DirectMemberships.create(copyIn);
  return { direct, copies };
}

// This file's own temporary directory: other test files' imports (run alongside, --test-concurrency)
// create and remove their lineup-import- directories in the system's at any moment, and a count
// there failed when one appeared between the two counts.
process.env.TMPDIR = fs.mkdtempSync(path.join(os.tmpdir(), 'lineup-direct-test-'));
const leftovers = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('lineup-import-')).length;
after(() => fs.rmSync(os.tmpdir(), { recursive: true, force: true }));

test('a batch writes its valid Artists, Venues and Event lists aside, and nothing of the other collections', () => {
  const writer = new MemberListWriter();
  writer.add('media', 0, member(pid('med', 1)));
  writer.add('artists', 7, member(pid('art', 7)));
  writer.add('venues', 3, member(pid('ven', 3)));
  writer.add('series', 0, member(pid('ser', 1)));
  writer.add('events', 5, event([pid('art', 7), pid('art', 2)], []));
  const { members, lists } = writer.take();
  assert.equal(members.length, 2 * MEMBER_BYTES);
  const m = Buffer.from(members);
  assert.deepEqual([m[0], m.readUInt32LE(1), m.toString('latin1', 5, 17)], [0, 7, pid('art', 7)]);
  assert.deepEqual([m[17], m.readUInt32LE(18), m.toString('latin1', 22, 34)], [1, 3, pid('ven', 3)]);
  const l = Buffer.from(lists);
  assert.deepEqual([l.readUInt32LE(0), l.readUInt32LE(4), l.readUInt32LE(8)], [5, 2, 0]);
  assert.equal(l.toString('latin1', 12), pid('art', 7) + pid('art', 2));
  // taken: the next batch starts empty
  const next = writer.take();
  assert.deepEqual([next.members.length, next.lists.length], [0, 0]);
  assert.throws(() => writer.add('artists', 1, member('short')), /publicId of 5 characters/);
});

test('lists resolve wherever their members are; the rows carry the bases, a list with an unknown member is left to the SQL', async () => {
  const before = leftovers();
  const { direct, copies } = await recorded();
  const first = new MemberListWriter();
  first.add('artists', 0, member(pid('art', 10)));
  first.add('events', 0, event([pid('art', 11), pid('art', 10)], [pid('ven', 1)]));
  first.add('events', 1, event([], []));
  direct.take(first.take());
  const second = new MemberListWriter();
  // members after the Events that list them
  second.add('artists', 1, member(pid('art', 11)));
  second.add('venues', 0, member(pid('ven', 1)));
  second.add('events', 2, event([pid('art', 10), pid('art', 99)], [pid('ven', 1)]));
  direct.take(second.take());
  direct.resolve();
  const artists = await direct.part('artists', '100', '500');
  const venues = await direct.part('venues', '100', '9007199254740995');
  assert.ok(artists && venues);
  assert.equal(await direct.part('series', '100', '1'), undefined);
  assert.equal(await direct.part('artists', '100', undefined), undefined);
  assert.deepEqual(artists.unresolved, ['102']);
  assert.deepEqual(venues.unresolved, []);
  assert.equal(await artists.copy(client, 'event_artists', ['event_id', 'artist_id', 'position']), 2);
  assert.equal(await venues.copy(client, 'event_venues', ['event_id', 'venue_id', 'position']), 2);
  assert.deepEqual(copies.get('event_artists'), ['100\t501\t0', '100\t500\t1']);
  // past Number.MAX_SAFE_INTEGER, exact
  assert.deepEqual(copies.get('event_venues'), ['100\t9007199254740995\t0', '102\t9007199254740995\t0']);
  await direct.close();
  assert.equal(leftovers(), before);
});

test('records across read chunks and rows across spill buffers come back whole and in order', async () => {
  const { direct, copies } = await recorded();
  const artists = 5000;
  const events = 80_000; // ≈ 3.8 MB of list records: several 1 MB chunks, records cut at their edges
  const writer = new MemberListWriter();
  for (let a = 0; a < artists; a++) writer.add('artists', a, member(pid('art', a)));
  direct.take(writer.take());
  for (let e = 0; e < events; e += 1000) {
    for (let i = e; i < e + 1000; i++) writer.add('events', i, event([pid('art', i % artists), pid('art', (i * 7 + 1) % artists)].filter((p, j, all) => all.indexOf(p) === j), []));
    direct.take(writer.take());
  }
  direct.resolve();
  const part = await direct.part('artists', '1', '1');
  assert.ok(part);
  assert.deepEqual(part.unresolved, []);
  const rows = await part.copy(client, 'event_artists', ['event_id', 'artist_id', 'position']);
  const lines = copies.get('event_artists')!;
  assert.equal(lines.length, rows);
  assert.ok(rows > 1 << 16); // more than one spill buffer
  let k = 0;
  for (let i = 0; i < events; i++) {
    const members = [i % artists, (i * 7 + 1) % artists].filter((m, j, all) => all.indexOf(m) === j);
    members.forEach((m, position) => assert.equal(lines[k++], `${1 + i}\t${1 + m}\t${position}`));
  }
  assert.equal(k, lines.length);
  await direct.close();
});

test('an import that stops while the lists resolve removes its files', async () => {
  const before = leftovers();
  const { direct } = await recorded();
  const writer = new MemberListWriter();
  for (let a = 0; a < 100_000; a++) writer.add('artists', a, member(pid('art', a)));
  direct.take(writer.take());
  direct.resolve();
  await direct.close();
  assert.equal(leftovers(), before);
});
