/**
 * `temporalPhaseCode=current` with no other filter: its candidates read from the indexes alone.
 *
 * The parts of currentBound (queries/phase.ts) are asked apart, one index each (UNION ALL:
 * they are disjoint; the multi-day spans of local dates split by length, `currentCandidateBranches`,
 * migration 023), and each index holds in its INCLUDE columns the phase rule's inputs and the
 * order keys (migration 016). The phase filter and the top-N sort then run on index entries, and
 * only the page's Events (limit + 1) are read from the heap, by id. As one OR of the four, the
 * bitmap scan read every candidate's heap page: at 1M Events ≈ 1,180 candidates, 1,187 buffers,
 * ≈ 2.4 ms; from the indexes alone ≈ 350 buffers (docs/performance.md, "current from its indexes
 * alone"). Index-only as far as the visibility map allows: rows changed since the last VACUUM are
 * checked in the heap, the answer is the same.
 */
import { orderBy, orderByOutputs, orderKeyOutputs, type SortKey } from './sql.js';

/**
 * The page's Events (`e.*`, at most `limit` rows, in no particular order: the page orders them)
 * among those that meet every condition of `where` (on alias `e`) and one of the `branches`.
 *
 * Each part gives only its own first `limit` candidates in the page's order: the parts are
 * disjoint and the order total (its last key is the publicId), so the page's first `limit` are
 * among them. PostgreSQL then merges the parts in order (a Merge Append) and reads a part only as
 * far as the page needs, and the Events of one local day (migration 020: `events_current_days`
 * keyed by the default order) are read in that order, a few entries instead of every one of the
 * days around now (≈ 770 at 1,000,000 demo Events, each through the phase rule's zone
 * conversions), and so are the spans of each length up to a week (migration 023). A part whose
 * index holds another order sorts its candidates, as the whole page did.
 */
export function currentCandidates(where: readonly string[], branches: readonly string[], keys: readonly SortKey[], limit: string): string {
  const parts = branches.map((branch) => `(SELECT e.id, ${orderKeyOutputs(keys)} FROM events e
        WHERE ${[...where, branch].join('\n          AND ')}
        ORDER BY ${orderBy(keys)}
        ${limit})`);
  return `(SELECT e.* FROM (SELECT c.id FROM (${parts.join('\n        UNION ALL ')}) c
      ORDER BY ${orderByOutputs('c', keys)}
      ${limit}) c JOIN events e ON e.id = c.id) e`;
}
