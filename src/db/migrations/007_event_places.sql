-- 007: "near a place" for Events at constant cost (docs/architecture.md#near-a-place). One row per
-- active Event, active Venue of it with published coordinates, and grid level: the Venue's cell at
-- that level and the Event's `startLocalDate` sort keys. A page near a point walks, per cell that
-- covers the radius, this table in the Events' date order (event_places_by_start_date), merges the
-- cells, checks the exact distance on the rows and joins the Events: it reads about `limit` rows
-- where Events are dense and a few index probes where they are sparse (src/queries/near-events.ts).
-- Only published coordinates are ever stored here. The importer keeps the rows exact in the import
-- transaction (src/catalogue/event-places.ts); they are filled after this migration by the same
-- code (src/db/migrate.ts).
CREATE TABLE event_places (
  cell             bigint NOT NULL,             -- level * 100000000 + latitude row * 10000 + longitude column
  event_id         bigint NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  venue_id         bigint NOT NULL,
  latitude         double precision NOT NULL,
  longitude        double precision NOT NULL,
  start_local_date date NOT NULL,
  start_at         timestamptz(6),
  start_rank       smallint GENERATED ALWAYS AS (CASE WHEN start_at IS NULL THEN 1 ELSE 0 END) STORED,
  start_key        timestamptz(6) GENERATED ALWAYS AS (COALESCE(start_at, '-infinity'::timestamptz)) STORED,
  public_id        text COLLATE "C" NOT NULL,
  PRIMARY KEY (event_id, venue_id, cell)
);

-- A cell's Events in the default order, with the coordinates for the distance check.
CREATE INDEX event_places_by_start_date ON event_places (cell, start_local_date, start_rank, start_key, public_id)
  INCLUDE (latitude, longitude, event_id, venue_id);
-- As events_start_inconsistent (migration 002): the upcoming Events before the upcoming bound.
CREATE INDEX event_places_start_inconsistent ON event_places (cell, start_local_date, start_rank, start_key, public_id)
  INCLUDE (latitude, longitude, event_id, venue_id)
  WHERE start_at IS NOT NULL AND start_local_date < (start_at AT TIME ZONE 'UTC')::date - 1;
