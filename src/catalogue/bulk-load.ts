/**
 * A first import loads the catalogue the way pg_restore does: secondary indexes and foreign keys
 * are dropped inside the import transaction, the merge fills the tables, and both are created
 * again from their own catalogued definitions (the foreign keys before COMMIT, the indexes after
 * it: after-commit.ts) — one sorted build per index and one join per foreign key, instead of an
 * index entry per row in every index (the Event tables' 14, five of them GIN; the Artists',
 * Venues' and Series' name trigrams) and a referential probe per row and key
 * (docs/architecture.md#the-importer). Two groups, each deferred when it is empty:
 *
 * - the Event tables, when no Event is stored (`events` and every table below it);
 * - the parents, when no media, Artist, Venue, Series or Edition is stored (those tables and their
 *   own memberships).
 *
 * The primary keys and unique publicIds of the entity tables stay, but while an empty entity table
 * is written (`writing`): the later collections' merges and the memberships join through them. An
 * empty table's rows are new and their publicIds unique once checked (checks.ts), so its two keys
 * are dropped before its INSERTs and built right after them, sorted, instead of an entry per row in
 * each (a sorted build costs a fraction of the entries, more so when the publicIds come in random
 * order) — when no foreign key that references the table is left in place. The membership, preview
 * and place tables lose their primary keys too: a first import writes them with plain INSERTs (the
 * previews without `ON CONFLICT`, event-previews.ts), their rows are unique by construction
 * (validation rejects a repeated reference in a list), and the key is built once after the load.
 *
 * The drops, keys and foreign keys happen in the import's transaction, so a rejected or failed
 * import rolls the drops back with the rows, and the keys are checked again, whole, before
 * COMMIT. The foreign keys are added again in that transaction too: those of `events` checked
 * there, the others `NOT VALID` (enforced from then on) and validated after COMMIT (their rows were
 * checked against the document by checks.ts). The secondary indexes are recorded in that
 * transaction and built after its COMMIT on several connections (after-commit.ts, migration 019).
 * So are the stored Event previews of a first import (the Event group deferred): the table is
 * committed empty with its key, and its foreign key is added once they are written. The price:
 * from the first drop to COMMIT these tables are locked exclusively, so a reader waits (up to its
 * statement timeout) instead of seeing the still-empty catalogue.
 */
import type pg from 'pg';
import { PREVIEWS, VALIDATE, hasPreviewsWork, recordAfterCommit } from './after-commit.js';

interface Group {
  /** Tables that are all empty when the `entities` are (the memberships reference them). */
  readonly tables: readonly string[];
  /** The entity tables among them (they keep their primary key and unique publicId). */
  readonly entities: readonly string[];
}

const EVENT_GROUP: Group = {
  tables: ['events', 'event_artists', 'event_venues', 'event_series', 'event_editions', 'event_gallery', 'event_previews', 'event_places'],
  entities: ['events'],
};
const PARENT_GROUP: Group = {
  tables: ['media', 'artists', 'venues', 'series', 'editions', 'artist_profile_media', 'edition_venues'],
  entities: ['media', 'artists', 'venues', 'series', 'editions'],
};

/** A table's name without its schema (regclass text is schema-qualified off the search path). */
const bare = (table: string) => table.split('.').pop()!;

/** A constraint as pg_constraint gives it: table (regclass text), quoted name, definition. */
interface Constraint {
  readonly table: string;
  readonly name: string;
  readonly definition: string;
}
const addConstraint = (c: Constraint) => `ALTER TABLE ${c.table} ADD CONSTRAINT ${c.name} ${c.definition}`;
const dropConstraint = (c: Constraint) => `ALTER TABLE ${c.table} DROP CONSTRAINT ${c.name}`;

/**
 * A foreign key checked after COMMIT: added `NOT VALID` in the import's transaction (new rows are
 * checked from then on) and validated by after-commit.ts, on a second connection while the other
 * writes the previews, instead of on the import's one backend with the other core idle. The rows were already checked: every reference resolves
 * to an entity of the document (checks.ts). Except the keys of `events` itself, whose VALIDATE
 * would wait for the previews' SHARE lock on it (and hold a connection idle meanwhile), and the
 * previews' own, added after their rows.
 */
