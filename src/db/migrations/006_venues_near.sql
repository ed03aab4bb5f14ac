-- 006: "near a place" (an extension: docs/api-guide.md). The bounding box of a radius search reads the
-- published coordinates of active Venues from this index; unpublished coordinates are not in it,
-- and every near query requires publish_coordinates (src/queries/near.ts).
CREATE INDEX venues_published_position ON venues (latitude, longitude)
  WHERE active AND publish_coordinates;
