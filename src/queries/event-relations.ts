/**
 * The statements that complete a page of Events, one per relationship whatever the page size
 * (no N+1): Artist and Venue previews (first PREVIEW_SIZE + 1 members per Event, in the order of
 * the relationship routes: name bytewise, then publicId). The direct Series and Edition programs
 * are event-programs.ts's.
 */
import type { TextValue } from '../db/raw-text.js';
import { Params, rowLimit } from './sql.js';
import { artistItemColumns, artistMediaJoin, outputName, singleMediaJoin, venueItemColumns } from './items.js';
import type { EventField, EventInclude } from '../plan/event-fields.js';
import type { Statement } from './statement.js';
import { renderRichPreview, type PreviewMember } from './member-previews.js';

export const PREVIEW_SIZE = 5;

interface PreviewShape {
  /** Membership table and its column naming the member. */
  readonly link: 'event_artists' | 'event_venues';
  readonly memberColumn: 'artist_id' | 'venue_id';
  readonly table: 'artists' | 'venues';
  readonly alias: string;
  /** The allow-listed columns, one select-list item each. */
  readonly columns: readonly string[];
  readonly mediaJoin: string;
  /** Rich: each member's text is stored on its row (queries/member-previews.ts). */
  readonly stored: PreviewMember | null;
}

/**
 * The first PREVIEW_SIZE + 1 active members of each Event, in relationship-route order, as one
 * JSON array text per Event (`items`): each member's row is the allow-listed columns of the
 * outer projection, rendered by `row_to_json` (the stored previews' `to_jsonb` orders the keys
 * differently and costs more; both parse to equal rows: test/catalogue/event-previews.test.ts). The
 * lateral pick carries the member's row, so no member is looked up twice
 * (docs/architecture.md#one-statement-per-read).
 * Rich previews (`include`) are the members' stored texts (queries/member-previews.ts), rendered
 * here only for a row without one. As text, a page's previews reach Node as one column per
 * Event, and equal texts are parsed and projected once (queries/preview-texts.ts,
 * present/event.ts). Events without an active member are absent.
 */
function previewText(shape: PreviewShape): string {
  const { items, from } = firstMembers(shape, 'x.event_id');
  return `SELECT x.event_id::text AS owner_id, ${items} AS items
    FROM unnest($1::bigint[]) AS x(event_id)
    CROSS JOIN LATERAL ${from}
    GROUP BY x.event_id`;
}

/**
 * The first PREVIEW_SIZE + 1 active members of the Event whose id is `eventId` (an SQL
 * expression), in relationship-route order: `from` (a subquery with the members' joins), and
 * `items`, their JSON array text (an aggregate over `from`).
 */
function firstMembers(shape: PreviewShape, eventId: string): { readonly items: string; readonly from: string } {
  const m = shape.alias;
  const [item, rendered] =
    shape.stored === null
      ? ['row_to_json(r)::text', `${shape.mediaJoin}\n    CROSS JOIN LATERAL (SELECT ${shape.columns.join(', ')}) r`]
      : [storedItem(shape.stored, m), ''];
  return {
    items: `'[' || string_agg(${item}, ', ' ORDER BY ${m}.name, ${m}.public_id) || ']'`,
    from: `(${memberPick(shape, eventId, memberColumns(m, `${item} ${rendered}`))}) ${m}
    ${rendered}`,
  };
}

/** The Event's first PREVIEW_SIZE + 1 active members in relationship-route order, selecting `select`. */
function memberPick(shape: PreviewShape, eventId: string, select: string): string {
  const m = shape.alias;
  return `
      SELECT ${select}
        FROM ${shape.link} l JOIN ${shape.table} ${m} ON ${m}.id = l.${shape.memberColumn} AND ${m}.active
       WHERE l.event_id = ${eventId}
       ORDER BY ${m}.name, ${m}.public_id
       ${rowLimit(PREVIEW_SIZE + 1)}`;
}

/** A member's rich preview: its stored text, or rendered from its row when it has none. */
const storedItem = (member: PreviewMember, m: string) => `coalesce(${m}.rich_preview, ${renderRichPreview(member, m)})`;

/** A row of the preview statements: an Event's previews as a JSON array text. */
export interface PreviewTextRow {
  owner_id: string;
  items: TextValue;
}

/**
 * For the importer's stored previews (every Event of a first import; the Events an import may
 * have changed otherwise): the same members, columns, joins and order as `previewText`, with
 * each member's row rendered ONCE as its JSON array (`preview_json`) and numbered in the preview
 * order (`preview_order`: name, then publicId). Only active members of an Event listed in
 * `targets` (a table with an `id` column), or every active member when `targets` is null (every
 * Event).
 * An Event's previews are then its memberships' texts in that order, concatenated
 * (catalogue/event-previews.ts): rendered per member (250,000 Artists at 1,000,000 Events)
 * instead of per membership row (2.6 million).
 *
 * A member's text is the array of its values in the order of its columns (`STORED_PREVIEW_NAMES`,
 * which queries/preview-texts.ts zips back into the row `previewText` returns), not an object
 * repeating every key: about half the text to store, write and read (previews stored as objects
 * still decode to the same rows).
 */
