/**
 * The statements of a merge (merge.ts), per collection: the upsert of its staged rows by publicId
 * (parents first; into an empty table a plain INSERT with ids from the staged order) and the
 * follow-up of stored entities that show a media of the document. Text only: merge.ts runs them.
 */
import { ARTIST_PUBLIC_MEDIA } from './artist-media.js';
import type { Collection } from './document.js';
import { PRIMARY_VENUE_KEYS_FROM_STAGE } from './primary-venue.js';
import { renderRichPreview, type PreviewMember } from '../queries/member-previews.js';
import { STAGE } from './rows.js';

/**
 * Public part of one profile media (rows.ts `mediaPublicPart`, stored on the media by its merge):
 * its six public fields (and `active`, so a read side that hides inactive media is covered) while
 * it is ready; '-' when it is not ready or absent.
 */
export function mediaPart(m: string): string {
  return `coalesce(${m}.public_part, '-')`;
}

/**
 * The staged Artists' profile media, one row per Artist that lists any (`ord`, as `am`), from one
 * join of every list with the merged media: `public_media_id` (artist-media.ts: the first active
 * and ready one by position, then publicId) and `media_hash`, the hash's media part (legacy
 * Artists: every ready profile media in position order): one join instead of two subqueries per
 * Artist, each probing the media by publicId. An Artist without profile media has no row: no public
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

/**
 * `fresh`: the table was empty before the merge, so every staged row is new (publicIds are unique
 * once checked) and the rows are inserted without `ON CONFLICT`, whose speculative insertion costs
 * a tenth of the INSERT. Each row's id is then the base `$1` plus its staged order (`StagedIds`),
 * so that the memberships find their owners without joining the staged rows with the stored ones
 * by publicId.
 */
export function upsertSql(collection: Collection, explicit: boolean, fresh: boolean): string {
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
    RETURNING ${fresh ? 't.updated_at' : 't.id, t.active, t.projection_hash, t.updated_at'})
  ${fresh ? FRESH_COUNTS : STORED_COUNTS(collection)}`;
}

/** Counts of an upsert into an empty table: every row is new, and its marker is set. */
const FRESH_COUNTS = `SELECT count(*)::int AS n, count(*)::int AS inserted, 0 AS changed, 0 AS deactivated,
         (count(*) FILTER (WHERE r.updated_at = now()))::int AS stamped FROM r`;

/**
 * Counts of an upsert into a table that holds rows, from what it returned joined by id with the
 * rows as they were: the statement's own snapshot, which its INSERT does not change. The planner
 * probes the primary key for a few returned rows and hashes the table for many (≈ 0.4 s over
 * 100,000 stored Events on PostgreSQL 15, beside the upsert's 10–24 s on a shared host).
 * Changed: the public projection's hash or the marker moved, whoever moved it (the import, or the
 * document's own `updatedAt`).
 */
const STORED_COUNTS = (collection: Collection) => `SELECT count(*)::int AS n,
         (count(*) FILTER (WHERE o.id IS NULL))::int AS inserted,
         (count(*) FILTER (WHERE o.projection_hash IS DISTINCT FROM r.projection_hash
                              OR o.updated_at IS DISTINCT FROM r.updated_at) - count(*) FILTER (WHERE o.id IS NULL))::int AS changed,
         (count(*) FILTER (WHERE o.active AND NOT r.active))::int AS deactivated,
         (count(*) FILTER (WHERE r.updated_at = now()))::int AS stamped
    FROM r LEFT JOIN ${collection} o ON o.id = r.id`;

/**
 * Stored hashes of an earlier formula (rows.ts `formerOwn`) brought to the current one where the
 * staged entity is what the store holds: its own part is what that formula makes of the staged
 * record, so nothing public changed and the upsert that follows must see no change (an Event
 * whose Artists were hashed in document order would otherwise advance once, on the first import
 * after the formula changed). The media part is kept, so a media change is still seen. A row
 * stored by the current formula never matches (the two hashes differ whenever one is staged).
 */
export function formerHashSql(collection: Collection): string {
  const table = STAGE[collection].table;
  return `UPDATE ${collection} t
     SET projection_hash = s.own_hash || ':' || split_part(t.projection_hash, ':', 2)
    FROM ${table} s
   WHERE s.former_own_hash IS NOT NULL AND s.valid AND t.public_id = s.public_id
     AND split_part(t.projection_hash, ':', 1) = s.former_own_hash`;
}

/** Entities absent from the document that show a media of the document: media part recomputed. */
export function mediaFollowSql(collection: Exclude<Collection, 'media'>): string {
  const notStaged = `NOT EXISTS (SELECT 1 FROM ${STAGE[collection].table} s WHERE s.public_id = e.public_id)`;
  const affected =
    collection === 'artists'
      ? `SELECT e.id, split_part(e.projection_hash, ':', 1) || ':' || ${ARTIST_MEDIA_STORED} AS h
           FROM artists e
          WHERE EXISTS (SELECT 1 FROM artist_profile_media p JOIN media m ON m.id = p.media_id
                          JOIN stage_media sm ON sm.public_id = m.public_id WHERE p.artist_id = e.id)
            AND ${notStaged}`
      : // Joined from the staged media (publicIds unique once checked), not filtered by an EXISTS on
        // them: with the EXISTS, PostgreSQL 15 plans a merge semi join over media in publicId
        // order that feeds a nested loop comparing every media with every entity (minutes for a
        // catalogue imported into another).
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

