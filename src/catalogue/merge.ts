/**
 * Merge of the checked staging tables into the catalogue, inside the import transaction.
 *
 * 1. Upsert by publicId, parents first (media, artists, venues, series, editions, events).
 *    `projection_hash` = own hash (rows.ts) + ':' + media part (below). `updated_at`: the
 *    document's `updatedAt` when given (stored exactly); otherwise the import time (`now()`,
 *    one value per transaction) when the hash differs from the stored one, else unchanged.
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
 */
import type pg from 'pg';
import { COLLECTIONS, type Collection } from './document.js';
import { ARTIST_PUBLIC_MEDIA, refreshArtistPublicMedia } from './artist-media.js';
import { deferIndexes } from './bulk-load.js';
import { refreshEventPlaces } from './event-places.js';
import { isBulkImport, refreshEventPreviews } from './event-previews.js';
import { MEMBERSHIP_TABLES, mergeMemberships, type CountedList, type StagedIds } from './memberships.js';
import { refreshMemberPreviews } from './member-previews.js';
import { PRIMARY_VENUE_KEYS_FROM_STAGE, refreshPrimaryVenueKeys } from './primary-venue.js';
import { renderRichPreview, type PreviewMember } from '../queries/member-previews.js';
import { STAGE } from './rows.js';

/**
 * Public part of one profile media (rows.ts `mediaPublicPart`, stored on the media by its merge):
 * its six public fields (and `active`, so a read side that hides inactive media is covered) while
 * it is ready; '-' when it is not ready or absent.
 */
function mediaPart(m: string): string {
  return `coalesce(${m}.public_part, '-')`;
}

/**
 * The staged Artists' profile media, one row per Artist that lists any (`ord`, as `am`), from one
 * join of every list with the merged media: `public_media_id` (artist-media.ts: the first active
 * and ready one by position, then publicId) and `media_hash`, the hash's media part (legacy
 * Artists: every ready profile media in position order). As two subqueries per Artist, each
 * probing the media by publicId, the 250,000 Artists' INSERT took 5.4–6.6 s at 1,000,000 Events,
 * with the join 4.5–5.5 s (session 30). An Artist without profile media has no row: no public
 * media, part '-'.
 */
const ARTIST_MEDIA_FROM_STAGE = (pass: (alias: string) => string) => `LEFT JOIN (
    SELECT a.ord,
           (array_agg(m.id ORDER BY t.pos, m.public_id) FILTER (WHERE ${ARTIST_PUBLIC_MEDIA}))[1] AS public_media_id,
           md5(string_agg(${mediaPart('m')}, ',' ORDER BY t.pos) FILTER (WHERE m.status = 'ready')) AS media_hash
      FROM ${STAGE.artists.table} a CROSS JOIN LATERAL unnest(a.profile_media_pids) WITH ORDINALITY AS t(pid, pos)
      JOIN media m ON m.public_id = t.pid
     WHERE ${pass('a')}
     GROUP BY a.ord) am ON am.ord = s.ord`;
const ARTIST_MEDIA_STORED = `coalesce((SELECT md5(string_agg(${mediaPart('m')}, ',' ORDER BY p.position))
  FROM artist_profile_media p JOIN media m ON m.id = p.media_id
  WHERE p.artist_id = e.id AND m.status = 'ready'), '-')`;

const same = (...names: string[]) => names.map((n) => [n, `s.${n}`] as const);
const PROFILE = `LEFT JOIN media m ON m.public_id = s.profile_media_pid`;
const WITH_PROFILE = `s.own_hash || ':' || ${mediaPart('m')}`;

interface MergeSpec {
  readonly columns: ReadonlyArray<readonly [column: string, expression: string]>;
  /** Joined to the staged rows `s`; `pass`: the condition on a staged row's alias that selects this pass's rows. */
  readonly joins: string | ((pass: (alias: string) => string) => string);
  readonly hash: string;
  /** A member whose rich preview is stored on its row (migration 017), rendered from the row written. */
  readonly preview?: PreviewMember;
}

