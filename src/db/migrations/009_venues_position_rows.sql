-- 009: Venues near a place found on the position index alone (docs/architecture.md#near-a-place). A
-- near search cuts its page from the Venues in its box by distance and publicId before it reads
-- any Venue's row (src/queries/list.ts, lateRows): with the publicId and the id in the index, the
-- box, the distance, the order and the join back to the page's rows need no visit to the other
-- candidates' rows (an index-only scan once VACUUM has marked the table's pages visible).
DROP INDEX venues_published_position;
CREATE INDEX venues_published_position ON venues (latitude, longitude) INCLUDE (public_id, id)
  WHERE active AND publish_coordinates;
