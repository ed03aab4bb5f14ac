/**
 * A first import's Event Artists and Event Venues, resolved in Node and written by COPY.
 *
 * The merge writes each membership by unnesting its owner's staged list and joining every element
 * with its member by publicId (memberships.ts): at 1,000,000 Events, 2.6 million Artist and 1.1
 * million Venue elements, ≈ 8 s of the import's one backend while the other core idles (the text
 * hash join ≈ 1.6 s and the unnesting ≈ 1 s of `event_artists` alone, then an executor row and a
 * WAL record per membership). When no Event, Artist or Venue is stored, every member of these lists
 * is an Artist or Venue of the document, and the merge gives each entity of an empty table the id
 * base + its order in its array (merge.ts). So:
 *
 * 1. while reading, each staged batch's members and lists (member-lists.ts, written as bytes where
 *    the batch was encoded) are appended to two temporary files: no lookup on the reading's busy
 *    cores;
 * 2. once reading ends (`resolve`), the main thread — idle while the backend checks and merges —
 *    maps every Artist's and Venue's publicId to its order (pid-table.ts), then turns each list
 *    whose elements are all found into (Event order, member order, position) triples, spilled to
 *    a file per list kind; it yields to the event loop between chunks, so the merge's statements
 *    go out on time;
 * 3. the merge (memberships.ts) adds the bases and COPYs the triples into the emptied tables:
 *    COPY writes a page of rows per WAL record, and the backend only parses numbers.
 *
 * A list with an element that is in no member record (a dangling reference) is left to the
 * merge's SQL, which writes it as before and counts it for the dangling-reference check
 * (checks.ts). Positions are the elements' indexes, as the SQL's ordinality gives them.
 *
 * Memory: 32 bytes per Artist and Venue while resolving (≈ 10 MB at 1,000,000 Events), and a
 * buffer per file; the rows wait on disk, not in the importer's heap.
 */
import { setImmediate as turn } from 'node:timers/promises';
import type pg from 'pg';
import type { CopyIn } from '../db/copy.js';
import type { Collection } from './document.js';
import { LISTED, MEMBER_BYTES, PID_BYTES, type BatchLists, type Listed } from './member-lists.js';
import { PidTable } from './pid-table.js';
import { TempDir, type TempFile } from './temp-files.js';

/**
 * Bytes read from a file at a time while resolving: each chunk's work holds the event loop, so
 * the merge's next statement waits for it (≈ 2,000 Events' lists per chunk).
 */
const CHUNK = 1 << 16;
/** Triples per spill buffer. */
const SPILL_ROWS = 1 << 16;

/** One list kind's resolved memberships, on disk: Int32 triples in document order. */
class Spill {
  private readonly buffer = new Int32Array(3 * SPILL_ROWS);
  private used = 0;
  rows = 0;
  maxOwner = 0;
  maxMember = 0;

  constructor(private readonly file: TempFile) {}

  push(owner: number, member: number, position: number): void {
    const b = this.buffer;
    b[this.used] = owner;
    b[this.used + 1] = member;
    b[this.used + 2] = position;
    this.used += 3;
    this.rows++;
    if (owner > this.maxOwner) this.maxOwner = owner;
    if (member > this.maxMember) this.maxMember = member;
    if (this.used === b.length) this.flush();
  }

  flush(): void {
    this.file.append(new Uint8Array(this.buffer.buffer, 0, this.used * 4));
    this.used = 0;
  }

  /** Every triple, in order, a buffer at a time (the same buffer, refilled). */
  *read(): Generator<Int32Array> {
    const bytes = Buffer.from(this.buffer.buffer);
    for (const chunk of this.file.chunks(bytes)) {
      if (chunk.length % 12 !== 0) throw new Error('the resolved memberships could not be read back from their temporary file');
      yield this.buffer.subarray(0, chunk.length / 4);
    }
  }
}

/** One list kind, ready to be written by the merge (memberships.ts). */
export interface DirectPart {
  /** The ids of the Events whose lists of this kind were not resolved: the merge's SQL writes those. */
  readonly unresolved: readonly string[];
  /** COPYs the resolved memberships into `table (owner, member, position)`; returns how many. */
  copy(client: pg.PoolClient, table: string, columns: readonly [string, string, string]): Promise<number>;
}

/** The rows of a buffer of triples as COPY text, their ids base + order (bases from a bigint sequence). */
function copyText(triples: Int32Array, ownerBase: string, memberBase: string, maxOwner: number, maxMember: number): Buffer {
  const owner = Number(ownerBase);
  const member = Number(memberBase);
  if (!Number.isSafeInteger(owner + maxOwner) || !Number.isSafeInteger(member + maxMember)) {
    // past 2^53: exact, and slow (no sequence gets there)
    const [o, m] = [BigInt(ownerBase), BigInt(memberBase)];
    let text = '';
    for (let i = 0; i < triples.length; i += 3) text += `${o + BigInt(triples[i]!)}\t${m + BigInt(triples[i + 1]!)}\t${triples[i + 2]!}\n`;
    return Buffer.from(text);
  }
  // digits written into the bytes: a string per row, then its encoding, takes about three times as long
  const out = Buffer.allocUnsafe((triples.length / 3) * (16 + 16 + 10 + 3));
  let at = 0;
  const digits = (v: number) => {
    const start = at;
    do {
      out[at++] = 48 + (v % 10);
      v = Math.floor(v / 10);
    } while (v > 0);
    out.subarray(start, at).reverse();
  };
  for (let i = 0; i < triples.length; i += 3) {
    digits(owner + triples[i]!);
    out[at++] = 9; // tab
    digits(member + triples[i + 1]!);
    out[at++] = 9;
    digits(triples[i + 2]!);
    out[at++] = 10; // newline
  }
  return out.subarray(0, at);
}

