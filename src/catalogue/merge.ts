/**
 * Merge of the checked staging tables into the catalogue, inside the import transaction.
 *
 * 1. Upsert by publicId, parents first (media, artists, venues, series, editions, events).
 *    `projection_hash` = own hash (rows.ts) + ':' + media part (below). `updated_at`: the
 *    document's `updatedAt` when given (stored exactly); otherwise the import time (`now()`,
 *    one value per transaction) when the hash differs from the stored one, else unchanged.
 *    Hashes stored by an earlier formula are first brought to the current one where the staged
 *    entity is unchanged (merge-statements.ts `formerHashSql`).
 * 2. Memberships of every imported entity are replaced (positions = index in the document).
 * 3. Entities absent from the document whose profile media is in it get their media part
 *    recomputed: a ready media whose public fields change advances their markers too.
 * 4. With --replace, entities absent from the document are deleted (children first).
 * 5. Derived data: primary Venue keys, Artist public media, Artist and Venue rich previews (stored
 *    with the rows written, then for members absent from the document showing one of its media),
 *    stored Event previews, Event places.
 * When nothing was stored before, every entity is the document's: steps 3 and 4, and step 5's
 * follow-ups of entities absent from the document, are skipped. Into empty tables, the secondary
 * indexes and foreign keys are built after the load (an entity table's own keys right after its
 * rows), and the upserts are plain INSERTs; a first import's stored Event previews are written
 * after its COMMIT (bulk-load.ts, after-commit.ts).
 *
 * The statements of steps 1 and 3 are written in merge-statements.ts; the statistics in
 * statistics.ts. Steps 1 and 2 of the parents may run while the Events are still read
 * (parents-first.ts, `StagedMerge`); the rest follows the reading.
 */
import type pg from 'pg';
import { COLLECTIONS, type Collection } from './document.js';
import { refreshArtistPublicMedia } from './artist-media.js';
import { deferIndexes, type DeferredIndexes } from './bulk-load.js';
import type { DirectMemberships } from './direct-memberships.js';
import { refreshEventPlaces } from './event-places.js';
import { isBulkImport, refreshEventPreviews } from './event-previews.js';
import { MEMBERSHIP_TABLES, mergeMemberships, type CountedList, type StagedIds } from './memberships.js';
import { formerHashSql, mediaFollowSql, upsertSql } from './merge-statements.js';
import { refreshMemberPreviews } from './member-previews.js';
import { refreshPrimaryVenueKeys } from './primary-venue.js';
import { STAGE } from './rows.js';
import { CATALOGUE_TABLES, EVENT_PLACES_READ, type StatisticsScope } from './statistics.js';

export { refreshStatistics, type StatisticsScope } from './statistics.js';

export interface CollectionCounts {
  /** entities of this collection in the document */
  imported: number;
  /** of which new */
  inserted: number;
  /** of which stored before, whose public projection (fields, memberships, media) or updatedAt changed */
  changed: number;
  /** of which stored before and active, now inactive (counted in `changed` too) */
  deactivated: number;
  /** of which stored before, with the same public projection and updatedAt */
  unchanged: number;
  /** entities absent from the document whose profile media's public fields changed (their markers advanced) */
  followed: number;
  /** entities whose updatedAt became the import time (imported or showing an imported media) */
  markersAdvanced: number;
  /** removed by --replace */
  deleted: number;
}

const NO_COUNTS: CollectionCounts = { imported: 0, inserted: 0, changed: 0, deactivated: 0, unchanged: 0, followed: 0, markersAdvanced: 0, deleted: 0 };

/** The next value of `table`'s identity sequence (a bigint, as text). */
async function nextId(client: pg.PoolClient, table: Collection): Promise<string> {
  const { rows } = await client.query<{ id: string }>(`SELECT nextval(pg_get_serial_sequence($1, 'id')) AS id`, [table]);
  return rows[0]!.id;
}

async function count(client: pg.PoolClient, sql: string, params: unknown[] = []): Promise<Record<string, number>> {
  return (await client.query<Record<string, number>>(sql, params)).rows[0]!;
}

