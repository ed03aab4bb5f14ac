-- 004: each Artist's public profile media, kept on the Artist (docs/architecture.md#schema). Legacy
-- Artists may hold several profile media; the public one is the first active, ready media by
-- (position, media publicId). Read live it is a sorted lateral subquery per Artist (much of the
-- work of an Events page's artist previews); the column makes it one primary-key probe. The importer
-- maintains it (src/catalogue/artist-media.ts); NULL when no profile media is active and ready.
ALTER TABLE artists ADD COLUMN public_media_id bigint;

UPDATE artists a
   SET public_media_id = (
         SELECT m.id FROM artist_profile_media apm JOIN media m ON m.id = apm.media_id
          WHERE apm.artist_id = a.id AND m.active AND m.status = 'ready'
          ORDER BY apm.position, m.public_id LIMIT 1)
 WHERE EXISTS (SELECT 1 FROM artist_profile_media apm WHERE apm.artist_id = a.id);
