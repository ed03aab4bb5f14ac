/**
 * Field selection, the one rule every resource follows (spec: Event rule 6; decisions §3, §5):
 * the selected top-level fields in registry order, the identity field (`publicId`) always
 * included when the item has one.
 */
export function normalizeSelection<F extends string>(all: readonly F[], selected: readonly F[], always: F | null): F[] {
  const set = new Set<F>(always === null ? selected : [always, ...selected]);
  return all.filter((f) => set.has(f));
}
