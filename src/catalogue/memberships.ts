/**
 * The memberships of a merge (inside the import transaction): each staged owner's lists replace
 * its stored ones, in the document's order (`position`), members found by publicId among the
 * merged entities (the checks have already rejected a dangling reference, or left the lists to be
 * counted here: `mergeMemberships`). A first import's Event Artists and Venues resolved in Node
 * are COPYed instead (direct-memberships.ts); the SQL writes the lists it could not resolve.
 */
import type pg from 'pg';
import type { Collection } from './document.js';
import type { DirectMemberships, DirectPart } from './direct-memberships.js';
import { STAGE } from './rows.js';

interface Membership {
  readonly table: string;
  readonly owner: string;
  readonly member: string;
  readonly from: Collection;
  readonly column: string;
  readonly to: Collection;
  readonly position: boolean;
}

const MEMBERSHIPS: readonly Membership[] = [
  { table: 'artist_profile_media', owner: 'artist_id', member: 'media_id', from: 'artists', column: 'profile_media_pids', to: 'media', position: true },
  { table: 'edition_venues', owner: 'edition_id', member: 'venue_id', from: 'editions', column: 'venue_pids', to: 'venues', position: true },
  { table: 'event_artists', owner: 'event_id', member: 'artist_id', from: 'events', column: 'artist_pids', to: 'artists', position: true },
  { table: 'event_venues', owner: 'event_id', member: 'venue_id', from: 'events', column: 'venue_pids', to: 'venues', position: true },
  { table: 'event_series', owner: 'event_id', member: 'series_id', from: 'events', column: 'series_pids', to: 'series', position: false },
  { table: 'event_editions', owner: 'event_id', member: 'edition_id', from: 'events', column: 'edition_pids', to: 'editions', position: false },
  { table: 'event_gallery', owner: 'event_id', member: 'media_id', from: 'events', column: 'gallery_pids', to: 'media', position: true },
];

/** The membership tables (a first import builds their keys once they are written: bulk-load.ts). */
export const MEMBERSHIP_TABLES: readonly string[] = MEMBERSHIPS.map((m) => m.table);

const OWNERS = 'membership_owners';

/**
 * Per collection merged into an empty table (merge.ts), the base of its rows' ids: a staged row's
 * id is the base plus its `ord`.
 */
export type StagedIds = Partial<Record<Collection, string>>;

/**
 * The staged owners of `memberships` (all from one collection), as `s` with `owner_id` and the
 * staged arrays: each row's id from its order (`base`), or from the stored row by publicId. Where
 * the collection has several memberships (the Events' five), the staged rows are joined with their
 * stored ids once, into a narrow temporary table, instead of once per membership: each join would
 * read both wide tables whole.
 */
async function membershipOwners(client: pg.PoolClient, from: Collection, memberships: readonly Membership[], base: string | undefined) {
  const columns = memberships.map((m) => `s.${m.column}`).join(', ');
  const select = base === undefined
    ? `SELECT o.id AS owner_id, ${columns} FROM ${STAGE[from].table} s JOIN ${from} o ON o.public_id = s.public_id`
    : `SELECT $1::bigint + s.ord AS owner_id, ${columns} FROM ${STAGE[from].table} s`;
  const params = base === undefined ? [] : [base];
  // `lists`: the staged lists alone, for counting their elements (no owner ids needed)
  const staged = `${STAGE[from].table} s`;
  if (memberships.length === 1) return { from: `(${select}) s`, params, lists: staged, drop: async () => {} };
  await client.query(`CREATE TEMP TABLE ${OWNERS} AS ${select}`, params);
  return { from: `${OWNERS} s`, params: [], lists: `${OWNERS} s`, drop: async () => void (await client.query(`DROP TABLE ${OWNERS}`)) };
}

/** A staged list whose memberships the merge counts: its collection and staging column. */
export interface CountedList {
  readonly from: Collection;
  readonly column: string;
}

