-- 017: each Artist's and Venue's rich preview — its item in `include=artists` / `include=venues` —
-- stored on its row as JSON text (docs/architecture.md#schema), rendered by src/queries/member-previews.ts
-- and kept by the importer (src/catalogue/merge.ts, src/catalogue/member-previews.ts). The rich
-- preview statements read it instead of joining each member's media and rendering its row on every
-- page; a row without one is rendered by the statement. Filled for a stored catalogue by the same code, after this file
-- (src/db/migrate.ts).
ALTER TABLE artists ADD COLUMN rich_preview text;
ALTER TABLE venues ADD COLUMN rich_preview text;
