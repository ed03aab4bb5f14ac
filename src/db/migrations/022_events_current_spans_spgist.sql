-- 022: the two span indexes of `temporalPhaseCode=current` (migration 016: long spans of instants,
-- multi-day spans of local dates) as SP-GiST instead of GiST (docs/architecture.md#current). Same
-- expressions, INCLUDE columns, predicates and names; the statements do not change. A page of
-- `current` alone reads every entry whose span overlaps the days around now from
-- `events_current_dates` (a few hundred of many thousands), and GiST's overlapping pages make that
-- walk the largest part of its statement; SP-GiST's range quad tree walks it faster, is smaller
-- and builds faster, which an import's work after COMMIT gains too.
-- Built under new names first, then swapped (as 020 and 021): reads go on during the builds.
CREATE INDEX events_current_instants_next ON events
  USING spgist (tstzrange(start_at, greatest(start_at, end_at), '[)'))
  INCLUDE (start_local_date, start_rank, start_key, public_id, updated_at, time_zone_known, start_at, end_at, end_precision, time_zone, end_local_date, id)
  WHERE active AND start_at IS NOT NULL AND end_at IS NOT NULL AND end_at - start_at > interval '24 hours';
CREATE INDEX events_current_dates_next ON events
  USING spgist (daterange(start_local_date, greatest(start_local_date, COALESCE(end_local_date, start_local_date)), '[]'))
  INCLUDE (start_local_date, start_rank, start_key, public_id, updated_at, time_zone_known, start_at, end_at, end_precision, time_zone, end_local_date, id)
  WHERE active AND (start_at IS NULL OR end_at IS NULL) AND end_local_date > start_local_date;
DROP INDEX events_current_instants;
DROP INDEX events_current_dates;
ALTER INDEX events_current_instants_next RENAME TO events_current_instants;
ALTER INDEX events_current_dates_next RENAME TO events_current_dates;