const MERGE: Record<Collection, MergeSpec> = {
  media: {
    columns: same('active', 'status', 'src', 'thumbnail_src', 'alt_text', 'width', 'height', 'original_filename',
      'upload_name', 'storage_key', 'blur_data_url', 'authoring', 'public_part'),
    joins: '',
    hash: 's.own_hash',
  },
  artists: {
    columns: [
      ...same('active', 'slug', 'name', 'name_lower', 'description', 'links', 'authoring'),
      ['public_media_id', 'am.public_media_id'], // media merge first
    ],
    joins: ARTIST_MEDIA_FROM_STAGE,
    hash: `s.own_hash || ':' || coalesce(am.media_hash, '-')`,
    preview: 'artists',
  },
  venues: {
    columns: [
      ...same('active', 'slug', 'name', 'name_lower', 'description', 'status_code', 'capacity', 'contact_email',
        'contact_phone', 'has_address', 'formatted_address', 'locality', 'locality_key', 'country_name',
        'country_name_lower', 'country_code', 'latitude', 'longitude', 'publish_coordinates', 'address_provenance',
        'time_zone_suggestion'),
      ['profile_media_id', 'm.id'],
      ...same('links', 'authoring'),
    ],
    joins: PROFILE,
    hash: WITH_PROFILE,
    preview: 'venues',
  },
  series: {
    columns: [...same('active', 'slug', 'name', 'name_lower', 'description', 'structure_code'), ['profile_media_id', 'm.id'], ...same('links', 'authoring')],
    joins: PROFILE,
    hash: WITH_PROFILE,
  },
  editions: {
    columns: [
      ...same('active'),
      ['series_id', 'sr.id'],
      ...same('slug', 'name', 'name_lower', 'start_local_date', 'end_local_date', 'description'),
      ['profile_media_id', 'm.id'],
      ...same('links', 'authoring'),
    ],
    joins: `JOIN series sr ON sr.public_id = s.series_pid ${PROFILE}`,
    hash: WITH_PROFILE,
  },
  events: {
    columns: [
      ...same('active', 'slug', 'name', 'name_lower', 'name_folded', 'description', 'event_type_code',
        'administrative_state_code', 'time_zone'),
      // IN, not EXISTS: a hashed subplan, not a scan of the ≈ 1,200 zone names per Event
      ['time_zone_known', `coalesce(s.time_zone IN (SELECT z.name FROM stage_zones z), false)`],
      ...same('start_precision', 'start_local_date', 'start_local_time', 'start_instant'),
      ['start_at', 's.start_instant::timestamptz'],
      ...same('end_precision', 'end_local_date', 'end_local_time', 'end_instant'),
      ['end_at', 's.end_instant::timestamptz'],
      ['profile_media_id', 'm.id'],
      ...same('links', 'ticket_links', 'digital_locations', 'authoring'),
      // computed with the row, so a bulk import writes each Event once (Venues merge first)
      ['primary_locality_key', 'pk.locality_key'],
      ['primary_country_key', 'pk.country_key'],
    ],
    joins: `${PROFILE} LEFT JOIN LATERAL (${PRIMARY_VENUE_KEYS_FROM_STAGE}) pk ON true`,
    hash: WITH_PROFILE,
  },
};

export interface CollectionCounts {
  /** entities of this collection in the document */
  imported: number;
  /** of which new */
  inserted: number;
  /** entities whose updatedAt became the import time (imported or showing an imported media) */
  markersAdvanced: number;
  /** removed by --replace */
  deleted: number;
}

/**
 * `fresh`: the table was empty before the merge, so every staged row is new (publicIds are unique
 * once checked) and the rows are inserted without `ON CONFLICT`, whose speculative insertion cost
 * 1.7 s of the Events' 15.5 s at 1,000,000 (session 15). Each row's id is then the base `$1` plus
 * its staged order (`StagedIds`), so that the memberships find their owners without joining the
 * staged rows with the stored ones by publicId (≈ 1 s of the 1,000,000 Events, session 30).
 */
