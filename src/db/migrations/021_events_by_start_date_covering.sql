-- 021: the default Events order's index also holds each Event's primary Venue keys and its id
-- (docs/architecture.md#city-and-country). A `cityContains` or `countryContains` search walked in that order (shape
-- `walk`, src/queries/search-shape.ts) picks its page's ids from index entries alone, filtering
-- each Event it passes by its key there instead of in its heap page, then reads the page's rows
-- by id (src/queries/events.ts). The same keys, predicate and name; every other read of it is
-- unchanged.
-- Built under a new name first, then swapped: the build takes a SHARE lock (reads go on, writes
-- wait), and only the DROP and RENAME at its end take the table's ACCESS EXCLUSIVE lock, until
-- COMMIT (dropped first, the build would hold that lock and Events reads would wait for it).
CREATE INDEX events_by_start_date_next ON events (start_local_date, start_rank, start_key, public_id)
  INCLUDE (primary_locality_key, primary_country_key, id)
  WHERE active;
DROP INDEX events_by_start_date;
ALTER INDEX events_by_start_date_next RENAME TO events_by_start_date;
