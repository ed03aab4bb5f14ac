/** A page of any resource list other than Events → the success envelope (see present/page.ts). */
import type { ListPlan } from '../plan/list.js';
import { identityOf, type ListRow } from '../queries/list.js';
import type { PageEnvelope } from './envelope.js';
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
