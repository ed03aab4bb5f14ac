/**
 * GET /v1/events/{eventId} controls: `fields` and `include` only (decisions §2). Without
 * `fields`, every Event field is selected (decisions §3); `include` needs its relationship
 * selected, as on the collection (spec: GET /v1/events rule 5; a rule across parameters, by
 * hand). Pure.
 */
import { EVENT_FIELDS, type EventField, type EventInclude } from '../plan/event-fields.js';
import { detailRegistry } from '../plan/resource-fields.js';
import { ParameterReader } from './parameter-reader.js';
import { EVENT_DETAIL_PARAMETERS as P, EVENT_DETAIL_QUERY } from './parameter-schemas.js';
import type { RawQuery } from './query-string.js';
import { readFields } from './resource.js';

export interface EventDetailControls {
  readonly fields: readonly EventField[];
  readonly include: readonly EventInclude[];
}

const DETAIL = detailRegistry(EVENT_FIELDS);

export function parseEventDetailControls(raw: RawQuery): EventDetailControls {
  const r = new ParameterReader(raw, EVENT_DETAIL_QUERY);
  const { fields, given } = readFields(r, P.fields, DETAIL);
  const include = r.csv(P.include) ?? [];
  if (given) {
    for (const rel of include) {
      if (!fields.includes(rel)) r.fail('include', `"${rel}" can only be included when the ${rel} field is selected`);
    }
  }
  r.finish();
  return { fields, include };
}