function previewMembersText(shape: PreviewShape, targets: string | null): string {
  const m = shape.alias;
  // every Event (a first import): every active member, not only those of the targets' memberships
  const shown = targets === null ? '' : `AND ${m}.id IN (SELECT l.${shape.memberColumn} FROM ${shape.link} l JOIN ${targets} t ON t.id = l.event_id)`;
  return `SELECT ${m}.id, row_number() OVER (ORDER BY ${m}.name, ${m}.public_id) AS preview_order,
           json_build_array(${shape.columns.map((c) => `r.${outputName(c)}`).join(', ')}) AS preview_json
      FROM ${shape.table} ${m} ${shape.mediaJoin}
     CROSS JOIN LATERAL (SELECT ${shape.columns.join(', ')}) r
     WHERE ${m}.active
       ${shown}`;
}

/** The member's own columns that the outer projection and joins read (`m.x`), plus its order. */
function memberColumns(m: string, outerSql: string): string {
  const used = new Set(['id', 'name', 'public_id']);
  for (const match of outerSql.matchAll(new RegExp(`\\b${m}\\.([a-z_]+)`, 'g'))) used.add(match[1]!);
  return [...used].map((c) => `${m}.${c}`).join(', ');
}

/**
 * The text depends only on the shape (Artist or Venue, plain or rich): built once per shape; a
 * page supplies only its Event ids ($1).
 */
const previewTexts = new Map<string, string>();
function previewsStatement(eventIds: readonly string[], name: string, rich: boolean, shape: () => PreviewShape): Statement {
  const key = `${name}:${rich}`;
  let text = previewTexts.get(key);
  if (text === undefined) {
    text = previewText(shape());
    previewTexts.set(key, text);
  }
  return { name, text, values: [eventIds], stablePlan: true, rawText: ['items'] };
}

const ARTIST_PREVIEWS = (rich: boolean): PreviewShape => ({
  link: 'event_artists',
  memberColumn: 'artist_id',
  table: 'artists',
  alias: 'a',
  columns: artistItemColumns('a', rich),
  mediaJoin: artistMediaJoin('a'),
  stored: rich ? 'artists' : null,
});

const VENUE_PREVIEWS = (rich: boolean): PreviewShape => ({
  link: 'event_venues',
  memberColumn: 'venue_id',
  table: 'venues',
  alias: 'v',
  columns: venueItemColumns('v', rich),
  mediaJoin: singleMediaJoin('v'),
  stored: rich ? 'venues' : null,
});

/**
 * The names of a stored preview's values, in their order (`previewMembersText`): the output names
 * of the plain item's columns. Changing a list changes what the stored texts mean, so a release
 * that changes one must rewrite every stored preview (a migration, as 005 filled them); a stored
 * member of another length is refused by the projection (queries/preview-texts.ts).
 */
export const STORED_PREVIEW_NAMES = {
  artists: ARTIST_PREVIEWS(false).columns.map(outputName),
  venues: VENUE_PREVIEWS(false).columns.map(outputName),
} as const;

export const artistPreviewsStatement = (eventIds: readonly string[], rich: boolean): Statement =>
  previewsStatement(eventIds, 'events.artistPreviews', rich, () => ARTIST_PREVIEWS(rich));

export const venuePreviewsStatement = (eventIds: readonly string[], rich: boolean): Statement =>
  previewsStatement(eventIds, 'events.venuePreviews', rich, () => VENUE_PREVIEWS(rich));

/** The previews a selection shows rich (selected and included). */
export interface RichPreviews {
  readonly artists: boolean;
  readonly venues: boolean;
}
export const richPreviews = (fields: readonly EventField[], include: readonly EventInclude[]): RichPreviews => ({
  artists: fields.includes('artists') && include.includes('artists'),
  venues: fields.includes('venues') && include.includes('venues'),
});

/**
 * The rich previews as columns of the Event rows' own statement (an Events page's, an Event
 * detail's): per row, the same JSON array text as the rich preview statements' `items` for that
 * Event (`eventId`, the SQL expression of its id), NULL for an Event without an active member
 * (the statements leave it out). Read with the page, an `include` page is one statement instead
 * of three: two round trips less, with their protocol messages, wake-ups and socket writes
 * (docs/architecture.md#one-statement-per-read). The statements above stay the reading of a caller
 * without such a row (fetchEventRelations), and the reference the tests compare these columns with.
 */
export function richPreviewColumns(rich: RichPreviews, eventId: string): string[] {
  const column = (shape: PreviewShape, name: string) => `${firstMembersArray(shape, eventId)} AS ${name}`;
  return [...(rich.artists ? [column(ARTIST_PREVIEWS(true), 'rich_artists')] : []), ...(rich.venues ? [column(VENUE_PREVIEWS(true), 'rich_venues')] : [])];
}

