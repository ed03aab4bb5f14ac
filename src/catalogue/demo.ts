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
import { DEFAULT_BATCH_SIZE, importEncoded, importEntities, type ImportProgress, type ImportSummary } from './importer.js';
import { defaultSeedWorkers, stageDemoInParallel } from './demo/seed-workers.js';
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
  /**
   * Worker threads that generate and encode the document (demo/seed-workers.ts); 0: in this
   * thread. Default: one per core (at most 4) from SEED_WORKERS_FROM Events on, else 0.
   */
  readonly workers?: number;
  /** Entities per staging batch (the importer's default). */
  readonly batchSize?: number;
}

export function demoCatalogueOf(opts: DemoOptions): DemoCatalogue {
  const events = opts.events ?? DEFAULT_DEMO_EVENTS;
  if (!Number.isSafeInteger(events) || events < 0) throw new RangeError(`events must be a whole number >= 0, got ${events}`);
  const anchorDate = opts.anchorDate ?? todayUtc();
  if (!isLocalDate(anchorDate)) throw new RangeError(`anchorDate must be a date YYYY-MM-DD, got ${anchorDate}`);
  return new DemoCatalogue(String(opts.seed ?? DEFAULT_DEMO_SEED), events, anchorDate);
}

/** The document text in chunks of about 64 KiB (options are checked at once). */
export function demoDocumentChunks(opts: DemoOptions = {}): Generator<string> {
  return chunksOf(demoCatalogueOf(opts));
}

/** The demo entities in document order, as the objects the document's text would parse to. */
export function demoEntities(opts: DemoOptions = {}): Generator<[Collection, unknown]> {
  return entitiesOf(demoCatalogueOf(opts));
}

/**
 * The document's arrays in order, each entity generated on demand by its index (every entity
 * carries its own change marker, demo/markers.ts). The Editions' indexes are listed up front as
 * (Series, edition) pairs — a seed worker keeps them, not the Editions (≈ 125,000 at 10 million
 * Events would not fit its bounded heap).
 */
export function demoSegments(demo: DemoCatalogue): DemoSegment[] {
  const c = demo.counts;
  // each entity is a new object: the marker is set on it rather than on a copy
  const marked = <T extends { publicId: string; updatedAt?: string | null }>(item: T): T => {
    item.updatedAt = demoMarker(demo.seed, demo.anchorDate, item.publicId);
    return item;
  };
  const editionSeries: number[] = [];
  const editionIndex: number[] = [];
  for (let j = 0; j < c.series; j++)
    for (let k = 0; k < demo.seriesInfo(j).editions.length; k++) {
      editionSeries.push(j);
      editionIndex.push(k);
    }
  return [
    { collection: 'media', count: c.media, entity: (i) => marked(demo.media(i)) },
    { collection: 'artists', count: c.artists, entity: (i) => marked(demo.artist(i)) },
    { collection: 'venues', count: c.venues, entity: (i) => marked(demo.venue(i)) },
    { collection: 'series', count: c.series, entity: (i) => marked(demo.series(i)) },
    { collection: 'editions', count: editionSeries.length, entity: (i) => marked(demo.edition(editionSeries[i]!, editionIndex[i]!)) },
    { collection: 'events', count: c.events, entity: (i) => marked(demo.event(i)) },
  ];
}

export interface DemoSegment {
  readonly collection: Collection;
  readonly count: number;
  readonly entity: (index: number) => unknown;
}

function* entitiesOf(demo: DemoCatalogue): Generator<[Collection, unknown]> {
  for (const { collection, count, entity } of demoSegments(demo)) for (let i = 0; i < count; i++) yield [collection, entity(i)];
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

/** From this many Events on, `lineup seed` generates and encodes in worker threads (demo/seed-workers.ts). */
export const SEED_WORKERS_FROM = 20_000;

/** Generates the demo catalogue and imports it (one transaction, like `lineup import`). */
export async function seedDemo(db: Database, opts: SeedOptions = {}): Promise<ImportSummary> {
  // the demo document lists every parent before its first Event (demoSegments): merged while its
  // Events are read (parents-first.ts)
  const importOptions = { replace: opts.replace ?? false, onProgress: opts.onProgress, batchSize: opts.batchSize, parentsFirst: true };
  const workers = opts.workers ?? ((opts.events ?? DEFAULT_DEMO_EVENTS) >= SEED_WORKERS_FROM ? defaultSeedWorkers() : 0);
  if (workers > 0) {
    const options: DemoOptions = { events: opts.events, seed: opts.seed, anchorDate: opts.anchorDate ?? todayUtc() };
    demoCatalogueOf(options); // checks the options here, before any worker starts
    const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
    return importEncoded(db, (stage, encoding) => stageDemoInParallel(options, workers, batchSize, stage, encoding), importOptions);
  }
  // The document is built in-process: its entities go straight to the importer's validation and
  // staging (the same validateEntity and rows as a document's), without being written as JSON
  // text and tokenized again — that round trip was about a third of a seed's Node CPU.
  return importEntities(db, demoEntities(opts), importOptions);
}
