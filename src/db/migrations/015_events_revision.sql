-- 015: an Event's revision: how many times its marker (`updated_at`) has
-- changed since it was first stored, kept by the importer (src/catalogue/merge.ts). The calendar
-- feeds' SEQUENCE is the marker in whole seconds since 2000 plus this count (src/present/calendar.ts),
-- so it grows whenever the marker advances, also by less than a second, and stays what it was for
-- every Event stored before (their count starts at 0). A constant default: no table rewrite.
ALTER TABLE events ADD COLUMN revision integer NOT NULL DEFAULT 0;
