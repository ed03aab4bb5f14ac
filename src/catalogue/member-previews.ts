/**
 * Keeps each Artist's and Venue's stored rich preview (migration 017: `rich_preview`, its item
 * in `include=artists` / `include=venues`, rendered by queries/member-previews.ts) in step with
 * the catalogue.
 *
 * Imported Artists and Venues get it with their row (merge-statements.ts renders it from the values it
 * writes, after the media merged). Afterwards, the members NOT in the document that show one of
 * its media (whose status or public fields may have changed, and an Artist's public media with
 * them: refreshArtistPublicMedia runs first) are rendered again; rows are written only where the
 * text changed. A --replace import keeps only the members of its document, all of them imported.
 * Migration 017 fills every member of an existing catalogue (src/db/migrate.ts).
 */
import type pg from 'pg';
import { storeRichPreviewsSql, type PreviewMember } from '../queries/member-previews.js';
import { STAGE } from './rows.js';

const NOT_IMPORTED = (member: PreviewMember, alias: string) =>
  `NOT EXISTS (SELECT 1 FROM ${STAGE[member].table} s WHERE s.public_id = ${alias}.public_id)`;

/** Members absent from the document that show an imported media. */
const FOLLOWERS = {
  artists: `SELECT apm.artist_id FROM ${STAGE.media.table} sm JOIN media md ON md.public_id = sm.public_id
      JOIN artist_profile_media apm ON apm.media_id = md.id JOIN artists a ON a.id = apm.artist_id
     WHERE ${NOT_IMPORTED('artists', 'a')}`,
  venues: `SELECT v.id FROM ${STAGE.media.table} sm JOIN media md ON md.public_id = sm.public_id
      JOIN venues v ON v.profile_media_id = md.id
     WHERE ${NOT_IMPORTED('venues', 'v')}`,
} as const;

/** Stores the rich previews of each kind's `targets` (null: every member); returns the rows rewritten. */
async function store(client: pg.PoolClient, targets: (member: PreviewMember) => string | null): Promise<number> {
  let written = 0;
  for (const member of ['artists', 'venues'] as const) {
    written += (await client.query(storeRichPreviewsSql(member, targets(member)))).rowCount ?? 0;
  }
  return written;
}

/** After a merge (inside the import transaction). */
export const refreshMemberPreviews = (client: pg.PoolClient) => store(client, (member) => FOLLOWERS[member]);

/** Every member's rich preview (migration 017 on an existing catalogue). */
export const fillMemberPreviews = (client: pg.PoolClient) => store(client, () => null);
