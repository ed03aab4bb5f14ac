-- 023: the multi-day spans of local dates (migration 016's `events_current_dates`) again, split by
-- their length for `temporalPhaseCode=current` alone (docs/architecture.md#current). A span of L days
-- (end date − start date, 1 ≤ L ≤ 7) that meets the local todays around now starts at most L days
-- before the first of them: `events_current_short_dates` holds those spans keyed by L and then the
-- default Events order, so a page reads each length as one ordered range and stops after the few
-- entries it needs (src/queries/phase.ts `currentCandidateBranches`). Longer spans, few, come from
-- `events_current_long_dates`, an SP-GiST of their ranges as 022's. The parts read a few entries in
-- order instead of filtering and sorting every overlapping span. `events_current_dates` stays:
-- `current` with other filters asks it in one OR of the parts (phase.ts `currentBound`).
-- New indexes: reads go on during the builds (SHARE lock; an import waits).
CREATE INDEX events_current_short_dates ON events ((end_local_date - start_local_date), start_local_date, start_rank, start_key, public_id)
  INCLUDE (updated_at, time_zone_known, start_at, end_at, end_precision, time_zone, end_local_date, id)
  WHERE active AND (start_at IS NULL OR end_at IS NULL) AND end_local_date > start_local_date AND end_local_date - start_local_date <= 7;
CREATE INDEX events_current_long_dates ON events
  USING spgist (daterange(start_local_date, greatest(start_local_date, COALESCE(end_local_date, start_local_date)), '[]'))
  INCLUDE (start_local_date, start_rank, start_key, public_id, updated_at, time_zone_known, start_at, end_at, end_precision, time_zone, end_local_date, id)
  WHERE active AND (start_at IS NULL OR end_at IS NULL) AND end_local_date > start_local_date AND end_local_date - start_local_date > 7;
