/**
 * Series and Edition reads (decisions §3): columns per selection, the Series collection, a
 * Series' Editions (route 14) and the details (routes 12, 15). An inactive Edition is
 * invisible, as is everything under an inactive Series; an Edition is only read under its own
 * Series.
 */
import type { ListControls } from '../controls/resource.js';
import type { EditionField, EditionSort, NamedSort, SeriesField } from '../plan/resource-fields.js';
import { MEDIA_COLUMNS, selectedMediaJoin as mediaJoin, type MediaColumns } from './items.js';
import { editionKeys, namedKeys, type SourceBuilder } from './list.js';
import { Params, dateText, literalNameMatch, addUpdatedSince, utcText } from './sql.js';
import type { Statement } from './statement.js';
import { detailStatements } from './statement-memo.js';

/** A Series row: the selected columns (the profile media ones when `profileMedia` is selected). */
export interface SeriesRow extends Partial<MediaColumns> {
  public_id: string;
  slug?: string;
  name?: string;
  structure_code?: string;
  description?: string | null;
  links?: unknown;
  updated_at?: string;
}

export interface EditionRow extends Omit<SeriesRow, 'structure_code'> {
  s_public_id?: string;
  s_slug?: string;
  s_name?: string;
  start_local_date?: string;
  end_local_date?: string | null;
}

export function seriesColumns(s: string, fields: readonly SeriesField[]): string[] {
  const has = (f: SeriesField) => fields.includes(f);
  return [
    `${s}.public_id`,
    ...(has('slug') ? [`${s}.slug`] : []),
    ...(has('name') ? [`${s}.name`] : []),
    ...(has('structureCode') ? [`${s}.structure_code`] : []),
    ...(has('description') ? [`${s}.description`] : []),
    ...(has('links') ? [`${s}.links`] : []),
    ...(has('updatedAt') ? [`${utcText(`${s}.updated_at`)} AS updated_at`] : []),
    ...(has('profileMedia') ? [MEDIA_COLUMNS('pm')] : []),
  ];
}

/** `ed` the Edition, `s` its Series. */
export function editionColumns(ed: string, s: string, fields: readonly EditionField[]): string[] {
  const has = (f: EditionField) => fields.includes(f);
  return [
    `${ed}.public_id`,
    ...(has('slug') ? [`${ed}.slug`] : []),
    ...(has('name') ? [`${ed}.name`] : []),
    ...(has('series') ? [`${s}.public_id AS s_public_id`, `${s}.slug AS s_slug`, `${s}.name AS s_name`] : []),
    ...(has('startLocalDate') ? [`${dateText(`${ed}.start_local_date`)} AS start_local_date`] : []),
    ...(has('endLocalDate') ? [`${dateText(`${ed}.end_local_date`)} AS end_local_date`] : []),
    ...(has('description') ? [`${ed}.description`] : []),
    ...(has('links') ? [`${ed}.links`] : []),
    ...(has('updatedAt') ? [`${utcText(`${ed}.updated_at`)} AS updated_at`] : []),
    ...(has('profileMedia') ? [MEDIA_COLUMNS('pm')] : []),
  ];
}

export function seriesListSource(c: ListControls<SeriesField, NamedSort>): SourceBuilder {
  return (p) => {
    const where = ['s.active'];
    if (c.nameContains !== null) where.push(literalNameMatch('s', c.nameContains, p));
    // the updatedAt feed alone: a range walk of the sort index, stable (queries/sql.ts)
    const feed = addUpdatedSince(where, 's', c.updatedSince, c.sort === 'updatedAt', p);
    return {
      name: 'series.list',
      columns: seriesColumns('s', c.fields),
      from: `series s ${mediaJoin('s', c.fields)}`,
      where,
      keys: namedKeys('s', c.sort),
      identity: ['s.public_id'],
      names: ['s.name'],
      stablePlan: where.length === 1 || feed, // unfiltered, or the feed alone
    };
  };
}

const seriesDetails = detailStatements<SeriesField>((fields, seriesId) => {
  const p = new Params();
  const text = `SELECT ${seriesColumns('s', fields).join(', ')}
    FROM series s ${mediaJoin('s', fields)}
    WHERE s.public_id = ${p.add(seriesId)} AND s.active`;
  return { name: 'series.detail', text, values: p.values, stablePlan: true };
});

export const seriesDetailStatement = (seriesId: string, fields: readonly SeriesField[]): Statement => seriesDetails(fields, seriesId);

/** Route 14: the active Editions of an active Series. */
export function editionListSource(seriesId: string, c: ListControls<EditionField, EditionSort>): SourceBuilder {
  return (p) => {
    const where = [`s.public_id = ${p.add(seriesId)}`, 's.active', 'ed.active'];
    if (c.updatedSince !== null) where.push(`ed.updated_at >= ${p.add(c.updatedSince, 'timestamptz')}`);
    return {
      name: 'editions.list',
      columns: editionColumns('ed', 's', c.fields),
      from: `editions ed JOIN series s ON s.id = ed.series_id ${mediaJoin('ed', c.fields)}`,
      where,
      keys: editionKeys('ed', c.sort),
      identity: ['ed.public_id'],
      names: ['ed.name'],
      stablePlan: c.updatedSince === null,
    };
  };
}

const editionDetails = detailStatements<EditionField>((fields, editionId, seriesId) => {
  const p = new Params();
  const text = `SELECT ${editionColumns('ed', 's', fields).join(', ')}
    FROM editions ed JOIN series s ON s.id = ed.series_id ${mediaJoin('ed', fields)}
    WHERE s.public_id = ${p.add(seriesId)} AND s.active
      AND ed.public_id = ${p.add(editionId)} AND ed.active`;
  return { name: 'editions.detail', text, values: p.values, stablePlan: true };
});

export const editionDetailStatement = (seriesId: string, editionId: string, fields: readonly EditionField[]): Statement =>
  editionDetails(fields, editionId, seriesId);
