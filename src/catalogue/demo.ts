/**
 * The demo catalogue (`lineup seed`): a realistic, deterministic catalogue document generated
 * lazily as text, so 1,000,000 Events never sit in memory, and imported through the ordinary
 * importer. The document is a function of (events, seed, anchorDate); anchorDate defaults to
 * today (UTC) so that the Events spread over the past and future years around the present, and
 * their change markers over the 180 days before it (demo/markers.ts).
 */
import { Readable } from 'node:stream';
import type { Database } from '../db/database.js';
import { DemoCatalogue } from './demo/entities.js';
import { demoMarker } from './demo/markers.js';
import { todayUtc } from './demo/time.js';
import type { Collection } from './document.js';
import { importEntities, type ImportProgress, type ImportSummary } from './importer.js';
import { isLocalDate } from './formats.js';

export { demoCounts, type DemoCounts } from './demo/entities.js';

export const DEFAULT_DEMO_EVENTS = 2000;
export const DEFAULT_DEMO_SEED = 'lineup';

export interface DemoOptions {
  /** Number of Events (default 2,000). */
  readonly events?: number;
  /** Same seed (and size and anchor date), same document. */
  readonly seed?: string | number;
  /** `YYYY-MM-DD` the Events are spread around (default: today, UTC). */
  readonly anchorDate?: string;
}

export interface SeedOptions extends DemoOptions {
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Remove entities the demo document lacks (default false: upsert like `lineup import`). */
  readonly replace?: boolean;
}

function catalogue(opts: DemoOptions): DemoCatalogue {
  const events = opts.events ?? DEFAULT_DEMO_EVENTS;
  if (!Number.isSafeInteger(events) || events < 0) throw new RangeError(`events must be a whole number >= 0, got ${events}`);
  const anchorDate = opts.anchorDate ?? todayUtc();
  if (!isLocalDate(anchorDate)) throw new RangeError(`anchorDate must be a date YYYY-MM-DD, got ${anchorDate}`);
  return new DemoCatalogue(String(opts.seed ?? DEFAULT_DEMO_SEED), events, anchorDate);
}

/** The document text in chunks of about 64 KiB (options are checked at once). */
export function demoDocumentChunks(opts: DemoOptions = {}): Generator<string> {
  return chunksOf(catalogue(opts));
}

/** The demo entities in document order, as the objects the document's text would parse to. */
export function demoEntities(opts: DemoOptions = {}): Generator<[Collection, unknown]> {
  return entitiesOf(catalogue(opts));
}

function* entitiesOf(demo: DemoCatalogue): Generator<[Collection, unknown]> {
  const c = demo.counts;
  // every entity carries its own change marker (demo/markers.ts)
  const marked = <T extends { publicId: string }>(item: T): T => ({ ...item, updatedAt: demoMarker(demo.seed, demo.anchorDate, item.publicId) });
  for (let i = 0; i < c.media; i++) yield ['media', marked(demo.media(i))];
  for (let i = 0; i < c.artists; i++) yield ['artists', marked(demo.artist(i))];
  for (let i = 0; i < c.venues; i++) yield ['venues', marked(demo.venue(i))];
  for (let i = 0; i < c.series; i++) yield ['series', marked(demo.series(i))];
  for (const edition of demo.editions()) yield ['editions', marked(edition)];
  for (let i = 0; i < c.events; i++) yield ['events', marked(demo.event(i))];
}

/** The document's text, written from the same entities as `demoEntities`, in chunks of about 64 KiB. */
function* chunksOf(demo: DemoCatalogue): Generator<string> {
  const keys: readonly Collection[] = ['media', 'artists', 'venues', 'series', 'editions', 'events'];
  let chunk = '{';
  let opened = -1; // index in keys of the array being written
  let n = 0;
  // closes the open array (if any) and opens the next one; collections with no entity stay as []
  const openNext = () => {
    chunk += `${opened < 0 ? '' : '\n],'}\n"${keys[++opened]}":[`;
    n = 0;
  };
  for (const [key, item] of entitiesOf(demo)) {
    while (keys[opened] !== key) openNext();
    chunk += `${n++ ? ',' : ''}\n${JSON.stringify(item)}`;
    if (chunk.length >= 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  while (opened < keys.length - 1) openNext();
  yield `${chunk}\n]\n}\n`;
}

/** The demo document as a byte stream (pull-based: generated as it is read). */
export function demoCatalogue(opts: DemoOptions = {}): Readable {
  const chunks = demoDocumentChunks(opts);
  return new Readable({
    read() {
      const next = chunks.next();
      this.push(next.done ? null : Buffer.from(next.value, 'utf8'));
    },
  });
}

/** Generates the demo catalogue and imports it (one transaction, like `lineup import`). */
export async function seedDemo(db: Database, opts: SeedOptions = {}): Promise<ImportSummary> {
  // The document is built in-process: its entities go straight to the importer's validation and
  // staging (the same validateEntity and rows as a document's), without being written as JSON
  // text and tokenized again — that round trip was about a third of a seed's Node CPU.
  return importEntities(db, demoEntities(opts), { replace: opts.replace ?? false, onProgress: opts.onProgress });
}