/**
 * Replaces the memberships of every staged owner. For the lists of `counted` (checks.ts: left to
 * the merge), also counts their staged elements (every staged row is an owner once merged);
 * returns false when a list wrote fewer memberships than it has elements (a reference resolved to
 * no entity, staged or stored: each element matches at most one, publicIds being unique). A NULL element would count too, though it resolves to
 * nothing: a document without problems has none, and the caller's exact check would find no
 * problem in it. With `direct`, the lists it resolved are written by COPY (each element was found
 * among the document's members, so none of them is counted), and only the others by the SQL.
 * `only`: the collections whose staged rows' memberships are written (by default all).
 */
export async function mergeMemberships(
  client: pg.PoolClient,
  counted: readonly CountedList[] = [],
  ids: StagedIds = {},
  direct?: DirectMemberships,
  only?: readonly Collection[],
): Promise<boolean> {
  let resolved = true;
  for (const from of new Set(MEMBERSHIPS.map((m) => m.from))) {
    if (only !== undefined && !only.includes(from)) continue;
    const all = MEMBERSHIPS.filter((m) => m.from === from);
    // a first import's Event Artists and Venues, resolved while reading (direct-memberships.ts):
    // only Events into an empty table (their ids from `ids`), so there is nothing to delete
    const owned = ids[from];
    const parts = new Map<Membership, DirectPart>();
    if (direct && from === 'events' && owned !== undefined) {
      for (const m of all) {
        const part = await direct.part(m.to, owned, ids[m.to]);
        if (part) parts.set(m, part);
      }
    }
    for (const [m, part] of parts) await part.copy(client, m.table, [m.owner, m.member, 'position']);
    // the SQL writes the other lists, and the listed ones it could not resolve
    const memberships = all.filter((m) => (parts.get(m)?.unresolved.length ?? 1) > 0);
    if (memberships.length === 0) continue;
    const owners = await membershipOwners(client, from, memberships, owned);
    const toCount = memberships.filter((m) => !parts.has(m) && counted.some((c) => c.from === m.from && c.column === m.column));
    const elements = toCount.length === 0 ? {} : (await client.query<Record<string, string>>(
      `SELECT ${toCount.map((m) => `coalesce(sum(cardinality(s.${m.column})), 0) AS ${m.column}`).join(', ')} FROM ${owners.lists}`,
    )).rows[0]!;
    for (const m of memberships) {
      const part = parts.get(m);
      // a listed kind: only its unresolved owners, given by id
      const only = part === undefined ? '' : ` WHERE s.owner_id = ANY($${owners.params.length + 1}::bigint[])`;
      const params = part === undefined ? owners.params : [...owners.params, part.unresolved];
      if (part === undefined) await client.query(`DELETE FROM ${m.table} d USING ${owners.from} WHERE d.${m.owner} = s.owner_id`, owners.params);
      const written = await client.query(
        `INSERT INTO ${m.table} (${m.owner}, ${m.member}${m.position ? ', position' : ''})
         SELECT s.owner_id, x.id${m.position ? ', (t.pos - 1)::int' : ''}
           FROM ${owners.from}
          CROSS JOIN LATERAL unnest(s.${m.column}) WITH ORDINALITY AS t(pid, pos)
           JOIN ${m.to} x ON x.public_id = t.pid${only}`,
        params,
      );
      if (m.column in elements && Number(elements[m.column]) !== (written.rowCount ?? 0)) resolved = false;
      if (part !== undefined && counted.some((c) => c.from === m.from && c.column === m.column)) {
        const { rows } = await client.query<{ n: string }>(
          `SELECT coalesce(sum(cardinality(s.${m.column})), 0) AS n FROM ${owners.from}${only}`,
          params,
        );
        if (Number(rows[0]!.n) !== (written.rowCount ?? 0)) resolved = false;
      }
    }
    await owners.drop();
  }
  return resolved;
}
