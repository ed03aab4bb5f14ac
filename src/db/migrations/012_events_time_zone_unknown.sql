-- 012: `temporalPhaseCode=indeterminate` (issue 16, session 14). An Event's phase is indeterminate
-- exactly when its time zone is unknown (the phase rule asks that first: src/queries/phase.ts), a
-- few Events in a thousand. The filter states that column beside the rule, so PostgreSQL knows
-- how few they are, and this partial index, in the default order, holds them: with another rare
-- filter (`administrativeStateCode=cancelled`) the page walked the whole order and filtered every
-- Event, 290-940 ms per page at 1,000,000 Events.
CREATE INDEX events_time_zone_unknown ON events (start_local_date, start_rank, start_key, public_id)
  WHERE active AND NOT time_zone_known;
