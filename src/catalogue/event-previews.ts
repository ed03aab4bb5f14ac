/**
 * Keeps each Event's stored Artist and Venue previews (migration 005) in step with the catalogue.
 * The rows are written from the preview statements' own template (queries/event-relations.ts: the
 * same members, order, columns and joins; each member shown rendered once, then every target
 * Event's arrays in one statement), and rewritten only where they changed.
 *
 * After a merge, the Events whose previews may have changed are: the Events of the document
 * (their memberships were replaced), the Events of imported Artists and Venues (name, slug,
 * activity, status, address… may have changed), the Events of Artists and Venues showing an
 * imported media (its status or public fields may have changed). A --replace import keeps only the
 * Events of its document, all of them refreshed. A first import's are written after its COMMIT
 * (after-commit.ts), Events stored before migration 005 got their rows when it ran
 * (src/db/migrate.ts), and an Event without a row is read live by the read side.
 */
import type pg from 'pg';
import { storedArtistPreviewTexts, storedVenuePreviewTexts } from '../queries/event-relations.js';
import { STAGE } from './rows.js';

const TARGETS = 'preview_targets';
/** The tables the preview statements read (their statistics guide the statement's plan). */
const READ_TABLES = 'event_artists, event_venues, artists, venues, media, artist_profile_media';
const ANALYZE_FIRST = 1_000;

/** Every Event without a stored row (after migration 005). */
const MISSING_SQL = 'SELECT e.id FROM events e WHERE NOT EXISTS (SELECT 1 FROM event_previews p WHERE p.event_id = e.id)';

/** Event ids whose previews an import may have changed (read after the merge). */
const AFTER_IMPORT = `
  SELECT e.id FROM events e JOIN ${STAGE.events.table} s ON s.public_id = e.public_id
  UNION SELECT ea.event_id FROM event_artists ea JOIN artists a ON a.id = ea.artist_id
    JOIN ${STAGE.artists.table} s ON s.public_id = a.public_id
  UNION SELECT ea.event_id FROM event_artists ea JOIN artist_profile_media apm ON apm.artist_id = ea.artist_id
    JOIN media m ON m.id = apm.media_id JOIN ${STAGE.media.table} s ON s.public_id = m.public_id
  UNION SELECT ev.event_id FROM event_venues ev JOIN venues v ON v.id = ev.venue_id
    JOIN ${STAGE.venues.table} s ON s.public_id = v.public_id
  UNION SELECT ev.event_id FROM event_venues ev JOIN venues v ON v.id = ev.venue_id
    JOIN media m ON m.id = v.profile_media_id JOIN ${STAGE.media.table} s ON s.public_id = m.public_id`;

/**
 * Rows staged by this import for the collections whose rows the previews read: the row counts
 * ANALYZE left on the staging tables (staging.ts `finishStaging`; exact up to 30,000 rows, an
 * estimate beyond, either way far from the threshold): counting them would read every staged row
 * again.
 */
const STAGED = `SELECT coalesce(sum(greatest(c.reltuples, 0)), 0) AS n FROM pg_class c
   WHERE c.oid IN (${(['events', 'artists', 'venues', 'media'] as const).map((c) => `'${STAGE[c].table}'::regclass`).join(', ')})`;

/** The temporary tables of the members shown, each rendered once. */
const ARTIST_MEMBERS = 'preview_artist_members';
const VENUE_MEMBERS = 'preview_venue_members';

/**
 * How a refresh finds its Events: `targets` lists them (a SELECT of ids, into a temporary table);
 * `every` takes every Event, one pass over the memberships in Event order.
 */
type Refresh =
  | { readonly kind: 'targets'; readonly select: string; readonly analyze: boolean }
  | { readonly kind: 'every'; readonly empty: boolean };

/**
 * The statements of one refresh. Targets: rows rewritten only where they changed. Every Event (a
 * first import's previews, after its COMMIT): rows missing only; a row already there was written
 * by a later import, from rows as new as these. Into an empty table, a plain INSERT: `ON CONFLICT`
 * inserts each row speculatively, a tenth or more of the statement's time.
 */
