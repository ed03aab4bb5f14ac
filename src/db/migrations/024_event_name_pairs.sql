-- 024: the adjacent word pairs of each active Event's folded name (docs/architecture.md#name-search). A
-- `nameContains` term with two inner words side by side ("… kalani live at sirius …") asks this
-- index for those pairs instead of migration 008's index for the words: a pair's posting list is
-- at most its rarer word's, and two pairs meet on far fewer names than two words
-- (src/queries/name-search.ts).
-- The pairs of `string_to_array(name, ' ')`, each two neighbours joined by one space (an empty
-- element between two spaces makes pairs no term asks for). PL/pgSQL: a SQL function's sub-select
-- costs about three times as much per name, and built-in expressions cannot pair neighbours.
CREATE FUNCTION event_name_pairs(name text) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  words text[] := string_to_array(name, ' ');
  pairs text[] := '{}';
BEGIN
  FOR i IN 1 .. cardinality(words) - 1 LOOP
    pairs := pairs || (words[i] || ' ' || words[i + 1]);
  END LOOP;
  RETURN pairs;
END
$$;
CREATE INDEX events_name_pairs ON events USING gin (event_name_pairs(name_folded)) WHERE active;
-- the index expression's statistics (most common pairs), as 008 does for the words
ANALYZE events;