/**
 * `firstMembers`' items for one Event as one expression, for members whose texts are stored
 * (rich): the texts of the ordered, limited members in an `ARRAY(…)`, which keeps its subquery's
 * order, joined by ', ' (NULL for none, as `string_agg` over no row). `string_agg(… ORDER BY …)`
 * over that subquery would sort the rows it has just sorted, in a sort of its own per Event and
 * kind: PostgreSQL 15 does not see that its input is in order.
 */
function firstMembersArray(shape: PreviewShape, eventId: string): string {
  if (shape.stored === null) throw new Error('firstMembersArray renders stored member texts only');
  return `('[' || nullif(array_to_string(ARRAY(${memberPick(shape, eventId, storedItem(shape.stored, shape.alias))}), ', '), '') || ']')`;
}

/**
 * Each listed Event's previews as one JSON array, from `members` (a table filled by
 * `previewMembersText`, keyed by `id`): its first PREVIEW_SIZE + 1 memberships in preview order,
 * their texts joined by ',' (`array_to_json` of json values writes each one's text as it is: the
 * text of `'[' || array_to_string(…, ',') || ']'`, but a json value that the stored column takes
 * without parsing it again).
 * Events without an active member are absent (the caller writes []). `targets` null: every Event.
 *
 * An ordered aggregate cut to its first items, not a window numbering every membership: grouped
 * over the membership's key (Event order), each Event's few members are sorted alone. At
 * 1,000,000 Events, with every Event a target, both arrays come out in Event order and join the
 * Events by merge instead of two large hash joins spilled to disk.
 */
function previewItemsText(shape: PreviewShape, targets: string | null, members: string): string {
  const listed = targets === null ? '' : `WHERE l.event_id IN (SELECT t.id FROM ${targets} t)`;
  return `SELECT l.event_id,
           array_to_json((array_agg(m.preview_json ORDER BY m.preview_order))[1:${PREVIEW_SIZE + 1}]) AS items
      FROM ${shape.link} l JOIN ${members} m ON m.id = l.${shape.memberColumn}
     ${listed}
     GROUP BY l.event_id`;
}

/** The importer's two steps for the plain previews of the Events listed in the table `targets`. */
export interface StoredPreviewTexts {
  /** The members shown, rendered once each (a SELECT to fill the table `members`). */
  readonly members: string;
  /** Per Event, the array text (reads `members`). */
  readonly items: (members: string) => string;
}
const storedPreviewTexts = (shape: PreviewShape, targets: string | null): StoredPreviewTexts => ({
  members: previewMembersText(shape, targets),
  items: (members) => previewItemsText(shape, targets, members),
});
export const storedArtistPreviewTexts = (targets: string | null) => storedPreviewTexts(ARTIST_PREVIEWS(false), targets);
export const storedVenuePreviewTexts = (targets: string | null) => storedPreviewTexts(VENUE_PREVIEWS(false), targets);

/**
 * The stored previews of the Events (migration 005, kept by src/catalogue/event-previews.ts): the
 * rows the plain preview statements above return, per Event, as JSON arrays, read as their text
 * (queries/preview-texts.ts parses each distinct text once). An Event without a stored row is
 * absent from the result (its previews are then read by those statements).
 */
export interface StoredPreviewsRow {
  owner_id: string;
  artists?: TextValue;
  venues?: TextValue;
}

/** The previews a selection shows plain (selected, not included): those are the stored ones. */
export interface PlainPreviews {
  readonly artists: boolean;
  readonly venues: boolean;
}
export const plainPreviews = (fields: readonly EventField[], include: readonly EventInclude[]): PlainPreviews => ({
  artists: fields.includes('artists') && !include.includes('artists'),
  venues: fields.includes('venues') && !include.includes('venues'),
});
export const anyPlain = (plain: PlainPreviews) => plain.artists || plain.venues;

export function storedPreviewsStatement(eventIds: readonly string[], plain: PlainPreviews): Statement {
  const columns = [...(plain.artists ? ['p.artists::text AS artists'] : []), ...(plain.venues ? ['p.venues::text AS venues'] : [])];
  const p = new Params();
  // (an Events page and an Event detail read them in their own statement; this is for a reader
  // of relationships without that row, as test/catalogue/event-previews.test.ts compares them)
  const text = `SELECT p.event_id::text AS owner_id, ${columns.join(', ')}
    FROM event_previews p WHERE p.event_id ${idsCondition(eventIds, p)}`;
  return { name: 'events.storedPreviews', text, values: p.values, stablePlan: true, rawText: ['artists', 'venues'] };
}

/**
 * `= $1` for one Event, `= ANY($1)` for several: PostgreSQL prices `= ANY` of an unknown array
 * above its custom plans and so re-plans it on every execution; a single id keeps the generic plan.
 */
function idsCondition(eventIds: readonly string[], p: Params): string {
  return eventIds.length === 1 ? `= ${p.add(eventIds[0], 'bigint')}` : `= ANY(${p.add(eventIds, 'bigint[]')})`;
}
