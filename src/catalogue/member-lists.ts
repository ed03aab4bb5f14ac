/**
 * The Events' Artist and Venue lists of a staging batch, written aside as the batch is encoded
 * (staging-batch.ts), so that a first import can write their memberships itself instead of joining
 * every list element with its member by publicId in SQL (direct-memberships.ts). Written wherever
 * the batch is encoded — the importer's main thread, or a `lineup seed` worker, which posts them
 * with the batch's COPY bytes — as bytes: a publicId is 12 ASCII characters, so each record has a
 * fixed layout, and a batch's lists cross to the main thread as one copy of a small buffer, not as
 * thousands of strings to clone and collect.
 *
 * - `members`: per valid Artist or Venue, `kind` (u8: its index in LISTED), its order in its
 *   array (u32), its publicId (12 bytes);
 * - `lists`: per valid Event, its order (u32), then per LISTED kind its number of elements (u32),
 *   then every element's publicId (12 bytes), kind after kind, in list order.
 */
import type { Collection, RecordOf } from './document.js';

/** The member collections whose Event lists are written aside, with the Event field of each list. */
export const LISTED = [
  { collection: 'artists', field: 'artistIds' },
  { collection: 'venues', field: 'venueIds' },
] as const satisfies ReadonlyArray<{ collection: Collection; field: keyof RecordOf['events'] }>;
export type Listed = (typeof LISTED)[number]['collection'];

/** A publicId's length in bytes (formats.ts `isPublicId`: 12 of [0-9A-Za-z]). */
export const PID_BYTES = 12;
/** A member record's length. */
export const MEMBER_BYTES = 1 + 4 + PID_BYTES;

/** What a batch carries aside: its valid members and its valid Events' lists, as above. */
export interface BatchLists {
  readonly members: Uint8Array;
  readonly lists: Uint8Array;
}

/** Bytes appended to a buffer that grows. */
class Bytes {
  private buffer = Buffer.allocUnsafe(1 << 12);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  u8(v: number): void {
    this.reserve(1);
    this.buffer[this.length++] = v;
  }

  u32(v: number): void {
    this.reserve(4);
    this.length = this.buffer.writeUInt32LE(v, this.length);
  }

  pid(v: string): void {
    // (validated: every publicId is 12 ASCII characters; a record of another length would misalign the rest)
    if (v.length !== PID_BYTES) throw new Error(`member lists: a publicId of ${v.length} characters`);
    this.reserve(PID_BYTES);
    this.length += this.buffer.write(v, this.length, PID_BYTES, 'latin1');
  }

  /** A copy of the bytes written; writing starts again. */
  take(): Uint8Array {
    const taken = Uint8Array.prototype.slice.call(this.buffer, 0, this.length);
    this.length = 0;
    return taken;
  }
}

/** Writes a batch's members and lists as its valid records are staged (invalid ones reject the document). */
export class MemberListWriter {
  private readonly members = new Bytes();
  private readonly lists = new Bytes();

  /** A valid record of `collection`, at `ord` in its array. */
  add<C extends Collection>(collection: C, ord: number, record: RecordOf[C]): void {
    if (collection === 'events') {
      const event = record as RecordOf['events'];
      this.lists.u32(ord);
      for (const { field } of LISTED) this.lists.u32(event[field].length);
      for (const { field } of LISTED) for (const pid of event[field]) this.lists.pid(pid);
      return;
    }
    const kind = LISTED.findIndex((l) => l.collection === collection);
    if (kind < 0) return;
    this.members.u8(kind);
    this.members.u32(ord);
    this.members.pid((record as RecordOf['artists' | 'venues']).publicId);
  }

  /** The batch's members and lists since the last `take`; writing starts again. */
  take(): BatchLists {
    return { members: this.members.take(), lists: this.lists.take() };
  }
}
