-- 013: the Events of `temporalPhaseCode=current`, in four indexes instead of migration 010's two
-- (docs/architecture.md#current). src/queries/phase.ts `currentBound` asks each with exactly these
-- conditions. Long spans stay in GiST indexes of their spans; a short one is found from its
-- start, which lies within the span's length before now:
-- * with both instants, a span of at most 24 hours: a btree of (start, end) instants, read from
--   24 hours before now to now (in the demo catalogue, every such span);
-- * with local dates only, a span of one local day (no end date, or an end date not after its
--   start): current only on that day, within a day of the UTC date, so a btree of its start date
--   (most Events without both instants).
-- Btrees build far faster than the GiSTs of every span, which were a first import's longest builds.
DROP INDEX events_current_instants;
DROP INDEX events_current_dates;
CREATE INDEX events_current_instants ON events
  USING gist (tstzrange(start_at, greatest(start_at, end_at), '[)'))
  WHERE active AND start_at IS NOT NULL AND end_at IS NOT NULL AND end_at - start_at > interval '24 hours';
CREATE INDEX events_current_hours ON events (start_at, end_at)
  WHERE active AND start_at IS NOT NULL AND end_at IS NOT NULL AND end_at - start_at <= interval '24 hours';
CREATE INDEX events_current_dates ON events
  USING gist (daterange(start_local_date, greatest(start_local_date, COALESCE(end_local_date, start_local_date)), '[]'))
  WHERE active AND (start_at IS NULL OR end_at IS NULL) AND end_local_date > start_local_date;
CREATE INDEX events_current_days ON events (start_local_date)
  WHERE active AND (start_at IS NULL OR end_at IS NULL) AND (end_local_date IS NULL OR end_local_date <= start_local_date);
