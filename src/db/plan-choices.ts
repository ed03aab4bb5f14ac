/**
 * What the planner chose for a statement's values, remembered for a while per key
 * (queries/search-shape.ts): a few statements cost more to plan than to run, and a choice made
 * once lets the next requests run a prepared statement written for it, on its generic plan.
 *
 * A choice is a promise, so concurrent requests with the same key ask the planner once; a failed
 * one is forgotten at once. Each is kept `ttlMs` (statistics change with imports and autovacuum;
 * an outdated choice only costs time, never changes an answer: every choice reads the same rows)
 * and at most `capacity` are kept, the oldest dropped first.
 */
export const PLAN_CHOICES = 1_024;
export const PLAN_CHOICE_TTL_MS = 60_000;

interface Entry<T> {
  readonly value: Promise<T>;
  readonly at: number;
}

export class PlanChoices<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly capacity = PLAN_CHOICES,
    private readonly ttlMs = PLAN_CHOICE_TTL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The remembered choice for `key`, else `choose()`'s (remembered unless it fails). */
  get(key: string, choose: () => Promise<T>): Promise<T> {
    const at = this.now();
    const known = this.entries.get(key);
    if (known !== undefined && at - known.at < this.ttlMs) return known.value;
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    const value = choose();
    const entry = { value, at };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
