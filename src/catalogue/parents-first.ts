/**
 * A document whose parents (media, Artists, Venues, Series, Editions) all come before its first
 * Event has them checked and merged while its Events are still read: on the import's one
 * connection, in its one transaction, while the reader (a document's tokenizer, `lineup seed`'s
 * workers) goes on and its Event batches wait in a temporary file (staging-spool.ts).
 *
 * Why: the merge runs on one backend while the other core idles (a 1,000,000-Event seed: ≈ 45 s
 * of merge, the parents' part ≈ 15 s of it), and the reading keeps both cores busy with Node's
 * work, the backend's COPYs taking ≈ 15% of them. Merged during the reading, the parents' ≈ 15 s
 * of one backend share the cores with Node's reading instead of following it with a core idle.
 *
 * Nothing else changes: the same statements merge the same rows (merge.ts `StagedMerge`), the
 * document is still rejected whole with the same problems in the same order, and a rejected
 * document's parents are rolled back with the rest. The parents are merged early only when what
 * the checks would say of them is known to be nothing: no problem found so far, no repeated
 * publicId among them, no single reference of theirs dangling; their lists (an Artist's profile
 * media, an Edition's Venues) are counted as the merge writes them, as every list is
 * (checks.ts). Otherwise, and with --replace, nothing happens early, and the import's checks and
 * merge run after the reading as before.
 */
import type pg from 'pg';
import { REFERENCES, checkReferences } from './checks.js';
import { COLLECTIONS, ProblemList, type Collection } from './document.js';
import { StagedMerge } from './merge.js';
import { finishStaging } from './staging.js';

/** Every collection an Event references, in merge order: all but the Events. */
export const PARENTS: readonly Collection[] = COLLECTIONS.filter((c) => c !== 'events');

/** What was done with the parents while the Events were read. */
export interface ParentsRead {
  /** The staging tables finished (indexed and analyzed: staging.ts `finishStaging`). */
  readonly finished: readonly Collection[];
  /** Of those, the ones whose publicIds repeat (the checks name the duplicates). */
  readonly repeated: ReadonlySet<Collection>;
  /**
   * The merge, the parents upserted and their memberships written; null when they were not
   * merged early (the import merges everything after the reading).
   */
  readonly merge: StagedMerge | null;
  /** False when a parent's list wrote fewer memberships than it has elements: the checks name why. */
  readonly resolved: boolean;
}

/** Nothing done early: the import finishes, checks and merges every collection after the reading. */
export const NOTHING_EARLY: ParentsRead = { finished: [], repeated: new Set(), merge: null, resolved: true };

/**
 * Called once every parent is staged and before any Event is: finishes the parents' staging
 * tables and, when nothing in them would be refused, merges them. `problems`: the import's, so far.
 */
export async function mergeParentsFirst(client: pg.PoolClient, problems: ProblemList, replace: boolean): Promise<ParentsRead> {
  if (replace || problems.total > 0) return NOTHING_EARLY;
  const repeated = await finishStaging(client, PARENTS);
  const declined: ParentsRead = { finished: PARENTS, repeated, merge: null, resolved: true };
  if (repeated.size > 0) return declined;
  const ours = REFERENCES.filter((r) => PARENTS.includes(r.from));
  // (counted into a list of its own: the import's checks name every problem, in order, later)
  const single = new ProblemList();
  await checkReferences(client, single, replace, ours.filter((r) => !r.list));
  if (single.total > 0) return declined;
  const merge = await StagedMerge.begin(client);
  await merge.upsert(PARENTS);
  const resolved = await merge.memberships(PARENTS, ours.filter((r) => r.list));
  return { ...declined, merge, resolved };
}
