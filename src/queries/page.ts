/** Collections fetch `limit + 1` rows: the extra row only says whether more exist. */
export function splitPage<R>(found: R[], limit: number): { rows: R[]; hasMore: boolean } {
  const hasMore = found.length > limit;
  return { rows: hasMore ? found.slice(0, limit) : found, hasMore };
}