export class DirectMemberships {
  private readonly files: { members: TempFile; lists: TempFile } & Record<Listed, TempFile>;
  private readonly spills: Record<Listed, Spill>;
  private readonly unresolved: Record<Listed, number[]> = { artists: [], venues: [] };
  /** Members kept, per LISTED kind (the lookup tables' sizes). */
  private readonly memberCounts = LISTED.map(() => 0);
  private resolving: Promise<void> | null = null;
  private stopped = false;

  private constructor(
    private readonly dir: TempDir,
    private readonly copyIn: CopyIn,
  ) {
    const open = (name: string) => dir.open(name);
    this.files = { members: open('members'), lists: open('lists'), artists: open('event-artists'), venues: open('event-venues') };
    this.spills = { artists: new Spill(this.files.artists), venues: new Spill(this.files.venues) };
  }

  /**
   * For an import into a store with no Event, Artist or Venue (importer.ts `storeIsEmpty`, asked
   * under the import's lock: no other import writes meanwhile); otherwise the merge joins every
   * list in SQL.
   */
  static create(copyIn: CopyIn): DirectMemberships {
    return new DirectMemberships(TempDir.create('lineup-import-'), copyIn);
  }

  /** Keeps a staged batch's members and lists (batch after batch, in document order). */
  take(batch: BatchLists): void {
    this.files.members.append(batch.members);
    for (let at = 0; at < batch.members.length; at += MEMBER_BYTES) this.memberCounts[batch.members[at]!]!++;
    this.files.lists.append(batch.lists);
  }

  /** Starts resolving the lists kept (once every batch is taken); `part` waits for it. */
  resolve(): void {
    this.resolving ??= this.resolveAll();
    this.resolving.catch(() => {}); // rethrown by `part`
  }

  private async resolveAll(): Promise<void> {
    const orders = this.memberCounts.map((n) => new PidTable(n));
    const buffer = Buffer.allocUnsafe(CHUNK - (CHUNK % MEMBER_BYTES));
    for (const chunk of this.files.members.chunks(buffer)) {
      for (let at = 0; at < chunk.length; at += MEMBER_BYTES) orders[chunk[at]!]!.set(chunk, at + 5, chunk.readUInt32LE(at + 1));
      await this.turn();
    }
    // an Event's record: order, a count per kind, then the elements; a record may span two chunks
    const header = 4 + 4 * LISTED.length;
    const counts = LISTED.map(() => 0);
    const found: number[] = [];
    let rest = Buffer.alloc(0);
    for (const chunk of this.files.lists.chunks(Buffer.allocUnsafe(CHUNK))) {
      const bytes = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
      let at = 0;
      for (;;) {
        if (bytes.length - at < header) break;
        let size = header;
        for (let k = 0; k < counts.length; k++) size += PID_BYTES * (counts[k] = bytes.readUInt32LE(at + 4 + 4 * k));
        if (bytes.length - at < size) break;
        const owner = bytes.readUInt32LE(at);
        let pid = at + header;
        for (let k = 0; k < counts.length; k++) {
          const n = counts[k]!;
          const map = orders[k]!;
          found.length = 0;
          for (let p = pid; found.length < n; p += PID_BYTES) {
            const order = map.get(bytes, p);
            if (order < 0) break;
            found.push(order);
          }
          const spill = this.spills[LISTED[k]!.collection];
          if (found.length === n) for (let i = 0; i < n; i++) spill.push(owner, found[i]!, i);
          else this.unresolved[LISTED[k]!.collection].push(owner);
          pid += n * PID_BYTES;
        }
        at += size;
      }
      rest = Buffer.from(bytes.subarray(at));
      await this.turn();
    }
    if (rest.length > 0) throw new Error('the member lists ended inside a record');
    for (const { collection } of LISTED) this.spills[collection].flush();
  }

  /** Lets the event loop run (the merge's statements); throws once the import has stopped. */
  private async turn(): Promise<void> {
    await turn();
    if (this.stopped) throw new Error('the import stopped');
  }

  /**
   * The list kind of member collection `to`, its ids from the merged tables' bases (merge.ts
   * `StagedIds`), once resolved; undefined when `to` is not a listed kind or its table was not empty.
   */
  async part(to: Collection, ownerBase: string, memberBase: string | undefined): Promise<DirectPart | undefined> {
    if (memberBase === undefined || (to !== 'artists' && to !== 'venues')) return undefined;
    this.resolve();
    await this.resolving;
    const spill = this.spills[to];
    const ownerId = (order: number) => (BigInt(ownerBase) + BigInt(order)).toString();
    return {
      unresolved: this.unresolved[to].map(ownerId),
      copy: async (client, table, columns) => {
        // each buffer's rows formatted while the previous one's COPY runs
        let running: Promise<void> = Promise.resolve();
        for (const triples of spill.read()) {
          const bytes = copyText(triples, ownerBase, memberBase, spill.maxOwner, spill.maxMember);
          await running;
          running = this.copyIn(client, table, columns, bytes);
        }
        await running;
        return spill.rows;
      },
    };
  }

  /** Stops resolving and removes the temporary files. */
  async close(): Promise<void> {
    this.stopped = true;
    await this.resolving?.catch(() => {});
    this.dir.remove();
  }
}
