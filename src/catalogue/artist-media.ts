/**
 * Keeps each Artist's public profile media (migration 004) in step with the catalogue: the first
 * of its profile media, by (position, media publicId), that is active and ready. The read side
 * joins it by primary key (src/queries/items.ts).
 *
 * Imported Artists get it with their row (computed from the staged media list over the already
 * merged media: merge-statements.ts, one join of every staged list with the media). Afterwards the Artists
 * NOT in the document that show an imported media (whose activity or status may have changed) are
 * recomputed; rows are written only where it changed. A --replace import keeps only the Artists of
 * its document, all of them imported.
 */
import type pg from 'pg';
import { STAGE } from './rows.js';

/** A media `m` an Artist may show: the first such by (position, publicId) is its public media. */
export const ARTIST_PUBLIC_MEDIA = `m.active AND m.status = 'ready'`;

/** Recomputes the Artists that show an imported media and that the document does not carry. */
export async function refreshArtistPublicMedia(client: pg.PoolClient): Promise<number> {
  const { rowCount } = await client.query(
    `WITH computed AS (
       SELECT c.id, (SELECT m.id FROM artist_profile_media apm JOIN media m ON m.id = apm.media_id
                      WHERE apm.artist_id = c.id AND ${ARTIST_PUBLIC_MEDIA}
                      ORDER BY apm.position, m.public_id LIMIT 1) AS media_id
         FROM (SELECT DISTINCT apm.artist_id AS id
                 FROM ${STAGE.media.table} s JOIN media m ON m.public_id = s.public_id
                 JOIN artist_profile_media apm ON apm.media_id = m.id
                 JOIN artists a ON a.id = apm.artist_id
                WHERE NOT EXISTS (SELECT 1 FROM ${STAGE.artists.table} sa WHERE sa.public_id = a.public_id)) c)
     UPDATE artists a SET public_media_id = computed.media_id
       FROM computed
      WHERE a.id = computed.id AND a.public_media_id IS DISTINCT FROM computed.media_id`,
  );
  return rowCount ?? 0;
}
