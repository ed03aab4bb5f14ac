/** Query and path parameter schemas, documented once and shared by every operation. */
import { Type, type TSchema } from '@sinclair/typebox';
import { EVENT_FIELDS, EVENT_INCLUDES, EVENT_SORTS, TEMPORAL_PHASES, ADMINISTRATIVE_STATES } from '../../plan/event-fields.js';

export interface ParameterSpec {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly description: string;
  readonly schema: TSchema;
  readonly required?: boolean;
}

const csv = (members: readonly string[]) =>
  Type.String({ minLength: 1, description: `Comma-separated unique members of: ${members.join(', ')}` });
const enumOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
const queryInstant = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?Z$',
  description: 'UTC instant with seconds, optional 1-6 digit fraction, Z',
});
const date = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Calendar date YYYY-MM-DD (0001-9999)' });
const publicId = Type.String({ pattern: '^[0-9A-Za-z]{12}$' });
const term = Type.String({ minLength: 1, maxLength: 200 });

const q = (name: string, schema: TSchema, description: string): ParameterSpec => ({ name, in: 'query', schema, description });
export const pathId = (name: string, description: string): ParameterSpec => ({ name, in: 'path', schema: publicId, description, required: true });

export const limitParam = q('limit', Type.String({ pattern: '^[1-9][0-9]*$', description: '1-50, default 20; over 50 is rejected' }), 'Page size');
export const cursorParam = q('cursor', Type.String({ minLength: 1, maxLength: 1024 }), 'Opaque value from links.next; use with unchanged controls');

export const EVENT_QUERY: readonly ParameterSpec[] = [
  limitParam,
  cursorParam,
  q('nameContains', term, 'Case-insensitive containment on the name or its accent-folded form; % and _ are wildcards'),
  q('cityContains', term, "Containment on the primary active Venue's locality"),
  q('countryContains', term, "Containment on the primary active Venue's country name"),
  q('temporalPhaseCode', enumOf(TEMPORAL_PHASES), 'Phase at request time'),
  q('administrativeStateCode', enumOf(ADMINISTRATIVE_STATES), 'Administrative state'),
  q('startInstantGte', queryInstant, 'Inclusive exact UTC start lower bound; date-only Events never match'),
  q('startInstantLt', queryInstant, 'Exclusive exact UTC start upper bound'),
  q('startLocalDateGte', date, 'Inclusive organizer start-local-date lower bound'),
  q('startLocalDateLt', date, 'Exclusive organizer start-local-date upper bound'),
  q('updatedSince', queryInstant, 'Inclusive change marker lower bound; requires sort=updatedAt and fields containing updatedAt'),
  q('sort', enumOf(EVENT_SORTS), 'Order; default startLocalDate; publicId breaks ties'),
  q('fields', csv(EVENT_FIELDS), 'Replaces the default top-level selection'),
  q('include', csv(EVENT_INCLUDES), 'Upgrades a selected relationship preview by one level'),
  q('artistId', publicId, 'Artist context'),
  q('venueId', publicId, 'Venue context'),
  q('seriesId', publicId, 'Series context'),
  q('editionId', publicId, "Narrows seriesId to that Edition's program; requires seriesId"),
];
