-- 005: each Event's Artist and Venue previews, stored (docs/architecture.md#schema). Two preview
-- statements (a sorted lateral pick per Event over the memberships, the members and their media)
-- would be most of a default Events page's PostgreSQL and Node work; stored, they are one
-- primary-key probe per Event. Each column holds the rows the preview
-- statement returns for the Event (its first six active members in relationship-route order,
-- plain item columns), as a JSON array; the read side projects them exactly as it projects the
-- statement's rows. The importer maintains them (src/catalogue/event-previews.ts); the rows are
-- filled after this migration by the same code (src/db/migrate.ts), not by SQL written here again.
CREATE TABLE event_previews (
  event_id bigint PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
  artists json NOT NULL,
  venues json NOT NULL
);
