-- 003: the primary active Venue's city and country keys, kept on each Event (decisions §5;
-- docs/architecture.md#city-and-country). Evaluated at read time, cityContains / countryContains
-- would be a correlated subquery per Event walked in the ordering (many Events per page for a common city); a column on the Event is a
-- plain filter of the walk, and its trigram index serves rare cities.
-- The importer maintains both columns (src/catalogue/primary-venue.ts); NULL when the Event has
-- no active Venue with both a locality and a country name.
ALTER TABLE events
  ADD COLUMN primary_locality_key text,
  ADD COLUMN primary_country_key text;

UPDATE events e
   SET primary_locality_key = (
         SELECT v.locality_key FROM event_venues ev JOIN venues v ON v.id = ev.venue_id
          WHERE ev.event_id = e.id AND v.active AND v.locality <> '' AND v.country_name <> ''
          ORDER BY v.locality, v.country_name, v.public_id LIMIT 1),
       primary_country_key = (
         SELECT v.country_name_lower FROM event_venues ev JOIN venues v ON v.id = ev.venue_id
          WHERE ev.event_id = e.id AND v.active AND v.locality <> '' AND v.country_name <> ''
          ORDER BY v.country_name, v.locality, v.public_id LIMIT 1)
 WHERE EXISTS (SELECT 1 FROM event_venues ev WHERE ev.event_id = e.id);

CREATE INDEX events_primary_locality_trgm ON events USING gin (primary_locality_key gin_trgm_ops) WHERE active;
CREATE INDEX events_primary_country_trgm ON events USING gin (primary_country_key gin_trgm_ops) WHERE active;
