/**
 * Series and Edition projections (decisions §3), and the items of the reverse routes 5 and 6,
 * which are exactly the Event's `directEventSeries` and `editionPrograms` entries.
 */
import type { Static } from '@sinclair/typebox';
import type { Selected } from '../contract/common.js';
import type { Edition, EditionProgram, Series, SeriesMembership } from '../contract/resources.js';
import { SERIES_STRUCTURES as STRUCTURES, type EditionField, type EditionProgramField, type SeriesField, type SeriesMembershipField } from '../plan/resource-fields.js';
import type { EditionRow, SeriesRow } from '../queries/series.js';
import type { EditionProgramRow, SeriesRefRow } from '../queries/event-programs.js';
import type { MediaColumns } from '../queries/items.js';
import { nullableText, oneOf, text, urlCollection } from './checks.js';
import { profileMedia } from './items.js';

const media = (row: object) => profileMedia(row as MediaColumns);

export type SeriesOut = Selected<typeof Series>;
export type EditionOut = Selected<typeof Edition>;
export type SeriesMembershipOut = Selected<typeof SeriesMembership>;
export type EditionProgramOut = Static<typeof EditionProgram>;

export function presentSeries(row: SeriesRow, fields: readonly SeriesField[]): SeriesOut {
  const out: SeriesOut = {};
  for (const field of fields) {
    switch (field) {
      case 'publicId':
        out.publicId = text(row.public_id, 'series.publicId');
        break;
      case 'slug':
        out.slug = text(row.slug, 'series.slug');
        break;
      case 'name':
        out.name = text(row.name, 'series.name');
        break;
      case 'structureCode':
        out.structureCode = oneOf(row.structure_code, STRUCTURES, 'series.structureCode');
        break;
      case 'profileMedia':
        out.profileMedia = media(row);
        break;
      case 'description':
        out.description = nullableText(row.description, 'series.description');
        break;
      case 'links':
        out.links = urlCollection(row.links, 'series.links');
        break;
      case 'updatedAt':
        out.updatedAt = text(row.updated_at, 'series.updatedAt');
        break;
    }
  }
  return out;
}

export function presentEdition(row: EditionRow, fields: readonly EditionField[]): EditionOut {
  const out: EditionOut = {};
  for (const field of fields) {
    switch (field) {
      case 'publicId':
        out.publicId = text(row.public_id, 'edition.publicId');
        break;
      case 'slug':
        out.slug = text(row.slug, 'edition.slug');
        break;
      case 'name':
        out.name = text(row.name, 'edition.name');
        break;
      case 'series':
        out.series = {
          publicId: text(row.s_public_id, 'edition.series.publicId'),
          slug: text(row.s_slug, 'edition.series.slug'),
          name: text(row.s_name, 'edition.series.name'),
        };
        break;
      case 'startLocalDate':
        out.startLocalDate = text(row.start_local_date, 'edition.startLocalDate');
        break;
      case 'endLocalDate':
        out.endLocalDate = nullableText(row.end_local_date, 'edition.endLocalDate');
        break;
      case 'profileMedia':
        out.profileMedia = media(row);
        break;
      case 'description':
        out.description = nullableText(row.description, 'edition.description');
        break;
      case 'links':
        out.links = urlCollection(row.links, 'edition.links');
        break;
      case 'updatedAt':
        out.updatedAt = text(row.updated_at, 'edition.updatedAt');
        break;
    }
  }
  return out;
}

const ALL_MEMBERSHIP: readonly SeriesMembershipField[] = ['publicId', 'slug', 'name', 'structureCode'];
const ALL_PROGRAM: readonly EditionProgramField[] = ['series', 'edition'];

/** A direct Series membership: `{publicId, slug, name, structureCode}` (selected keys). */
export function seriesMembership(
  row: Omit<SeriesRefRow, 'owner_id'> & { owner_id?: string },
  fields: readonly SeriesMembershipField[] = ALL_MEMBERSHIP,
  what = 'directEventSeries',
): SeriesMembershipOut {
  const out: SeriesMembershipOut = {};
  for (const field of fields) {
    if (field === 'publicId') out.publicId = text(row.public_id, `${what}.publicId`);
    else if (field === 'slug') out.slug = text(row.slug, `${what}.slug`);
    else if (field === 'name') out.name = text(row.name, `${what}.name`);
    else out.structureCode = oneOf(row.structure_code, STRUCTURES, `${what}.structureCode`);
  }
  return out;
}

/** An Edition program: `{series: {publicId, slug, name}, edition: {publicId, slug, name}}`. */
export function editionProgram(
  row: Omit<EditionProgramRow, 'owner_id'> & { owner_id?: string },
  fields: readonly EditionProgramField[] = ALL_PROGRAM,
  what = 'editionPrograms',
): EditionProgramOut {
  const out: EditionProgramOut = {};
  if (fields.includes('series')) {
    out.series = {
      publicId: text(row.s_public_id, `${what}.series.publicId`),
      slug: text(row.s_slug, `${what}.series.slug`),
      name: text(row.s_name, `${what}.series.name`),
    };
  }
  if (fields.includes('edition')) {
    out.edition = {
      publicId: text(row.ed_public_id, `${what}.edition.publicId`),
      slug: text(row.ed_slug, `${what}.edition.slug`),
      name: text(row.ed_name, `${what}.edition.name`),
    };
  }
  return out;
}
