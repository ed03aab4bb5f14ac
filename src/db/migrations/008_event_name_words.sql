-- 008: the words of each active Event's folded name (docs/architecture.md#name-search). A multi-word
-- `nameContains` term whose inner words stand between two spaces asks this index for them: each
-- word is one short posting list, where its trigrams are several long ones shared with every other
-- word containing them (src/queries/name-search.ts).
CREATE INDEX events_name_words ON events USING gin (string_to_array(name_folded, ' ')) WHERE active;
-- the index expression's statistics (most common words): the planner weighs the index against the
-- ordered walk with them, from the first request on an upgraded catalogue
ANALYZE events;
