/**
 * Keeps `event_places` (migration 007) exact: for every active Event, one row per active Venue of
 * it whose coordinates are published and per grid level (queries/near.ts), with the Venue's cell
 * and position and the Event's `startLocalDate` sort keys. The read side walks it for "Events near
 * a place" (queries/near-events.ts). Coordinates whose publication is not permitted never enter it.
 *
 * After a merge (inside the import transaction) the rows of the Events whose rows may have
 * changed are written again: the Events of the document (activity, schedule, Venue list) and the
 * Events of its Venues (activity, coordinates, publication). A --replace import keeps only the
 * Events of its document, all of them rewritten; removed Events take their rows with them
 * (ON DELETE CASCADE). Events stored before migration 007 get their rows when it runs
 * (src/db/migrate.ts).
 */
import type pg from 'pg';
import { GRID_LEVELS, cellSql } from '../queries/near.js';
import { STAGE } from './rows.js';

const TARGETS = 'place_targets';
const LEVELS = `(VALUES ${GRID_LEVELS.map((l) => `(${l.level}, ${l.size}::float8)`).join(', ')}) AS l(level, size)`;

/** Inserts the rows of the Events `e` that satisfy `filter`. */
const insertRows = (filter: string) => `INSERT INTO event_places (cell, event_id, venue_id, latitude, longitude, start_local_date, start_at, public_id)
  SELECT ${cellSql('l.level', 'l.size', 'v.latitude', 'v.longitude')}, e.id, v.id, v.latitude, v.longitude,
         e.start_local_date, e.start_at, e.public_id
    FROM events e JOIN event_venues ev ON ev.event_id = e.id JOIN venues v ON v.id = ev.venue_id CROSS JOIN ${LEVELS}
   WHERE e.active AND v.active AND v.publish_coordinates AND v.latitude IS NOT NULL AND v.longitude IS NOT NULL
     AND ${filter}`;

/** Events whose rows an import may have changed (read after the merge). */
const AFTER_IMPORT = `
  SELECT e.id FROM events e JOIN ${STAGE.events.table} s ON s.public_id = e.public_id
  UNION SELECT ev.event_id FROM event_venues ev JOIN venues v ON v.id = ev.venue_id
    JOIN ${STAGE.venues.table} s ON s.public_id = v.public_id`;

/**
 * After a merge, inside the import transaction: rewrites the rows of the affected Events.
 * `everyEvent` (a first import: the table is empty and every Event is the document's) writes the
 * rows of all of them without collecting targets.
 */
export async function refreshEventPlaces(client: pg.PoolClient, everyEvent = false): Promise<void> {
  if (everyEvent) {
    await client.query(insertRows('true'));
    return;
  }
  // (dropped below; a failure rolls the transaction back, and the table with it)
  await client.query(`CREATE TEMP TABLE ${TARGETS} AS ${AFTER_IMPORT}`);
  await client.query(`DELETE FROM event_places p USING ${TARGETS} t WHERE p.event_id = t.id`);
  await client.query(insertRows(`e.id IN (SELECT t.id FROM ${TARGETS} t)`));
  await client.query(`DROP TABLE ${TARGETS}`);
}

/** Fills the table of an existing catalogue (migration 007), with its planner statistics. */
export async function fillEventPlaces(client: pg.PoolClient): Promise<void> {
  await client.query(insertRows('true'));
  await client.query('ANALYZE event_places');
}