function upsertSql(collection: Collection, explicit: boolean, fresh: boolean): string {
  const spec = MERGE[collection];
  const own = ['public_id', ...spec.columns.map(([c]) => c), 'updated_at', 'projection_hash'];
  const written = fresh ? ['id', ...own] : own;
  const values = [
    ...(fresh ? ['$1::bigint + s.ord'] : []),
    's.public_id', ...spec.columns.map(([, e]) => e), explicit ? 's.updated_at' : 'now()', spec.hash,
  ];
  const pass = (alias: string) => `${alias}.updated_at IS ${explicit ? 'NOT ' : ''}NULL`;
  const joins = typeof spec.joins === 'string' ? spec.joins : spec.joins(pass);
  const from = `FROM ${STAGE[collection].table} s ${joins}
     WHERE ${pass('s')}`;
  // an Artist's or Venue's rich preview is rendered from the row being written: its values under
  // their columns' names (and types), then the one rendering of queries/member-previews.ts
  const preview = spec.preview;
  const columns = preview === undefined ? written : [...written, 'rich_preview'];
  const select =
    preview === undefined
      ? `SELECT ${values.join(', ')} ${from}`
      : // OFFSET 0 keeps `n` a subquery of its own: pulled up, each of its columns the rendering
        // reads was its expression again (an Artist's public media picked twice per row)
        `SELECT n.*, ${renderRichPreview(preview, 'n')}
      FROM (SELECT ${values.map((v, i) => `${v} AS ${written[i]}`).join(', ')} ${from} OFFSET 0) n`;
  const updatedAt = explicit ? 'EXCLUDED.updated_at' : 'CASE WHEN t.projection_hash = EXCLUDED.projection_hash THEN t.updated_at ELSE EXCLUDED.updated_at END';
  const sets = [
    ...spec.columns.map(([c]) => `${c} = EXCLUDED.${c}`),
    ...(preview === undefined ? [] : ['rich_preview = EXCLUDED.rich_preview']),
    'projection_hash = EXCLUDED.projection_hash',
    `updated_at = ${updatedAt}`,
    // an Event counts the changes of its marker (migration 015: the calendar feeds' SEQUENCE)
    ...(collection === 'events' ? [`revision = t.revision + CASE WHEN ${updatedAt} IS DISTINCT FROM t.updated_at THEN 1 ELSE 0 END`] : []),
  ];
  const conflict = fresh ? '' : `ON CONFLICT (public_id) DO UPDATE SET ${sets.join(', ')}`;
  return `WITH r AS (
    INSERT INTO ${collection} AS t (${columns.join(', ')})${fresh ? ' OVERRIDING SYSTEM VALUE' : ''}
    ${select}
    ${conflict}
    RETURNING (t.xmax::text = '0') AS inserted, (t.updated_at = now()) AS stamped)
  SELECT count(*)::int AS n, (count(*) FILTER (WHERE inserted))::int AS inserted,
         (count(*) FILTER (WHERE stamped))::int AS stamped FROM r`;
}

/** Entities absent from the document that show a media of the document: media part recomputed. */
function mediaFollowSql(collection: Exclude<Collection, 'media'>): string {
  const notStaged = `NOT EXISTS (SELECT 1 FROM ${STAGE[collection].table} s WHERE s.public_id = e.public_id)`;
  const affected =
    collection === 'artists'
      ? `SELECT e.id, split_part(e.projection_hash, ':', 1) || ':' || ${ARTIST_MEDIA_STORED} AS h
           FROM artists e
          WHERE EXISTS (SELECT 1 FROM artist_profile_media p JOIN media m ON m.id = p.media_id
                          JOIN stage_media sm ON sm.public_id = m.public_id WHERE p.artist_id = e.id)
            AND ${notStaged}`
      : // Joined from the staged media (publicIds unique once checked), not filtered by an EXISTS on
        // them: with the EXISTS, PostgreSQL 15 planned a merge semi join over media in publicId
        // order that fed a nested loop comparing every media with every entity (> 11 minutes for
        // 100,000 Events imported into 100,000 others; docs/performance.md).
        `SELECT e.id, split_part(e.projection_hash, ':', 1) || ':' || ${mediaPart('m')} AS h
           FROM stage_media sm JOIN media m ON m.public_id = sm.public_id
           JOIN ${collection} e ON e.profile_media_id = m.id
          WHERE ${notStaged}`;
  return `WITH r AS (
    UPDATE ${collection} t SET projection_hash = x.h, updated_at = now()${collection === 'events' ? ', revision = t.revision + 1' : ''}
      FROM (${affected}) x
     WHERE t.id = x.id AND t.projection_hash <> x.h
    RETURNING 1)
  SELECT count(*)::int AS n FROM r`;
}

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

/**
 * Every catalogue table, or `since-merge`: the merge analyzed them all inside the transaction (the
 * Events only in the columns the places' join reads) and then wrote only the Event places, so only
 * those, the Events and the tables with expression indexes (built after COMMIT, their expressions
 * sampled by ANALYZE) are left — a bulk first import.
 */
export type StatisticsScope = 'all' | 'since-merge';

/** The staged lists whose references the checks left to the merge (checks.ts `checkStaging`). */
export interface CountedReferences {
  readonly lists: readonly CountedList[];
  /** Called when a list wrote fewer memberships than it has elements: names the problems, throws. */
  readonly unresolved: () => Promise<void>;
}

