/**
 * GET /v1/events/{eventId} controls: `fields` and `include` only (decisions §2). Without
 * `fields`, every Event field is selected (decisions §3); `include` needs its relationship
 * selected, as on the collection (spec: GET /v1/events rule 5). Pure.
 */
import { EVENT_FIELDS, EVENT_INCLUDES, type EventField, type EventInclude } from '../plan/event-fields.js';
import { detailRegistry } from '../plan/resource-fields.js';
import { ParameterReader, type RawQuery } from './query-string.js';
import { readFields } from './resource.js';

export interface EventDetailControls {
  readonly fields: readonly EventField[];
  readonly include: readonly EventInclude[];
}

export function parseEventDetailControls(raw: RawQuery): EventDetailControls {
  const r = new ParameterReader(raw, ['fields', 'include']);
  const { fields, given } = readFields(r, detailRegistry(EVENT_FIELDS));
  const include = r.csv('include', EVENT_INCLUDES) ?? [];
  if (given) {
    for (const rel of include) {
      if (!fields.includes(rel)) r.fail('include', `"${rel}" can only be included when the ${rel} field is selected`);
    }
  }
  r.finish();
  return { fields, include };
}
