/**
 * Temporal phase (decisions §4), as ONE SQL definition used both to project
 * `schedule.temporalPhaseCode`/`temporalPhaseBasisCode` and to filter by `temporalPhaseCode`, so
 * the filter returns exactly the Events whose returned phase matches. `now` is the request's
 * single operation time (a parameter), never the database clock. The first matching row decides.
 */

/** `e` is the events alias; `now` a timestamptz placeholder. */
export function phaseSql(e: string, now: string): { phase: string; basis: string } {
  const today = `(${now} AT TIME ZONE ${e}.time_zone)::date`;
  const exactBoth = `${e}.start_at IS NOT NULL AND ${e}.end_at IS NOT NULL`;
  const exactOpen = `${e}.start_at IS NOT NULL AND ${e}.end_precision IS NULL`;
  const phase = `(CASE
    WHEN NOT ${e}.time_zone_known THEN 'indeterminate'
    WHEN ${exactBoth} THEN
      CASE WHEN ${now} < ${e}.start_at THEN 'upcoming' WHEN ${now} < ${e}.end_at THEN 'current' ELSE 'historical' END
    WHEN ${exactOpen} THEN
      CASE WHEN ${now} < ${e}.start_at THEN 'upcoming' WHEN ${today} = ${e}.start_local_date THEN 'current' ELSE 'historical' END
    ELSE
      CASE WHEN ${today} < ${e}.start_local_date THEN 'upcoming'
           WHEN ${today} <= COALESCE(${e}.end_local_date, ${e}.start_local_date) THEN 'current'
           ELSE 'historical' END
  END)`;
  const basis = `(CASE
    WHEN NOT ${e}.time_zone_known THEN 'incomplete'
    WHEN ${exactBoth} THEN 'exact'
    WHEN ${exactOpen} THEN CASE WHEN ${now} < ${e}.start_at THEN 'exact' ELSE 'inferred' END
    ELSE 'calendar'
  END)`;
  return { phase, basis };
}
