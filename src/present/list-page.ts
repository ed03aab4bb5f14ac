/** A page of any resource list other than Events → the success envelope (see present/page.ts). */
import type { ListPlan } from '../plan/list.js';
import { identityOf, type ListRow } from '../queries/list.js';
import type { PageEnvelope } from './envelope.js';
import { PageMemo, renderBody, type RenderedBody } from './page-memo.js';
import { presentPage, sortKeysOf } from './page.js';

export function presentListPage<R extends ListRow>(
  plan: ListPlan<unknown>,
  page: { rows: R[]; hasMore: boolean },
  item: (row: R) => unknown,
): PageEnvelope {
  return presentPage(
    plan,
    page.rows,
    page.hasMore,
    item,
    (row) => sortKeysOf(row, plan.shape.arity),
    (row) => identityOf(row, plan.shape),
  );
}

/** The last rendering of up to this many list pages. */
const pages = new PageMemo(64);

/**
 * A list page's inputs besides its plan: `hasMore` and every value of every row; `null` when a
 * value is an object (a JSON column the driver parsed anew: such a page could never be reused).
 */
function pageInputs(page: { rows: ListRow[]; hasMore: boolean }): unknown[] | null {
  const inputs: unknown[] = [page.hasMore];
  for (const row of page.rows) {
    for (const key in row) {
      const value = row[key];
      if (value !== null && typeof value === 'object') return null;
      inputs.push(key, value);
    }
  }
  return inputs;
}

/** The page's body and ETag: rendered, or as last rendered when nothing it is computed from changed. */
export function renderListPage<R extends ListRow>(plan: ListPlan<unknown>, page: { rows: R[]; hasMore: boolean }, item: (row: R) => unknown): RenderedBody {
  const key = `${plan.path}?${plan.normalizedQuery}#${JSON.stringify(plan.after)}`;
  return pages.render(key, pageInputs(page), () => renderBody(presentListPage(plan, page, item)));
}