/** Merges the staging tables; returns per-collection counts. */
export async function mergeStaging(client: pg.PoolClient, replace: boolean, counted?: CountedReferences): Promise<MergeResult> {
  const counts = Object.fromEntries(
    COLLECTIONS.map((c) => [c, { imported: 0, inserted: 0, markersAdvanced: 0, deleted: 0 }]),
  ) as Record<Collection, CollectionCounts>;
  const deferred = await deferIndexes(client);
  const ids: StagedIds = {};

  for (const collection of COLLECTIONS) {
    const fresh = deferred.empty.has(collection);
    // the ids of an empty table's rows: one value of its sequence, then its order
    const base = fresh ? await nextId(client, collection) : undefined;
    // (an empty table's keys are built after its rows, before the next collection joins it)
    await deferred.writing(collection, async () => {
      for (const explicit of [false, true]) {
        const r = await count(client, upsertSql(collection, explicit, fresh), base === undefined ? [] : [base]);
        counts[collection].imported += r.n!;
        counts[collection].inserted += r.inserted!;
        counts[collection].markersAdvanced += r.stamped!;
      }
    });
    if (base !== undefined) {
      ids[collection] = base;
      // the next id after those written (the keys are back: max(id) is one index probe)
      await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT max(id) FROM ${collection}))`, [collection]);
    }
  }

  // right after the memberships: nothing else is written on a dangling reference
  if (!(await mergeMemberships(client, counted?.lists, ids)) && counted) await counted.unresolved();

  // a first import's membership keys, dropped for the load: the previews read them in Event order
  await deferred.restoreKeys(MEMBERSHIP_TABLES);

  // The steps below join the merged tables with the staged ones. Planned on the statistics of
  // before a bulk import, they went wrong: a second 100,000-Event catalogue imported into a first
  // spent 40 s in the Venues' media follow-up, 21 s on Artist public media and 62 s collecting the
  // preview targets (docs/performance.md). ANALYZE inside the transaction samples the new rows.
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
      counts[collection].markersAdvanced += (await count(client, mediaFollowSql(collection))).n!;
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

/** The columns of `events` the Event places' statement joins and filters on (event-places.ts). */
const EVENT_PLACES_READ = 'id, active';

/** Every catalogue table the read side plans queries over. */
const CATALOGUE_TABLES = [
  'media', 'artists', 'artist_profile_media', 'venues', 'series', 'editions', 'edition_venues',
  'events', 'event_artists', 'event_venues', 'event_series', 'event_editions', 'event_gallery', 'event_places',
] as const;

/**
 * Refreshes the planner's statistics after an import is committed. Without them the first reads
 * after a bulk load are planned on empty-table estimates (nested loops over what the planner
 * believes are empty tables), many times slower than after ANALYZE (docs/performance.md).
 * Autovacuum would get there, but only after its next naptime and threshold; a service must be
 * fast from its first request.
 *
 * Its own transaction, without the API's lock and statement timeouts: right after a large COMMIT,
 * autovacuum starts analyzing the same tables, and ANALYZE waits for its lock. PostgreSQL cancels
 * an autovacuum worker that blocks a lock request after `deadlock_timeout` (1 s by default), so
 * the pool's 500 ms lock timeout failed a committed 1,000,000-Event seed (session 10).
 */
export async function refreshStatistics(client: pg.PoolClient, engine: 'postgres' | 'pglite', scope: StatisticsScope = 'all'): Promise<void> {
  await client.query('BEGIN');
  try {
    if (engine === 'postgres') {
      await client.query('SET LOCAL statement_timeout = 0');
      await client.query('SET LOCAL lock_timeout = 0');
    }
    // after a bulk first import, 2 of the 14 tables (at 1,000,000 Events: ≈ 4–7 s → ≈ 1.5 s,
    // and fewer tables whose ANALYZE waits for autovacuum's; session 29)
    const tables = scope === 'all' ? CATALOGUE_TABLES : await leftToAnalyze(client);
    await client.query(`ANALYZE ${tables.join(', ')}`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/**
 * `since-merge`: the Event places, the Events (analyzed in the transaction for the places' join
 * only: `mergeStaging`), and the catalogue tables with an expression index.
 */
async function leftToAnalyze(client: pg.PoolClient): Promise<readonly string[]> {
  const { rows } = await client.query<{ table: string }>(
    `SELECT DISTINCT c.relname AS table FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
      WHERE i.indexprs IS NOT NULL AND i.indrelid = ANY($1::regclass[])`,
    [CATALOGUE_TABLES],
  );
  return [...new Set(['event_places', 'events', ...rows.map((r) => r.table)])];
}