const validatedAfterCommit = (fk: Deferred) => !['events', 'event_previews'].includes(bare(fk.table));

/** Tables below the entities (memberships, previews, places), written only by plain INSERTs in a first import. */
const keyless = (group: Group) => group.tables.filter((t) => !group.entities.includes(t));

interface Deferred {
  readonly kind: 'index' | 'key' | 'fk';
  /** Schema-qualified where needed (regclass text) for indexes, quoted name for constraints. */
  readonly name: string;
  readonly table: string;
  /** An index's access method (null for constraints). */
  readonly method: string | null;
  readonly definition: string;
}

const DEFERRABLE = `
  SELECT 'index' AS kind, i.indexrelid::regclass::text AS name, i.indrelid::regclass::text AS table,
         am.amname::text AS method, pg_get_indexdef(i.indexrelid) AS definition
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
   WHERE i.indrelid = ANY($1::regclass[])
     AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)
  UNION ALL
  SELECT 'key', quote_ident(k.conname), k.conrelid::regclass::text, NULL, pg_get_constraintdef(k.oid)
    FROM pg_constraint k
   WHERE k.conrelid = ANY($2::regclass[]) AND k.contype IN ('p', 'u')
  UNION ALL
  SELECT 'fk', quote_ident(k.conname), k.conrelid::regclass::text, NULL, pg_get_constraintdef(k.oid)
    FROM pg_constraint k
   WHERE k.conrelid = ANY($1::regclass[]) AND k.contype = 'f'`;

/** The keys of the entity tables $1, and the foreign keys that reference those tables. */
const ENTITY_KEYS = `
  SELECT 'key' AS kind, quote_ident(k.conname) AS name, k.conrelid::regclass::text AS table,
         pg_get_constraintdef(k.oid) AS definition, NULL AS referenced
    FROM pg_constraint k
   WHERE k.conrelid = ANY($1::regclass[]) AND k.contype IN ('p', 'u')
  UNION ALL
  SELECT 'fk', quote_ident(k.conname), k.conrelid::regclass::text, NULL, k.confrelid::regclass::text
    FROM pg_constraint k
   WHERE k.confrelid = ANY($1::regclass[]) AND k.contype = 'f'`;

interface EntityConstraint {
  readonly kind: 'key' | 'fk';
  readonly name: string;
  readonly table: string;
  readonly definition: string;
  /** The table a foreign key references. */
  readonly referenced: string;
}

export interface DeferredIndexes {
  /** No Event was stored: every Event after the merge is one of the document's. */
  readonly first: boolean;
  /** The entity tables that were empty (each of their staged rows is new: plain INSERTs). */
  readonly empty: ReadonlySet<string>;
  /**
   * Runs `write` (the INSERTs of an empty entity table's rows) with that table's keys dropped, when
   * every foreign key referencing it is dropped too, and builds them again after it; otherwise
   * just runs it.
   */
  readonly writing: <T>(table: string, write: () => Promise<T>) => Promise<T>;
  /**
   * Creates the dropped primary keys of `tables` again (the memberships, once written: the stored
   * previews read them in Event order through those keys; the previews and places stay keyless
   * until `restore`, as they are written).
   */
  readonly restoreKeys: (tables: readonly string[]) => Promise<void>;
  /**
   * Creates the dropped keys and foreign keys again and records the dropped indexes, to be built
   * after COMMIT, the foreign keys to validate, and the stored previews when the Event group was
   * deferred (after-commit.ts; after the merge, before COMMIT).
   */
  readonly restore: () => Promise<void>;
}

/**
 * Drops the secondary indexes and foreign keys of each empty group (above) and returns the step
 * that creates them again; when neither group is empty, drops nothing and `restore` does nothing.
 */
