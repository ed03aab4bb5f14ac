-- 010: the Events that may be current, found without walking the past (docs/architecture.md#current).
-- In the default order `temporalPhaseCode=current` would walk every Event that started before the
-- first current one: about half of the catalogue. A current Event's
-- span holds the request's time: the instants [start, end) of one with both (the `exact` basis),
-- otherwise its local dates [start date, end date or start date], which hold the Event's local
-- today, within a day of the UTC date. src/queries/phase.ts `currentBound` asks these two indexes
-- with exactly these expressions; the phase rule itself still decides on what they return.
-- greatest(): a span that ends before it starts is empty or one day long, never an error.
CREATE INDEX events_current_instants ON events
  USING gist (tstzrange(start_at, greatest(start_at, end_at), '[)'))
  WHERE active AND start_at IS NOT NULL AND end_at IS NOT NULL;
CREATE INDEX events_current_dates ON events
  USING gist (daterange(start_local_date, greatest(start_local_date, COALESCE(end_local_date, start_local_date)), '[]'))
  WHERE active AND (start_at IS NULL OR end_at IS NULL);
