/**
 * A list's cursor shape (sort keys, member publicIds, names) comes from its SQL source, and every
 * source keeps the rules the cursor relies on: the order ends on the member's publicId, each
 * publicId of the identity is itself a sort key, and the compact boundary fingerprints one name
 * per publicId. A source that broke one of these would page wrongly or refuse its own cursors.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ARTIST_LIST, ARTIST_MEMBERS, EDITION_LIST, EDITION_PROGRAMS, SERIES_LIST, SERIES_MEMBERSHIPS, VENUE_MEMBERS } from '../../src/controls/lists.js';
import { parseQueryString } from '../../src/controls/query-string.js';
import { parseListControls, parseMemberControls } from '../../src/controls/resource.js';
import { parseVenueControls } from '../../src/controls/venues.js';
import { artistListSource } from '../../src/queries/artists.js';
import { listShape, type SourceBuilder } from '../../src/queries/list.js';
import {
  editionVenuesSource,
  eventArtistsSource,
  eventEditionsSource,
  eventSeriesSource,
  eventVenuesSource,
  lineupSource,
} from '../../src/queries/members.js';
import { Params } from '../../src/queries/sql.js';
import { editionListSource, seriesListSource } from '../../src/queries/series.js';
import { venueListSource } from '../../src/queries/venues.js';

const q = (search: string) => parseQueryString(search);
const id = 'ev0000000001';

const SOURCES: Record<string, SourceBuilder> = {
  'artists sort=-name': artistListSource(parseListControls(q('sort=-name'), ARTIST_LIST)),
  'artists sort=updatedAt': artistListSource(parseListControls(q('sort=updatedAt'), ARTIST_LIST)),
  'series': seriesListSource(parseListControls(q(''), SERIES_LIST)),
  'editions': editionListSource('se0000000001', parseListControls(q(''), EDITION_LIST)),
  'editions sort=name': editionListSource('se0000000001', parseListControls(q('sort=name'), EDITION_LIST)),
  'venues': venueListSource(parseVenueControls(q(''))),
  'venues sort=distance': venueListSource(parseVenueControls(q('near=48.85,2.35&sort=distance'))),
  'event artists': eventArtistsSource(id, parseMemberControls(q(''), ARTIST_MEMBERS).fields),
  'event venues': eventVenuesSource(id, parseMemberControls(q(''), VENUE_MEMBERS).fields),
  'event series': eventSeriesSource(id, parseMemberControls(q(''), SERIES_MEMBERSHIPS).fields),
  'event editions': eventEditionsSource(id, parseMemberControls(q(''), EDITION_PROGRAMS).fields),
  'series lineup': lineupSource('se0000000001', null, parseMemberControls(q(''), ARTIST_MEMBERS).fields),
  'edition venues': editionVenuesSource('se0000000001', 'ed0000000001', parseMemberControls(q(''), VENUE_MEMBERS).fields),
};

describe('list shapes come from their sources', () => {
  for (const [label, build] of Object.entries(SOURCES)) {
    it(`${label}: the order ends on the member's publicId, each identity part is a key, one name per id`, () => {
      const src = build(new Params());
      const shape = listShape(build);
      assert.deepEqual(shape, { arity: src.keys.length, ids: src.identity.length, names: src.names.length });
      assert.equal(shape.ids, shape.names);
      const keyExprs = src.keys.map((k) => k.expr);
      assert.equal(keyExprs.at(-1), src.identity.at(-1));
      for (const expr of src.identity) {
        assert.match(expr, /\.public_id$/);
        assert.ok(keyExprs.includes(expr), `${expr} is a sort key`);
      }
    });
  }

  it('Edition programs identify a member by two publicIds over four keys; every other list by one over two', () => {
    assert.deepEqual(listShape(SOURCES['event editions']!), { arity: 4, ids: 2, names: 2 });
    assert.deepEqual(listShape(SOURCES['event artists']!), { arity: 2, ids: 1, names: 1 });
  });
});
