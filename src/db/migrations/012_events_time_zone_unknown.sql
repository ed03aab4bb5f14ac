-- 012: `temporalPhaseCode=indeterminate`. An Event's phase is indeterminate
-- exactly when its time zone is unknown (the phase rule asks that first: src/queries/phase.ts), a
-- few Events in a thousand. The filter states that column beside the rule, so PostgreSQL knows
-- how few they are, and this partial index, in the default order, holds them: with another rare
-- filter (`administrativeStateCode=cancelled`) the page would walk the whole order and filter every
-- Event.
CREATE INDEX events_time_zone_unknown ON events (start_local_date, start_rank, start_key, public_id)
  WHERE active AND NOT time_zone_known;
