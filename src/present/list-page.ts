/** A page of any resource list other than Events → the success envelope (see present/page.ts). */
import type { ListPlan } from '../plan/list.js';
import { identityOf, type ListRow } from '../queries/list.js';
import { renderBody, type PageEnvelope, type RenderedBody } from './envelope.js';
import { PageMemo, pageKey, rowInputs } from './page-memo.js';
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

/** The page's body and ETag: rendered, or as last rendered when nothing it is computed from changed. */
export function renderListPage<R extends ListRow>(plan: ListPlan<unknown>, page: { rows: R[]; hasMore: boolean }, item: (row: R) => unknown): RenderedBody {
  return pages.render(pageKey(plan), rowInputs(page.hasMore, page.rows), () => renderBody(presentListPage(plan, page, item)));
}