function previewStatements(refresh: Refresh) {
  const targets = refresh.kind === 'every' ? null : TARGETS;
  const artists = storedArtistPreviewTexts(targets);
  const venues = storedVenuePreviewTexts(targets);
  const members = [
    [ARTIST_MEMBERS, artists.members],
    [VENUE_MEMBERS, venues.members],
  ] as const;
  const insert = `INSERT INTO event_previews (event_id, artists, venues)
    SELECT x.id, coalesce(a.items, '[]'), coalesce(v.items, '[]')
      FROM ${targets ?? 'events'} x
      LEFT JOIN (${artists.items(ARTIST_MEMBERS)}) a ON a.event_id = x.id
      LEFT JOIN (${venues.items(VENUE_MEMBERS)}) v ON v.event_id = x.id`;
  const store = refresh.kind === 'every'
    ? refresh.empty ? insert : `${insert}
    ON CONFLICT (event_id) DO NOTHING`
    : `${insert}
    ON CONFLICT (event_id) DO UPDATE SET artists = EXCLUDED.artists, venues = EXCLUDED.venues
     WHERE event_previews.artists::text IS DISTINCT FROM EXCLUDED.artists::text
        OR event_previews.venues::text IS DISTINCT FROM EXCLUDED.venues::text`;
  return { members, store };
}

/**
 * Writes the stored previews of the Events `which` names from the plain preview statements'
 * template (queries/event-relations.ts), so that stored and read previews cannot differ. Each
 * member shown is rendered once into a keyed temporary table, then one statement writes every
 * Event's arrays: rendered per member rather than per membership row (a popular Artist is shown by
 * many Events), and, for every Event, with no targets collected and the arrays merged in Event
 * order.
 */
async function refresh(client: pg.PoolClient, which: Refresh): Promise<number> {
  const { members, store } = previewStatements(which);
  // (dropped below; a failure rolls the transaction back, and the tables with it)
  if (which.kind === 'targets') {
    await client.query(`CREATE TEMP TABLE ${TARGETS} AS SELECT DISTINCT t.id FROM (${which.select}) t`);
    // A bulk import has just filled the member and membership tables: planned on their old
    // statistics (empty, for a first import: a sequential scan per Event), the statement's cost
    // would grow with the catalogue (docs/architecture.md#the-importer). ANALYZE inside the transaction samples the
    // rows it wrote; the targets' own statistics choose between probing a few Events and one pass
    // over all.
    await client.query(`ANALYZE ${[TARGETS, ...(which.analyze ? [READ_TABLES] : [])].join(', ')}`);
  }
  // keyed, so that each membership finds its member's text by an index probe in Event order
  for (const [table, select] of members) {
    await client.query(`CREATE TEMP TABLE ${table} AS ${select}`);
    await client.query(`ALTER TABLE ${table} ADD PRIMARY KEY (id)`);
    await client.query(`ANALYZE ${table}`);
  }
  // Every Event: both arrays come out of their GroupAggregates in Event order and join the Events
  // by merge. The planner prefers hashing all three inputs (1 GB of arrays at 1,000,000 Events,
  // spilled in batches): right after a first import its rows are not yet all-visible, so it costs
  // the Event order's index-only scans as heap fetches. Transaction-local, reset right after.
  if (which.kind === 'every') await client.query('SET LOCAL enable_hashjoin = off');
  const written = (await client.query(store)).rowCount ?? 0;
  if (which.kind === 'every') await client.query('SET LOCAL enable_hashjoin TO DEFAULT');
  const temporary = [...(which.kind === 'targets' ? [TARGETS] : []), ...members.map(([table]) => table)];
  await client.query(`DROP TABLE ${temporary.join(', ')}`);
  return written;
}

/**
 * True when the import staged enough rows to invalidate the planner's statistics; a small import
 * (a renamed Artist showing on 5,000 Events, say) leaves them valid.
 */
export async function isBulkImport(client: pg.PoolClient): Promise<boolean> {
  return Number((await client.query<{ n: string }>(STAGED)).rows[0]!.n) > ANALYZE_FIRST;
}

export interface RefreshOptions {
  /** The merge has already refreshed the statistics of the tables read here. */
  readonly analyzed?: boolean;
}

/** After a merge that was not a first import's (inside the import transaction). */
export async function refreshEventPreviews(client: pg.PoolClient, { analyzed = false }: RefreshOptions = {}): Promise<number> {
  return refresh(client, { kind: 'targets', select: AFTER_IMPORT, analyze: !analyzed && (await isBulkImport(client)) });
}

/**
 * The previews of every Event that has none: a first import's, written after its COMMIT
 * (after-commit.ts), in the caller's transaction, which holds `event_previews` in SHARE mode (no
 * other transaction writes a row until it ends, so a table found empty stays empty), on one
 * backend alongside the index builds.
 */
export async function fillEveryEventPreview(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ stored: boolean }>('SELECT EXISTS (SELECT 1 FROM event_previews) AS stored');
  return refresh(client, { kind: 'every', empty: !rows[0]!.stored });
}

/** Fills the rows of Events that have none (migration 005 on an existing catalogue). */
export const fillMissingEventPreviews = (client: pg.PoolClient) => refresh(client, { kind: 'targets', select: MISSING_SQL, analyze: true });
