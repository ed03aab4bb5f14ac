/** parseEventControls: validation and normalization (spec: GET /v1/events rules 1, 3, 5, 9, 10). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseEventControls } from '../../src/controls/events.js';
import { encodeQuery } from '../../src/controls/normalized-query.js';
import { parseQueryString } from '../../src/controls/query-string.js';
import { throws400 } from '../fixtures/events-errors.js';

const parse = (qs: string) => parseEventControls(parseQueryString(qs));
const normalized = (qs: string) => encodeQuery(parse(qs).normalized);

describe('parseEventControls', () => {
  test('defaults', () => {
    const c = parse('');
    assert.equal(c.limit, 20);
    assert.equal(c.sort, 'startLocalDate');
    assert.deepEqual(c.fields, ['publicId', 'slug', 'name', 'schedule', 'administrativeStateCode', 'profileMedia', 'artists', 'venues']);
    assert.deepEqual(c.include, []);
    assert.equal(c.context, null);
    assert.equal(c.cursor, null);
    assert.deepEqual(c.normalized, []);
  });

  test('equivalent inputs give the same normalized pairs (order, CSV order, defaults, whitespace, instant digits)', () => {
    const groups = [
      ['', 'limit=20', 'sort=startLocalDate', 'fields=venues,artists,profileMedia,administrativeStateCode,schedule,name,slug,publicId', 'limit=20&sort=startLocalDate&fields=publicId,slug,name,schedule,administrativeStateCode,profileMedia,artists,venues'],
      ['fields=name', 'fields=name,publicId', 'fields=publicId,name', 'fields=%20name%20'],
      ['nameContains=f%C3%AAte', 'nameContains=%20f%C3%AAte%20', 'nameContains=+f%C3%AAte+'],
      ['include=venues,artists', 'include=artists,venues', 'include=artists%20,%20venues'],
      ['sort=updatedAt&fields=updatedAt&updatedSince=2025-01-01T00:00:00Z', 'updatedSince=2025-01-01T00:00:00.0Z&sort=updatedAt&fields=updatedAt,publicId', 'fields=updatedAt&updatedSince=2025-01-01T00:00:00.000000Z&sort=updatedAt'],
      ['startInstantGte=2025-01-01T00:00:00.5Z', 'startInstantGte=2025-01-01T00:00:00.500000Z'],
    ];
    for (const group of groups) {
      const first = normalized(group[0]!);
      for (const qs of group) assert.equal(normalized(qs), first, `${qs} ≡ ${group[0]}`);
    }
    assert.equal(normalized('sort=updatedAt&fields=updatedAt&updatedSince=2025-01-01T00:00:00.1Z'), 'fields=publicId%2CupdatedAt&sort=updatedAt&updatedSince=2025-01-01T00%3A00%3A00.100000Z');
    assert.notEqual(normalized('limit=2'), normalized('limit=3'));
    assert.notEqual(normalized('fields=name'), normalized('fields=slug'));
  });

  test('the normalized query determines the controls: parsed again it gives the same controls, but the cursor (the first pages\' statement memo is keyed by it)', () => {
    const queries = [
      '', 'limit=20', 'limit=7&sort=-startLocalDate', 'fields=%20name%20', 'fields=name,schedule,artists,venues,links,ticketLinks&include=venues,artists',
      'nameContains=%20f%C3%AAte%20', 'nameContains=F%C3%8ATE', 'nameContains=Se%C3%B1or%20Kalani', 'nameContains=x%25_y', 'cityContains=%20London', 'countryContains=DE',
      'temporalPhaseCode=current&sort=-startInstant', 'administrativeStateCode=cancelled&temporalPhaseCode=upcoming',
      'startInstantGte=2025-01-01T00:00:00.5Z&startInstantLt=2025-02-01T00:00:00Z', 'startLocalDateGte=2026-03-01&startLocalDateLt=2026-04-01',
      'sort=updatedAt&fields=updatedAt&updatedSince=2025-01-01T00:00:00.1Z', 'near=51.50,-0.12760', 'near=51.5,-0.1276&radiusKm=50.0', 'near=-33.4489,-70.6693&radiusKm=25&sort=startInstant',
      'artistId=abcdefghijkl', 'venueId=abcdefghijkl&temporalPhaseCode=upcoming', 'seriesId=SrEditioned1&editionId=Ed2024000001', 'cursor=abc&limit=3',
    ];
    for (const qs of queries) {
      const c = parse(qs);
      assert.deepEqual({ ...parse(encodeQuery(c.normalized)), cursor: c.cursor }, c, qs);
    }
  });

  test('property: any permutation of parameters and of CSV members normalizes identically', () => {
    const params: [string, string[]][] = [
      ['limit', ['7']],
      ['fields', ['name', 'schedule', 'artists', 'updatedAt', 'links']],
      ['include', ['artists']],
      ['sort', ['updatedAt']],
      ['nameContains', ['Fête']],
      ['temporalPhaseCode', ['current']],
      ['startLocalDateGte', ['2025-01-01']],
      ['updatedSince', ['2025-01-01T00:00:00.25Z']],
      ['seriesId', ['SrEditioned1']],
      ['editionId', ['Ed2024000001']],
    ];
    const build = (order: number[], csvOrders: number[][]) =>
      order
        .map((i) => {
          const [name, members] = params[i]!;
          const perm = csvOrders[i]!.filter((j) => j < members.length).map((j) => members[j]!);
          return `${name}=${encodeURIComponent(perm.join(','))}`;
        })
        .join('&');
    const reference = normalized(build(params.map((_, i) => i), params.map(([, m]) => m.map((_, j) => j))));
    fc.assert(
      fc.property(
        fc.shuffledSubarray(params.map((_, i) => i), { minLength: params.length }),
        fc.tuple(...params.map(([, m]) => fc.shuffledSubarray(m.map((_, j) => j), { minLength: m.length }))),
        (order, csv) => {
          assert.equal(normalized(build(order, csv)), reference);
        },
      ),
    );
  });

  test('contexts', () => {
    assert.deepEqual(parse('artistId=ArZed0000001').context, { kind: 'artist', artistId: 'ArZed0000001' });
    assert.deepEqual(parse('venueId=VnParis00001').context, { kind: 'venue', venueId: 'VnParis00001' });
    assert.deepEqual(parse('seriesId=SrDirect0001').context, { kind: 'series', seriesId: 'SrDirect0001', editionId: null });
    assert.deepEqual(parse('seriesId=SrDirect0001&editionId=Ed2024000001').context, { kind: 'series', seriesId: 'SrDirect0001', editionId: 'Ed2024000001' });
    throws400(() => parse('artistId=ArZed0000001&venueId=VnParis00001'), 'artistId,venueId');
    throws400(() => parse('editionId=Ed2024000001'), 'editionId');
    throws400(() => parse('venueId=VnParis00001&editionId=Ed2024000001'), 'editionId');
  });

  test('refusals name their parameter', () => {
    throws400(() => parse('limit=0'), 'limit');
    throws400(() => parse('limit=51'), 'limit');
    throws400(() => parse('startLocalDateGte=2025-01-02&startLocalDateLt=2025-01-02'), 'startLocalDateLt');
    throws400(() => parse('startLocalDateGte=2025-01-03&startLocalDateLt=2025-01-02'), 'startLocalDateLt');
    throws400(() => parse('updatedSince=2025-01-01T00:00:00Z'), 'updatedSince');
    throws400(() => parse('updatedSince=2025-01-01T00:00:00Z&sort=updatedAt'), 'updatedSince');
    throws400(() => parse('updatedSince=2025-01-01T00:00:00Z&fields=updatedAt'), 'updatedSince');
    throws400(() => parse('fields=name&include=artists'), 'include');
    throws400(() => parse('nameContains=%20'), 'nameContains');
    throws400(() => parse(`cursor=${'x'.repeat(1025)}`), 'cursor');
    throws400(() => parse('bogus=1'), 'bogus');
    // include without fields keeps the defaults
    assert.deepEqual(parse('include=artists').include, ['artists']);
    // instant bounds may be "inverted": they are independent
    parse('startInstantGte=2025-01-02T00:00:00Z&startInstantLt=2025-01-01T00:00:00Z');
  });
});
