/**
 * Whole-document checks, run in SQL on the staging tables once every array has been read
 * (arrays may come in any order): duplicate publicIds, then dangling references (a clean
 * document's lists are counted by the merge instead: `checkStaging`).
 *
 * A reference resolves to an entity of the document, or, without --replace, to one already
 * stored (with --replace every entity absent from the document is removed, so references must
 * resolve within the document). Invalid entities are still staged (as placeholders) so that
 * references to them do not count as dangling, with their well-formed references.
 */
import type pg from 'pg';
import { COLLECTIONS, ENTITY_NAMES, MAX_PROBLEMS, ProblemList, type Collection } from './document.js';
import { STAGE } from './rows.js';

export interface Reference {
  readonly from: Collection;
  /** staging column: text (one id) or text[] (a list) */
  readonly column: string;
  readonly list: boolean;
  /** document field named in problems */
  readonly field: string;
  readonly to: Collection;
}

export const REFERENCES: readonly Reference[] = [
  { from: 'artists', column: 'profile_media_pids', list: true, field: 'profileMediaIds', to: 'media' },
  { from: 'venues', column: 'profile_media_pid', list: false, field: 'profileMediaId', to: 'media' },
  { from: 'series', column: 'profile_media_pid', list: false, field: 'profileMediaId', to: 'media' },
  { from: 'editions', column: 'series_pid', list: false, field: 'seriesId', to: 'series' },
  { from: 'editions', column: 'profile_media_pid', list: false, field: 'profileMediaId', to: 'media' },
  { from: 'editions', column: 'venue_pids', list: true, field: 'venueIds', to: 'venues' },
  { from: 'events', column: 'profile_media_pid', list: false, field: 'profileMediaId', to: 'media' },
  { from: 'events', column: 'gallery_pids', list: true, field: 'galleryMediaIds', to: 'media' },
  { from: 'events', column: 'artist_pids', list: true, field: 'artistIds', to: 'artists' },
  { from: 'events', column: 'venue_pids', list: true, field: 'venueIds', to: 'venues' },
  { from: 'events', column: 'series_pids', list: true, field: 'seriesIds', to: 'series' },
  { from: 'events', column: 'edition_pids', list: true, field: 'editionIds', to: 'editions' },
];

/**
 * Adds duplicate and dangling-reference problems to `problems`. Duplicates are looked for in the
 * collections `repeated` names (staging.ts `finishStaging`: the others' publicIds are distinct).
 *
 * Returns the references left to the merge: when the document has no problem so far and every
 * reference may resolve to a stored entity (no --replace), its lists (an Event's Artists, Venues…)
 * are not checked here but counted by the merge as it writes their memberships (memberships.ts):
 * one join of each list with its members, not two. A list whose memberships come out fewer than
 * its elements has a dangling reference; `checkReferences` then names every problem, in the order
 * and words of this check (importer.ts). Counting costs the merge's one backend a small fraction of
 * what checking every list element would.
 */
export async function checkStaging(
  client: pg.PoolClient,
  problems: ProblemList,
  replace: boolean,
  repeated: ReadonlySet<Collection>,
): Promise<readonly Reference[]> {
  for (const collection of COLLECTIONS.filter((c) => repeated.has(c))) {
    const { rows } = await client.query<{ public_id: string; n: string; total: string }>(
      `SELECT public_id, count(*) AS n, count(*) OVER () AS total
         FROM ${STAGE[collection].table}
        GROUP BY public_id HAVING count(*) > 1
        ORDER BY min(ord) LIMIT $1`,
      [MAX_PROBLEMS],
    );
    addAll(
      problems,
      rows.map((r) => `${ENTITY_NAMES[collection]} ${r.public_id}: publicId: duplicate (appears ${r.n} times in ${collection})`),
      rows[0]?.total,
    );
  }
  if (problems.total > 0 || replace) {
    await checkReferences(client, problems, replace);
    return [];
  }
  // the single references first, aside: any problem among them, and every reference is checked
  // here, in order
  const single = new ProblemList();
  await checkReferences(client, single, replace, REFERENCES.filter((r) => !r.list));
  if (single.total > 0) {
    await checkReferences(client, problems, replace);
    return [];
  }
  return REFERENCES.filter((r) => r.list);
}

/** Adds the dangling references among `references` (all of them by default) to `problems`, in order. */
export async function checkReferences(
  client: pg.PoolClient,
  problems: ProblemList,
  replace: boolean,
  references: readonly Reference[] = REFERENCES,
): Promise<void> {
  for (const ref of references) {
    const { rows } = await client.query<{ public_id: string; pos: string | null; pid: string; total: string }>(
      danglingReferencesSql(ref, replace),
      [MAX_PROBLEMS],
    );
    addAll(
      problems,
      rows.map((r) => {
        const field = r.pos === null ? ref.field : `${ref.field}[${r.pos}]`;
        return `${ENTITY_NAMES[ref.from]} ${r.public_id}: ${field}: unknown ${ENTITY_NAMES[ref.to]} ${r.pid}`;
      }),
      rows[0]?.total,
    );
  }
}

/**
 * The first MAX_PROBLEMS ($1) references of one kind that resolve to no staged entity (and,
 * without --replace, to no stored one), in document order, each with the count of all of them.
 *
 * Shaped for the planner, measured on the staging tables of a 300,000-Event seed: the staged
 * table is one hash anti-join over every reference, and the stored table is probed only for the
 * references it leaves (normally none), behind a materialized CTE. An array's elements come from
 * `unnest` and `generate_subscripts` in the select list (evaluated in step; a subscript is the
 * element's index in the document + 1) rather than a LATERAL `unnest … WITH ORDINALITY`, which
 * PostgreSQL memoized per distinct array (232,430 misses, 67 MB): Artist references 1.14 s →
 * 0.26 s. With the stored table's probe in the same WHERE (`$1 OR NOT EXISTS …`, before: 3.5 s)
 * it ran for every reference, and as a second NOT EXISTS the planner put the stored table (empty,
 * never analyzed) inside the loop and scanned the staged Series once per reference (2.2 s).
 */
function danglingReferencesSql(ref: Reference, replace: boolean): string {
  const source = STAGE[ref.from].table;
  const target = STAGE[ref.to].table;
  const elements = ref.list
    ? `SELECT s.ord, s.public_id, unnest(s.${ref.column}) AS pid, generate_subscripts(s.${ref.column}, 1)::bigint AS pos FROM ${source} s`
    : `SELECT s.ord, s.public_id, s.${ref.column} AS pid, NULL::bigint AS pos FROM ${source} s`;
  const stored = replace ? '' : `WHERE NOT EXISTS (SELECT 1 FROM ${ref.to} y WHERE y.public_id = m.pid)`;
  return `WITH missing AS MATERIALIZED (
            SELECT t.ord, t.public_id, t.pid, t.pos FROM (${elements}) t
             WHERE t.pid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${target} x WHERE x.public_id = t.pid))
          SELECT m.public_id, m.pos - 1 AS pos, m.pid, count(*) OVER () AS total
            FROM missing m ${stored}
           ORDER BY m.ord, m.pos LIMIT $1`;
}

function addAll(problems: ProblemList, lines: string[], total: string | undefined): void {
  for (const line of lines) problems.add(line);
  // only the first MAX_PROBLEMS rows were fetched: the others are counted
  problems.countMore(Number(total ?? 0) - lines.length);
}
