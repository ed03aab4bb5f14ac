/**
 * Member lists of an addressed parent (decisions §2): an Event's Artists and Venues (routes 3,
 * 4: the order of the Event previews, name bytewise then publicId), its direct Series and
 * Edition programs (routes 5, 6: the Event's `directEventSeries`/`editionPrograms`, ordered by
 * Series name, Series id, Edition name, Edition id), the lineups of a Series or Edition context
 * (routes 13, 17: distinct active Artists of the active Events of GET /v1/events?seriesId=…
 * [&editionId=…]) and an Edition's official Venues (route 16). Every source repeats the whole
 * eligibility chain (parents active), so a page never lists members of a deactivated parent.
 */
import type { ArtistField, EditionProgramField, SeriesMembershipField, VenueField } from '../plan/resource-fields.js';
import { artistMedia } from './artists.js';
import { DIRECT_SERIES_JOIN, EDITION_PROGRAM_JOINS } from './event-programs.js';
import { seriesContextEvents } from './events.js';
import { artistColumns, selectedMediaJoin as mediaJoin, venueColumns } from './items.js';
import { namedKeys, type SourceBuilder } from './list.js';
import type { SortKey } from './sql.js';

/** Route 3: the Event's active Artists. */
export function eventArtistsSource(eventId: string, fields: readonly ArtistField[]): SourceBuilder {
  return (p) => ({
    name: 'eventArtists.list',
    columns: artistColumns('a', fields),
    from: `events e JOIN event_artists ea ON ea.event_id = e.id
      JOIN artists a ON a.id = ea.artist_id ${artistMedia('a', fields)}`,
    where: [`e.public_id = ${p.add(eventId)}`, 'e.active', 'a.active'],
    keys: namedKeys('a', 'name'),
    identity: ['a.public_id'],
    names: ['a.name'],
    stablePlan: true,
  });
}

/** Route 4: the Event's active Venues. */
export function eventVenuesSource(eventId: string, fields: readonly VenueField[]): SourceBuilder {
  return (p) => ({
    name: 'eventVenues.list',
    columns: venueColumns('v', fields),
    from: `events e JOIN event_venues ev ON ev.event_id = e.id
      JOIN venues v ON v.id = ev.venue_id ${mediaJoin('v', fields)}`,
    where: [`e.public_id = ${p.add(eventId)}`, 'e.active', 'v.active'],
    keys: namedKeys('v', 'name'),
    identity: ['v.public_id'],
    names: ['v.name'],
    stablePlan: true,
  });
}

/** Route 5: the Event's direct Series (same eligibility as `directEventSeries`). */
export function eventSeriesSource(eventId: string, fields: readonly SeriesMembershipField[]): SourceBuilder {
  const has = (f: SeriesMembershipField) => fields.includes(f);
  return (p) => ({
    name: 'eventSeries.list',
    columns: [
      's.public_id',
      ...(has('slug') ? ['s.slug'] : []),
      ...(has('name') ? ['s.name'] : []),
      ...(has('structureCode') ? ['s.structure_code'] : []),
    ],
    from: `events e JOIN event_series es ON es.event_id = e.id ${DIRECT_SERIES_JOIN('es', 's')}`,
    where: [`e.public_id = ${p.add(eventId)}`, 'e.active'],
    keys: namedKeys('s', 'name'),
    identity: ['s.public_id'],
    names: ['s.name'],
    stablePlan: true,
  });
}

/** Route 6: the Event's Edition programs, each with its own Series (same as `editionPrograms`). */
export function eventEditionsSource(eventId: string, fields: readonly EditionProgramField[]): SourceBuilder {
  const keys: SortKey[] = [...namedKeys('s', 'name'), ...namedKeys('ed', 'name')];
  return (p) => ({
    name: 'eventEditions.list',
    columns: [
      ...(fields.includes('series') ? ['s.public_id AS s_public_id', 's.slug AS s_slug', 's.name AS s_name'] : []),
      ...(fields.includes('edition') ? ['ed.public_id AS ed_public_id', 'ed.slug AS ed_slug', 'ed.name AS ed_name'] : []),
    ],
    from: `events e JOIN event_editions ee ON ee.event_id = e.id ${EDITION_PROGRAM_JOINS('ee', 'ed', 's')}`,
    where: [`e.public_id = ${p.add(eventId)}`, 'e.active'],
    keys,
    identity: ['s.public_id', 'ed.public_id'],
    names: ['s.name', 'ed.name'],
    stablePlan: true,
  });
}

/** Routes 13 and 17: distinct active Artists of the active Events in the Series (Edition) context. */
export function lineupSource(seriesId: string, editionId: string | null, fields: readonly ArtistField[]): SourceBuilder {
  return (p) => ({
    name: editionId === null ? 'seriesLineup.list' : 'editionLineup.list',
    columns: artistColumns('a', fields),
    from: `artists a ${artistMedia('a', fields)}`,
    where: [
      'a.active',
      `a.id IN (SELECT ea.artist_id FROM event_artists ea JOIN events e ON e.id = ea.event_id AND e.active
                 WHERE e.id IN (${seriesContextEvents(p, seriesId, editionId)}))`,
    ],
    keys: namedKeys('a', 'name'),
    identity: ['a.public_id'],
    names: ['a.name'],
  });
}

/** Route 16: the Edition's official, active Venues (under its own active Series). */
export function editionVenuesSource(seriesId: string, editionId: string, fields: readonly VenueField[]): SourceBuilder {
  return (p) => ({
    name: 'editionVenues.list',
    columns: venueColumns('v', fields),
    from: `editions ed JOIN series s ON s.id = ed.series_id
      JOIN edition_venues evn ON evn.edition_id = ed.id
      JOIN venues v ON v.id = evn.venue_id ${mediaJoin('v', fields)}`,
    where: [`s.public_id = ${p.add(seriesId)}`, 's.active', `ed.public_id = ${p.add(editionId)}`, 'ed.active', 'v.active'],
    keys: namedKeys('v', 'name'),
    identity: ['v.public_id'],
    names: ['v.name'],
    stablePlan: true,
  });
}
