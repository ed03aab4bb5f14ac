/**
 * The journal of a traversal in progress: `DIR/<collection>.journal.jsonl`, append-only, one JSON
 * object per line, each line fsynced before the next request is sent.
 *
 *   {"journal":1,"collection":"events","mode":"full","baseUrl":"http://…","checkpoint":null,
 *    "url":"/v1/events?sort=updatedAt&fields=…&limit=50"}                  ← header, line 1
 *   {"page":1,"next":"/v1/events?…&cursor=…","records":[…]}                ← one line per page read
 *   {"page":2,"next":null,"records":[…]}                                   ← next null: complete
 *
 * The header names the traversal: collection, mode, base URL, the collection's checkpoint when
 * it began (for an incremental traversal, its inclusive lower bound) and the first page's URL
 * (path, sort, fields, limit, lower bound). A journal is resumed only when its header equals the
 * header of the traversal this run would start; otherwise it is discarded. A page line holds
 * every record of the page exactly as read (a full traversal replaces the mirror with what it
 * saw, so the journal must hold all of it) and `links.next`, the URL to continue from.
 *
 * A torn last line (no newline: the process died while appending) is cut off and that page is
 * read again. A complete line that is not a valid page makes the journal corrupt: discarded.
 */
import { closeSync, existsSync, fsyncSync, openSync, rmSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { forEachLine, type CollectionName, type MirrorRecord } from './files.js';

export interface JournalHeader {
  readonly journal: 1;
  readonly collection: CollectionName;
  readonly mode: 'full' | 'incremental';
  readonly baseUrl: string;
  readonly checkpoint: string | null;
  readonly url: string;
}

export interface JournalPage {
  readonly page: number;
  readonly next: string | null;
  readonly records: readonly MirrorRecord[];
}

export type Replay =
  | { readonly kind: 'absent' }
  | { readonly kind: 'discarded'; readonly reason: string }
  | { readonly kind: 'resumed'; readonly pages: number; readonly next: string | null; readonly validBytes: number };

export function journalFile(outDir: string, collection: CollectionName): string {
  return join(outDir, `${collection}.journal.jsonl`);
}

const HEADER_KEYS = ['journal', 'collection', 'mode', 'baseUrl', 'checkpoint', 'url'] as const;

/** Why a journal with header `found` cannot continue the traversal `wanted` (null: it can). */
function mismatch(found: Record<string, unknown>, wanted: JournalHeader): string | null {
  if (found.journal !== 1 || found.collection !== wanted.collection) return 'it is not a journal of this collection';
  if (found.baseUrl !== wanted.baseUrl) return `it reads ${String(found.baseUrl)}`;
  if (found.mode !== wanted.mode) return `it is of an ${String(found.mode)} traversal and this run is ${wanted.mode}`;
  if (found.checkpoint !== wanted.checkpoint) return `it began from checkpoint ${String(found.checkpoint)}, the state now holds ${String(wanted.checkpoint)}`;
  if (found.url !== wanted.url) return 'it reads other fields or another page size';
  return null;
}

function isPage(value: unknown, number: number): value is JournalPage {
  const p = value as JournalPage;
  return (
    typeof p === 'object' && p !== null && p.page === number && (p.next === null || (typeof p.next === 'string' && p.next.startsWith('/'))) &&
    Array.isArray(p.records) && p.records.every((r) => typeof r === 'object' && r !== null && typeof r.publicId === 'string')
  );
}

/**
 * Replays the journal of `header`'s traversal: `onPage` receives every journaled page in order.
 * On 'discarded' the caller must forget what `onPage` received (a corrupt line can come late).
 */
export function replayJournal(file: string, header: JournalHeader, onPage: (page: JournalPage) => void): Replay {
  if (!existsSync(file)) return { kind: 'absent' };
  let reason: string | null = null;
  let pages = 0;
  let next: string | null = header.url;
  let validBytes = 0;
  const torn = forEachLine(file, (line, end) => {
    if (reason !== null) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      reason = `line ${pages + 2} is not JSON`;
      return;
    }
    if (validBytes === 0) {
      reason = typeof value === 'object' && value !== null ? mismatch(value as Record<string, unknown>, header) : 'it has no header';
    } else if (next === null) {
      reason = 'it continues past its last page';
    } else if (isPage(value, pages + 1)) {
      pages++;
      next = value.next;
      onPage(value);
    } else {
      reason = `line ${pages + 2} is not page ${pages + 1}`;
    }
    validBytes = end;
  });
  if (reason === null && validBytes === 0) reason = torn > 0 ? 'its header was not completely written' : 'it is empty';
  if (reason !== null) return { kind: 'discarded', reason };
  return { kind: 'resumed', pages, next, validBytes };
}

/** Appends pages to a journal, fsyncing each line. */
export class JournalWriter {
  private constructor(
    private fd: number | null,
    private pages: number,
  ) {}

  /** A new journal holding only `header` (replacing any file there). */
  static create(file: string, header: JournalHeader): JournalWriter {
    const ordered = Object.fromEntries(HEADER_KEYS.map((k) => [k, header[k]]));
    const writer = new JournalWriter(openSync(file, 'w'), 0);
    writer.line(JSON.stringify(ordered));
    return writer;
  }

  /** Continues a replayed journal: a torn tail past `validBytes` is cut off first. */
  static resume(file: string, validBytes: number, pages: number): JournalWriter {
    truncateSync(file, validBytes);
    return new JournalWriter(openSync(file, 'a'), pages);
  }

  page(next: string | null, records: readonly MirrorRecord[]): void {
    this.pages++;
    this.line(JSON.stringify({ page: this.pages, next, records }));
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private line(text: string): void {
    if (this.fd === null) throw new Error('the journal is closed');
    writeSync(this.fd, `${text}\n`);
    fsyncSync(this.fd);
  }
}

export function removeJournal(file: string): void {
  rmSync(file, { force: true });
}
