-- 011: `temporalPhaseCode=historical` in the descending order (docs/architecture.md#start-date-branches), the mirror of
-- `upcoming` in the ascending one (migration 002). A historical Event either started at an instant
-- that has passed (both rules with a start instant test it first) or has a local start date not
-- after its local today (the calendar rule), which is at most the UTC date of the operation time
-- plus one day. So its local start date is on or before that bound unless its document puts that
-- date more than a day after its start instant's UTC date (an inconsistent document): this partial
-- index holds exactly those, normally none, so the statement's second branch costs one empty index
-- probe (src/queries/phase.ts historicalBranches). timezone(text, timestamptz) is immutable.
CREATE INDEX events_dates_after_instants ON events (start_local_date DESC, start_rank, start_key DESC, public_id)
  WHERE active AND start_at IS NOT NULL AND start_local_date > (start_at AT TIME ZONE 'UTC')::date + 1;
