/**
 * Keeps each Event's primary active Venue keys (migration 003) in step with the catalogue:
 * `primary_locality_key` is the locality key of the first of the Event's active Venues having
 * both a locality and a country name, by (locality, countryName, publicId); `primary_country_key`
 * is the lower-cased country name of the first by (countryName, locality, publicId)
 * (decisions §5). The read side filters `cityContains` / `countryContains` on them.
 *
 * Imported Events get both keys with their row (computed from the staged Venue list over the
 * already merged Venues), so a bulk import writes each Event once. Afterwards the Events NOT in
 * the document whose Venues were imported (activity, locality, country may have changed) are
 * recomputed; rows are written only where a key changed. A --replace import keeps only the
 * Events of its document, so nothing else can be affected by a deleted Venue.
 */
import type pg from 'pg';
import { STAGE } from './rows.js';

type KeyColumn = 'locality_key' | 'country_name_lower';

const ORDER: Record<KeyColumn, string> = {
  locality_key: 'v.locality, v.country_name, v.public_id',
  country_name_lower: 'v.country_name, v.locality, v.public_id',
};
const ELIGIBLE = `v.active AND v.locality <> '' AND v.country_name <> ''`;

/**
 * Both keys of one Event as `locality_key` and `country_key`, for a LATERAL join over `venues`
 * (the Event's Venues as `v`, joined by `from`): one probe per Venue and the first of each order
 * taken by an ordered aggregate: two `ORDER BY … LIMIT 1` subqueries, one per key, would probe
 * every Venue twice (the same values either way).
 */
const primaryVenueKeys = (from: string) => `SELECT (array_agg(v.locality_key ORDER BY ${ORDER.locality_key}))[1] AS locality_key,
         (array_agg(v.country_name_lower ORDER BY ${ORDER.country_name_lower}))[1] AS country_key
    FROM ${from}
   WHERE ${ELIGIBLE}`;

/** A staged Event's keys (`s`, its Venue publicIds in `s.venue_pids`). */
export const PRIMARY_VENUE_KEYS_FROM_STAGE = primaryVenueKeys('unnest(s.venue_pids) AS t(pid) JOIN venues v ON v.public_id = t.pid');

/** A stored Event's keys (`c.id`). */
const PRIMARY_VENUE_KEYS_STORED = `${primaryVenueKeys('event_venues ev JOIN venues v ON v.id = ev.venue_id')} AND ev.event_id = c.id`;

/** Recomputes the Events of imported Venues that the document does not carry itself. */
export async function refreshPrimaryVenueKeys(client: pg.PoolClient): Promise<number> {
  const { rowCount } = await client.query(
    `WITH computed AS (
       SELECT c.id, pk.locality_key AS city, pk.country_key AS country
         FROM (SELECT DISTINCT ev.event_id AS id
                 FROM ${STAGE.venues.table} s JOIN venues v ON v.public_id = s.public_id
                 JOIN event_venues ev ON ev.venue_id = v.id
                 JOIN events e ON e.id = ev.event_id
                WHERE NOT EXISTS (SELECT 1 FROM ${STAGE.events.table} se WHERE se.public_id = e.public_id)) c
         CROSS JOIN LATERAL (${PRIMARY_VENUE_KEYS_STORED}) pk)
     UPDATE events e SET primary_locality_key = computed.city, primary_country_key = computed.country
       FROM computed
      WHERE e.id = computed.id
        AND (e.primary_locality_key IS DISTINCT FROM computed.city OR e.primary_country_key IS DISTINCT FROM computed.country)`,
  );
  return rowCount ?? 0;
}
