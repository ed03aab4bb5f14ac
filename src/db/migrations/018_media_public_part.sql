-- 018: each media's part of the projection hash of the entities showing it,
-- stored on the media: computed by the importer in JavaScript once per media while it reads the
-- document (src/catalogue/rows.ts `mediaPublicPart`), instead of by the merge for every Event,
-- Venue, Series, Edition and Artist that shows it. For a stored catalogue, filled here by
-- the SQL expression that defines it, whose text the JavaScript reproduces byte for byte
-- (test/catalogue/media-part.test.ts): every stored projection hash stays what it was.
ALTER TABLE media ADD COLUMN public_part text;
UPDATE media SET public_part = CASE WHEN status = 'ready'
  THEN md5(jsonb_build_array(public_id, src, thumbnail_src, alt_text, width, height, active)::text) ELSE '-' END;
ALTER TABLE media ALTER COLUMN public_part SET NOT NULL;