export async function deferIndexes(client: pg.PoolClient): Promise<DeferredIndexes> {
  const entities = [...EVENT_GROUP.entities, ...PARENT_GROUP.entities];
  const { rows: counted } = await client.query<Record<string, boolean>>(
    `SELECT ${entities.map((t) => `NOT EXISTS (SELECT 1 FROM ${t}) AS ${t}`).join(', ')}`,
  );
  const empty = new Set(entities.filter((t) => counted[0]![t]));
  const groups = [EVENT_GROUP, PARENT_GROUP].filter((g) => g.entities.every((t) => empty.has(t)));
  const first = empty.has('events');
  if (groups.length === 0) {
    return { first, empty, writing: (_table, write) => write(), restoreKeys: async () => {}, restore: async () => {} };
  }
  const tables = groups.flatMap((g) => g.tables);
  const children = groups.flatMap(keyless);
  const { rows } = await client.query<Deferred>(DEFERRABLE, [tables, children]);
  // a key left NOT VALID by an importer stopped before validating it (its row recorded) is added
  // again as it is declared; its recorded row validates it
  const fks = rows.filter((r) => r.kind === 'fk').map((r) => ({ ...r, definition: r.definition.replace(/ NOT VALID$/, '') }));
  const keys = rows.filter((r) => r.kind === 'key');
  const indexes = rows.filter((r) => r.kind === 'index');
  for (const constraint of [...fks, ...keys]) await client.query(dropConstraint(constraint));
  for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
  let pending = keys;
  const writing = await keysWhileWriting(client, [...empty]);
  const restoreKeys = async (names: readonly string[]) => {
    // regclass text is schema-qualified when the schema is not on the search path
    const chosen = pending.filter((k) => names.includes(bare(k.table)));
    pending = pending.filter((k) => !chosen.includes(k));
    for (const key of chosen) await client.query(addConstraint(key));
  };
  const restore = async () => {
    await restoreKeys(children); // those not restored yet
    // the stored previews' foreign key waits for their rows (after-commit.ts)
    const previews = groups.includes(EVENT_GROUP) ? fks.filter((fk) => bare(fk.table) === 'event_previews') : [];
    const others = fks.filter((k) => !previews.includes(k));
    // (a foreign key's check reads its table whole and probes the referenced primary key: no
    // secondary index serves it)
    for (const fk of others) await client.query(validatedAfterCommit(fk) ? `${addConstraint(fk)} NOT VALID` : addConstraint(fk));
    await recordAfterCommit(client, [
      ...previews.map((fk) => ({ name: fk.name, table: fk.table, method: PREVIEWS, definition: addConstraint(fk) })),
      ...others.filter(validatedAfterCommit).map((fk) => ({
        name: fk.name, table: fk.table, method: VALIDATE, definition: `ALTER TABLE ${fk.table} VALIDATE CONSTRAINT ${fk.name}`,
      })),
      ...indexes.map((i) => ({ name: i.name, table: i.table, method: i.method!, definition: i.definition })),
    ]);
    // No foreign key to drop: a first import stopped after its COMMIT with no Event in its document
    // left it unadded, and its recorded previews, done after this COMMIT, cover these Events too.
    if (groups.includes(EVENT_GROUP) && previews.length === 0 && !(await hasPreviewsWork(client))) {
      throw new Error('event_previews has no foreign key, and none is recorded to be added (run `lineup migrate`)');
    }
  };
  return { first, empty, writing, restoreKeys, restore };
}

/**
 * The `writing` step of the empty entity tables `empty`, once the deferred groups' foreign keys
 * are dropped: a table that a foreign key still references (an Event's media while Events are
 * stored, say) keeps its keys.
 */
async function keysWhileWriting(client: pg.PoolClient, empty: readonly string[]) {
  const { rows } = await client.query<EntityConstraint>(ENTITY_KEYS, [empty]);
  const referenced = new Set(rows.filter((r) => r.kind === 'fk').map((r) => bare(r.referenced)));
  return async <T>(table: string, write: () => Promise<T>): Promise<T> => {
    const keys = empty.includes(table) && !referenced.has(table) ? rows.filter((r) => r.kind === 'key' && bare(r.table) === table) : [];
    for (const key of keys) await client.query(dropConstraint(key));
    const result = await write();
    for (const key of keys) await client.query(addConstraint(key));
    return result;
  };
}
