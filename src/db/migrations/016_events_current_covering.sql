-- 016: migration 013's four `current` indexes again, each with the columns a page of
-- `temporalPhaseCode=current` alone needs from its candidates (docs/architecture.md#current): the phase
-- rule's inputs (src/queries/phase.ts `phaseSql`), every Events order's keys and the id. That page
-- asks each index apart (src/queries/current-candidates.ts) and filters, sorts and cuts its
-- candidates from index entries alone instead of every candidate's heap page. Same keys and
-- predicates, so `current` with other filters reads them by a bitmap scan. The INCLUDE columns
-- make the indexes several times larger.
DROP INDEX events_current_instants;
DROP INDEX events_current_hours;
DROP INDEX events_current_dates;
DROP INDEX events_current_days;
CREATE INDEX events_current_instants ON events
  USING gist (tstzrange(start_at, greatest(start_at, end_at), '[)'))
  INCLUDE (start_local_date, start_rank, start_key, public_id, updated_at, time_zone_known, start_at, end_at, end_precision, time_zone, end_local_date, id)
  WHERE active AND start_at IS NOT NULL AND end_at IS NOT NULL AND end_at - start_at > interval '24 hours';
CREATE INDEX events_current_hours ON events (start_at, end_at)
  INCLUDE (start_local_date, start_rank, start_key, public_id, updated_at, time_zone_known, end_precision, time_zone, end_local_date, id)
  WHERE active AND start_at IS NOT NULL AND end_at IS NOT NULL AND end_at - start_at <= interval '24 hours';
CREATE INDEX events_current_dates ON events
  USING gist (daterange(start_local_date, greatest(start_local_date, COALESCE(end_local_date, start_local_date)), '[]'))
  INCLUDE (start_local_date, start_rank, start_key, public_id, updated_at, time_zone_known, start_at, end_at, end_precision, time_zone, end_local_date, id)
  WHERE active AND (start_at IS NULL OR end_at IS NULL) AND end_local_date > start_local_date;
CREATE INDEX events_current_days ON events (start_local_date)
  INCLUDE (start_rank, start_key, public_id, updated_at, time_zone_known, start_at, end_at, end_precision, time_zone, end_local_date, id)
  WHERE active AND (start_at IS NULL OR end_at IS NULL) AND (end_local_date IS NULL OR end_local_date <= start_local_date);
