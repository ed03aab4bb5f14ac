-- 025: the stored case-insensitive keys as the importer writes them (src/text/normalize.ts
-- `caseKey`): lower-cased, then each lower-case letter that has a lower-case twin replaced by
-- that twin, so that texts that differ only in case share one key. A key of `toLowerCase()`
-- alone lower-cases Σ to ς at the end of a word and to σ elsewhere: the Venue `ΚΟΣΜΟΣ` would be
-- stored as `κοσμος` and `nameContains=ΚΟΣ` (`κος`) would not find it.
--
-- The stored keys are already lower-cased, so the new key of each is the old one with the twins
-- replaced: `translate` with the pairs of normalize.ts `FOLDS`, in the same order (µ ſ ͅ ς ϐ ϑ ϕ ϖ
-- ϰ ϱ ϵ, the Cyrillic ᲀ–ᲈ, ẛ, ι). Only rows whose key changes are written: names outside Greek,
-- Cyrillic variant forms and a few symbols keep theirs. The keys are not public and not part of
-- any projection hash, so no `updatedAt` moves.
CREATE FUNCTION pg_temp.lineup_case_key(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT translate(value,
    U&'\00B5\017F\0345\03C2\03D0\03D1\03D5\03D6\03F0\03F1\03F5\1C80\1C81\1C82\1C83\1C84\1C85\1C86\1C87\1C88\1E9B\1FBE',
    U&'\03BCs\03B9\03C3\03B2\03B8\03C6\03C0\03BA\03C1\03B5\0432\0434\043E\0441\0442\0442\044A\0463\A64B\1E61\03B9')
$$;

UPDATE artists SET name_lower = pg_temp.lineup_case_key(name_lower)
 WHERE name_lower <> pg_temp.lineup_case_key(name_lower);
UPDATE series SET name_lower = pg_temp.lineup_case_key(name_lower)
 WHERE name_lower <> pg_temp.lineup_case_key(name_lower);
UPDATE editions SET name_lower = pg_temp.lineup_case_key(name_lower)
 WHERE name_lower <> pg_temp.lineup_case_key(name_lower);
UPDATE venues
   SET name_lower = pg_temp.lineup_case_key(name_lower),
       locality_key = pg_temp.lineup_case_key(locality_key),
       country_name_lower = pg_temp.lineup_case_key(country_name_lower)
 WHERE name_lower <> pg_temp.lineup_case_key(name_lower)
    OR locality_key IS DISTINCT FROM pg_temp.lineup_case_key(locality_key)
    OR country_name_lower IS DISTINCT FROM pg_temp.lineup_case_key(country_name_lower);
-- an Event's primary Venue keys are its primary Venue's keys, copied (migration 003)
UPDATE events
   SET name_lower = pg_temp.lineup_case_key(name_lower),
       name_folded = pg_temp.lineup_case_key(name_folded),
       primary_locality_key = pg_temp.lineup_case_key(primary_locality_key),
       primary_country_key = pg_temp.lineup_case_key(primary_country_key)
 WHERE name_lower <> pg_temp.lineup_case_key(name_lower)
    OR name_folded <> pg_temp.lineup_case_key(name_folded)
    OR primary_locality_key IS DISTINCT FROM pg_temp.lineup_case_key(primary_locality_key)
    OR primary_country_key IS DISTINCT FROM pg_temp.lineup_case_key(primary_country_key);

DROP FUNCTION pg_temp.lineup_case_key(text);
