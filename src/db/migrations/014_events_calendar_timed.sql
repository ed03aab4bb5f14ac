-- 014: `temporalPhaseCode=upcoming` in the default order (docs/architecture.md#start-date-branches). The page reads the
-- default order's index from now's UTC date and now's instant on (src/queries/phase.ts
-- `upcomingRanges`), past the Events of that day that have started, which the exact rules make
-- not upcoming, instead of reading and filtering every Event of the day before and of the day so
-- far. An Event of that day with a start instant
-- that has passed can still be upcoming by the calendar rule (a `date` end, and a local start
-- date after its local today); this partial index holds the Events that rule decides although
-- they have a start instant (≈ 5% of the demo's), so the statement asks for them apart.
CREATE INDEX events_calendar_timed ON events (start_local_date, start_rank, start_key, public_id)
  WHERE active AND start_at IS NOT NULL AND end_at IS NULL AND end_precision IS NOT NULL;