export interface MergeResult {
  readonly counts: Record<Collection, CollectionCounts>;
  /** The catalogue tables whose statistics `refreshStatistics` must refresh after COMMIT. */
  readonly statistics: StatisticsScope;
}

/** The staged lists whose references the checks left to the merge (checks.ts `checkStaging`). */
export interface CountedReferences {
  readonly lists: readonly CountedList[];
  /** Called when a list wrote fewer memberships than it has elements: names the problems, throws. */
  readonly unresolved: () => Promise<void>;
}

/**
 * One merge, in steps: `begin` (a first import's indexes and foreign keys dropped), the upserts of
 * some collections, their memberships, then `finish`. `mergeStaging` takes every step at once; a
 * document whose parents come before its Events has the parents' steps taken while its Events are
 * still read (parents-first.ts), on the import's connection, and the rest once they are staged.
 * The collections are upserted in COLLECTIONS order, parents before the collections joining them.
 */
export class StagedMerge {
  readonly counts = Object.fromEntries(
    COLLECTIONS.map((c) => [c, { ...NO_COUNTS }]),
  ) as Record<Collection, CollectionCounts>;
  /** The ids of the rows written into empty tables (memberships.ts). */
  private readonly ids: StagedIds = {};
  private readonly upserted = new Set<Collection>();

  private constructor(
    private readonly client: pg.PoolClient,
    private readonly deferred: DeferredIndexes,
  ) {}

  static async begin(client: pg.PoolClient): Promise<StagedMerge> {
    return new StagedMerge(client, await deferIndexes(client));
  }

  /** True once `collection` is upserted. */
  has(collection: Collection): boolean {
    return this.upserted.has(collection);
  }

