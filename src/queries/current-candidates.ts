/**
 * `temporalPhaseCode=current` with no other filter: its candidates read from the indexes alone.
 *
 * The parts of currentBound (queries/phase.ts) are asked apart, one index each (UNION ALL:
 * they are disjoint; the multi-day spans of local dates split by length, `currentCandidateBranches`,
 * migration 023), and each index holds in its INCLUDE columns the phase rule's inputs and the
 * order keys (migration 016). The phase filter and the page's order then run on index entries,
 * and only the page's Events (limit + 1) are read from the heap, by id. As one OR of the four, a
 * bitmap scan would read every candidate's heap page (docs/architecture.md#current). Index-only as
 * far as the visibility map allows: rows changed since the last VACUUM are checked in the heap,
 * the answer is the same.
 */
import { PHASE_INPUTS } from './phase.js';
import { orderBy, orderByOutputs, orderKeyOutputs, type SortKey } from './sql.js';

/**
 * Where a page of current checks the phase rule: `once`, on the merged candidates, or in each
 * part (`perPart`), each part then cut to its own first `limit` current Events.
 */
export type PhaseCheck = 'once' | 'perPart';

/**
 * The page's Events (`e.*`, at most `limit` rows, in no particular order: the page orders them)
 * among those that meet every condition of `where` (on alias `e`), one of the `branches`, and the
 * phase filter `phase` (given the alias it applies to).
 *
 * PostgreSQL merges the parts in the page's order (a Merge Append) and reads a part only as far as
 * the page needs: the Events of one local day (migration 020: `events_current_days` keyed by the
 * default order) are read in that order, a few entries instead of every one of the days around
 * now (each through the phase rule's zone conversions), and so are the spans of each length up to
 * a week (migration 023). A part whose index holds another order sorts its candidates. Each part
 * is ordered itself: with only the union ordered, PostgreSQL appends every part's candidates and
 * sorts them all.
 *
 * `once`: the phase rule is checked on the merged candidates until the page has `limit` of them.
 * The parts carry its inputs (PHASE_INPUTS, from their indexes' INCLUDE columns), and `OFFSET 0`
 * keeps PostgreSQL from pushing the filter down into each part. Written into every part, the rule
 * would be compiled eleven times on every execution, a large share of the statement's time. It
 * pays where the page's order meets current Events early among the candidates.
 *
 * `perPart`: where it meets the rejected ones first (`-startLocalDate`: the latest local dates
 * around now are still to come in most zones), each part checks the rule and keeps only its
 * first `limit` current Events (a top-N sort), and those few are merged: cheaper there than
 * letting most candidates through the parts to a check above them.
 */
export function currentCandidates(
  where: readonly string[],
  phase: (alias: string) => string,
  check: PhaseCheck,
  branches: readonly string[],
  keys: readonly SortKey[],
  limit: string,
): string {
  if (check === 'perPart') {
    const parts = branches.map((branch) => `(SELECT e.id, ${orderKeyOutputs(keys)} FROM events e
        WHERE ${[...where, phase('e'), branch].join('\n          AND ')}
        ORDER BY ${orderBy(keys)}
        ${limit})`);
    return `(SELECT e.* FROM (SELECT c.id FROM (${parts.join('\n        UNION ALL ')}) c
      ORDER BY ${orderByOutputs('c', keys)}
      ${limit}) c JOIN events e ON e.id = c.id) e`;
  }
  const inputs = PHASE_INPUTS.map((column) => `e.${column}`).join(', ');
  const parts = branches.map((branch) => `(SELECT e.id, ${inputs}, ${orderKeyOutputs(keys)} FROM events e
        WHERE ${[...where, branch].join('\n          AND ')}
        ORDER BY ${orderBy(keys)})`);
  return `(SELECT e.* FROM (SELECT c.id FROM (SELECT u.* FROM (${parts.join('\n        UNION ALL ')}) u
        ORDER BY ${orderByOutputs('u', keys)}
        OFFSET 0) c
      WHERE ${phase('c')}
      ORDER BY ${orderByOutputs('c', keys)}
      ${limit}) c JOIN events e ON e.id = c.id) e`;
}
