-- 005: each Event's Artist and Venue previews, stored (docs/performance.md). A default Events page
-- spent ~0.7 ms of PostgreSQL CPU and ~0.55 ms of Node on two preview statements (a sorted
-- lateral pick per Event over the memberships, the members and their media) out of ~1.9 ms in all;
-- stored, they are one primary-key probe per Event. Each column holds the rows the preview
-- statement returns for the Event (its first six active members in relationship-route order,
-- plain item columns), as a JSON array; the read side projects them exactly as it projects the
-- statement's rows. The importer maintains them (src/catalogue/event-previews.ts); the rows are
-- filled after this migration by the same code (src/db/migrate.ts), not by SQL written here again.
CREATE TABLE event_previews (
  event_id bigint PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
  artists json NOT NULL,
  venues json NOT NULL
);
