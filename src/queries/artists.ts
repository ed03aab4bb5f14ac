/** Artist reads (decisions §3): the collection's list source and the detail statement. */
import type { ListControls } from '../controls/resource.js';
import type { ArtistField, NamedSort } from '../plan/resource-fields.js';
import { artistColumns, artistMediaJoin } from './items.js';
import { namedKeys, type SourceBuilder } from './list.js';
import { Params, literalNameMatch, addUpdatedSince } from './sql.js';
import type { Statement } from './statement.js';
import { detailStatements } from './statement-memo.js';

/** Legacy Artists may hold several profile media: the first ready one (queries/items.ts). */
export const artistMedia = (alias: string, fields: readonly ArtistField[]) => (fields.includes('profileMedia') ? artistMediaJoin(alias) : '');

export function artistListSource(c: ListControls<ArtistField, NamedSort>): SourceBuilder {
  return (p) => {
    const where = ['a.active'];
    if (c.nameContains !== null) where.push(literalNameMatch('a', c.nameContains, p));
    // the updatedAt feed alone: a range walk of the sort index, stable (queries/sql.ts)
    const feed = addUpdatedSince(where, 'a', c.updatedSince, c.sort === 'updatedAt', p);
    return {
      name: 'artists.list',
      columns: artistColumns('a', c.fields),
      from: `artists a ${artistMedia('a', c.fields)}`,
      where,
      keys: namedKeys('a', c.sort),
      identity: ['a.public_id'],
      names: ['a.name'],
      stablePlan: where.length === 1 || feed, // unfiltered, or the feed alone
    };
  };
}

const artistDetails = detailStatements<ArtistField>((fields, artistId) => {
  const p = new Params();
  const text = `SELECT ${artistColumns('a', fields).join(', ')}
    FROM artists a ${artistMedia('a', fields)}
    WHERE a.public_id = ${p.add(artistId)} AND a.active`;
  return { name: 'artists.detail', text, values: p.values, stablePlan: true };
});

export const artistDetailStatement = (artistId: string, fields: readonly ArtistField[]): Statement => artistDetails(fields, artistId);
