-- 002: read-pattern indexes for constant-cost pages at scale (docs/architecture.md#indexes).

-- temporalPhaseCode=upcoming in the default order reads Events from the UTC date of the
-- operation time minus one day (events_by_start_date). The only upcoming Events before that bound
-- are those whose start instant lies more than a day after their own local start date (an
-- inconsistent document); this partial index holds exactly those, normally none, so the second
-- branch of the statement costs one empty index probe. timezone(text, timestamptz) is immutable.
CREATE INDEX events_start_inconsistent ON events (start_local_date, start_rank, start_key, public_id)
  WHERE active AND start_at IS NOT NULL AND start_local_date < (start_at AT TIME ZONE 'UTC')::date - 1;
