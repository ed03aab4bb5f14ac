-- 020: `events_current_days` (migration 016) keyed by the default Events order, its other columns
-- still included (docs/architecture.md#current). A page of `temporalPhaseCode=current` alone takes each
-- part's first page-length of candidates in the page's order (src/queries/current-candidates.ts),
-- and the Events of one local day then come out of this index in that order: in the default order
-- the page stops after the few it needs instead of filtering and sorting every entry of the days
-- around now. The same columns, predicate and name; other orders and filters read it as they
-- read migration 016's.
-- Built under a new name first, then swapped: the build takes a SHARE lock (reads go on, writes
-- wait), and only the DROP and RENAME at its end take the table's ACCESS EXCLUSIVE lock, until
-- COMMIT (dropped first, the build would hold that lock and Events reads would wait for it).
CREATE INDEX events_current_days_next ON events (start_local_date, start_rank, start_key, public_id)
  INCLUDE (updated_at, time_zone_known, start_at, end_at, end_precision, time_zone, end_local_date, id)
  WHERE active AND (start_at IS NULL OR end_at IS NULL) AND (end_local_date IS NULL OR end_local_date <= start_local_date);
DROP INDEX events_current_days;
ALTER INDEX events_current_days_next RENAME TO events_current_days;