  /** Upserts the staged rows of `collections` (each once; in COLLECTIONS order, after the ones before them). */
  async upsert(collections: readonly Collection[]): Promise<void> {
    const { client, deferred, counts, ids } = this;
    for (const collection of COLLECTIONS.filter((c) => collections.includes(c))) {
      if (this.upserted.has(collection)) throw new Error(`the merge upserted ${collection} twice`);
      const before = COLLECTIONS.slice(0, COLLECTIONS.indexOf(collection));
      if (before.some((c) => !this.upserted.has(c))) throw new Error(`the merge reached ${collection} before the collections it joins`);
      this.upserted.add(collection);
      const fresh = deferred.empty.has(collection);
      // the ids of an empty table's rows: one value of its sequence, then its order
      const base = fresh ? await nextId(client, collection) : undefined;
      if (!fresh && STAGE[collection].formerOwn) await client.query(formerHashSql(collection));
      // (an empty table's keys are built after its rows, before the next collection joins it)
      await deferred.writing(collection, async () => {
        for (const explicit of [false, true]) {
          const r = await count(client, upsertSql(collection, explicit, fresh), base === undefined ? [] : [base]);
          const c = counts[collection];
          c.imported += r.n!;
          c.inserted += r.inserted!;
          c.changed += r.changed!;
          c.deactivated += r.deactivated!;
          c.unchanged += r.n! - r.inserted! - r.changed!;
          c.markersAdvanced += r.stamped!;
        }
      });
      if (base !== undefined) {
        ids[collection] = base;
        // the next id after those written (the keys are back: max(id) is one index probe)
        await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT max(id) FROM ${collection}))`, [collection]);
      }
    }
  }

  /**
   * Replaces the memberships owned by the staged rows of `owners` (upserted already, as are their
   * members); false when a list of `counted` wrote fewer memberships than it has elements
   * (memberships.ts `mergeMemberships`).
   */
  async memberships(owners: readonly Collection[], counted?: readonly CountedList[], direct?: DirectMemberships): Promise<boolean> {
    if (owners.some((c) => !this.upserted.has(c))) throw new Error('the merge wrote memberships before their owners');
    return mergeMemberships(this.client, counted, this.ids, direct, owners);
  }

  /**
   * The steps after the upserts and memberships of every collection: the membership keys, the
   * statistics, the follow-ups of stored entities or the deletions of --replace, the derived
   * data, and the deferred keys and indexes.
   */
  async finish(replace: boolean): Promise<MergeResult> {
    if (COLLECTIONS.some((c) => !this.upserted.has(c))) throw new Error('the merge finished before every collection was upserted');
    return finishMerge(this.client, this.deferred, this.counts, replace);
  }
}

/**
 * Merges the staging tables; returns per-collection counts. `begun`: a merge whose parents were
 * upserted while the Events were read (parents-first.ts); `resolved` false when their lists did not
 * all resolve.
 */
export async function mergeStaging(
  client: pg.PoolClient,
  replace: boolean,
  counted?: CountedReferences,
  direct?: DirectMemberships,
  begun?: { readonly merge: StagedMerge; readonly resolved: boolean },
): Promise<MergeResult> {
  const merge = begun?.merge ?? (await StagedMerge.begin(client));
  if (begun && !begun.resolved && counted) await counted.unresolved();
  const rest = COLLECTIONS.filter((c) => !merge.has(c));
  await merge.upsert(rest);
  // right after the memberships: nothing else is written on a dangling reference
  if (!(await merge.memberships(rest, counted?.lists, direct)) && counted) await counted.unresolved();
  return merge.finish(replace);
}

async function finishMerge(
  client: pg.PoolClient,
  deferred: DeferredIndexes,
  counts: Record<Collection, CollectionCounts>,
  replace: boolean,
): Promise<MergeResult> {
  // a first import's membership keys, dropped for the load: the previews read them in Event order
  await deferred.restoreKeys(MEMBERSHIP_TABLES);

  // The steps below join the merged tables with the staged ones. Planned on the statistics from
  // before a bulk import, they go wrong (a catalogue imported into another spends minutes in the
  // media follow-ups and the preview targets). ANALYZE inside the transaction samples the new rows.
  // A first import's Events are analyzed whole after COMMIT (`refreshStatistics`, `since-merge`):
  // here only what the Event places' join reads of them (≈ 0.5 s against ≈ 1.6–1.9 s at 1,000,000).
  const analyzed = await isBulkImport(client);
  const everyTableEmpty = COLLECTIONS.every((c) => deferred.empty.has(c));
  const tables = CATALOGUE_TABLES.map((t) => (t === 'events' && everyTableEmpty ? `events (${EVENT_PLACES_READ})` : t));
  if (analyzed) await client.query(`ANALYZE ${tables.join(', ')}`);
  if (everyTableEmpty) {
    // Nothing was stored before: every entity is the document's, none is absent from it to delete
    // or to follow up (at 1,000,000 Events, ≈ 4 s of statements that changed nothing).
  } else if (replace) {
    for (const collection of [...COLLECTIONS].reverse()) {
      const r = await count(
        client,
        `WITH r AS (DELETE FROM ${collection} t
                     WHERE NOT EXISTS (SELECT 1 FROM ${STAGE[collection].table} s WHERE s.public_id = t.public_id)
                    RETURNING 1)
         SELECT count(*)::int AS n FROM r`,
      );
      counts[collection].deleted = r.n!;
    }
  } else {
    for (const collection of COLLECTIONS) {
      if (collection === 'media') continue;
      const followed = (await count(client, mediaFollowSql(collection))).n!;
      counts[collection].followed += followed;
      counts[collection].markersAdvanced += followed;
    }
    // derived columns of entities the document does not carry (with --replace, there are none)
    await refreshPrimaryVenueKeys(client);
    await refreshArtistPublicMedia(client);
    // after the Artists' public media: the members the document does not carry that show its media
    await refreshMemberPreviews(client);
  }
  // last: the previews read the merged members, memberships and Artist public media (a first
  // import's are filled after its COMMIT: bulk-load.ts)
  if (!deferred.first) await refreshEventPreviews(client, { analyzed });
  await refreshEventPlaces(client, deferred.first);
  await deferred.restore();
  return { counts, statistics: analyzed && everyTableEmpty ? 'since-merge' : 'all' };
}

