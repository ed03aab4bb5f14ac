/**
 * "Near a place" controls (an extension: docs/api-guide.md): `near=LAT,LON` and `radiusKm`, on GET
 * /v1/venues and GET /v1/events. The schemas (parameter-schemas.ts) check the spelling and the
 * coordinate ranges; by hand, because the value is text: the radius is > 0 and ≤ 500, and
 * `radiusKm` needs `near`. Both go to the normalized query (fingerprint, next link) in a canonical
 * spelling (`near=48.85,2.35`, the radius omitted when it is the default). Pure.
 */
import type { ParameterReader } from './parameter-reader.js';
import { DEFAULT_RADIUS_KM, MAX_RADIUS_KM, NEAR, RADIUS_KM } from './parameter-schemas.js';
import { putPair } from './paging.js';

export interface Near {
  readonly latitude: number;
  readonly longitude: number;
  readonly radiusKm: number;
}

export function readNear(r: ParameterReader, pairs: [string, string][]): Near | null {
  const text = r.value(NEAR);
  const radiusText = r.value(RADIUS_KM);
  let radiusKm: number | undefined = DEFAULT_RADIUS_KM;
  if (radiusText !== undefined) {
    const n = Number(radiusText);
    radiusKm = n > 0 && n <= MAX_RADIUS_KM ? n : r.fail(RADIUS_KM.name, RADIUS_KM.invalid);
  }
  if (r.has(RADIUS_KM.name) && !r.has(NEAR.name)) r.fail(RADIUS_KM.name, 'requires near');
  if (text === undefined || radiusKm === undefined) return null;
  const [latitude, longitude] = text.split(',').map(Number) as [number, number];
  // -0 and 0 are the same place and the same query.
  const canonical = (n: number) => String(n === 0 ? 0 : n);
  putPair(pairs, 'near', `${canonical(latitude)},${canonical(longitude)}`);
  putPair(pairs, 'radiusKm', String(radiusKm), String(DEFAULT_RADIUS_KM));
  return { latitude, longitude, radiusKm };
}
