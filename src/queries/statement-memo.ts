/**
 * Statements built once per shape and reused: an Events page per effective controls (first pages,
 * and the cursor pages of a traversal), an Event detail per field selection.
 *
 * A statement's text and values are a function of its builder's inputs; some inputs (the
 * operation time `now`, an Event's public id) are only ever values. Building an Events page's
 * text of several kilobytes, and hashing it again to find its prepared name, is a large share of
 * Node's CPU on a one-Event search page (docs/architecture.md#built-once-per-shape).
 *
 * What is kept is learnt from the builder itself rather than assumed: the second time a key is
 * seen, the statement is built twice, each probed input given another of two probe values; it is
 * kept only if the two texts (and everything but the values) are equal and the values differ only
 * where each build has a probe as it was given. Later requests get that statement with their own
 * inputs in those places. A builder that writes a probed input into its text, or a value derived
 * from one, is simply not memoized (test/unit/statement-memo.test.ts). Written here: no library
 * memoizes a function by learning which of its inputs are passed through.
 */
import type { Statement } from './statement.js';

/** Two operation times that share no field (year, month, day, hour, minute, second, millisecond). */
export const NOW_PROBES = ['2000-01-01T00:00:00.000Z', '2011-12-13T14:15:16.789Z'] as const;

/** Two pairs of public ids (each id of the alphabet and length of a publicId, no id in both pairs). */
export const ID_PROBES = [
  ['000000000000', 'zzzzzzzzzzzz'],
  ['111111111111', 'yyyyyyyyyyyy'],
] as const;

/** For each input the builder uses as a value only, two different values to build with (valid inputs). */
export type ValueProbes<P> = { readonly [K in keyof P]?: readonly [unknown, unknown] };

const SEEN = Symbol('seen once');

interface Template<P> {
  readonly statement: Statement;
  /** Where each value-only input goes among the values. */
  readonly slots: ReadonlyArray<readonly [number, keyof P]>;
}

export class StatementMemo<P extends object> {
  /**
   * A key's template, null when its statements cannot be reused (then built every time), or SEEN
   * after its first request: a key is learnt on its second, so that queries that never repeat (a
   * search term of its own per request) cost one build each, as without the memo, not two.
   */
  private readonly templates = new Map<string, Template<P> | null | typeof SEEN>();
  private readonly probed: ReadonlyArray<keyof P>;

  constructor(
    private readonly capacity: number,
    private readonly build: (input: P) => Statement,
    private readonly probes: ValueProbes<P>,
  ) {
    this.probed = Object.keys(probes) as Array<keyof P>;
  }

  /** The statement of `input`; `key` names everything the builder reads but the probed inputs (null: not memoized). */
  statement(key: string | null, input: P): Statement {
    if (key === null) return this.build(input);
    let template = this.templates.get(key);
    if (template === undefined) {
      if (this.templates.size >= this.capacity) this.templates.clear();
      this.templates.set(key, SEEN);
      return this.build(input);
    }
    if (template === SEEN) {
      template = this.learn(input);
      this.templates.set(key, template);
    }
    if (template === null) return this.build(input);
    const values = template.statement.values.slice();
    for (const [i, name] of template.slots) values[i] = input[name];
    return { ...template.statement, values };
  }

  /** Keys seen (learnt or not). */
  get size(): number {
    return this.templates.size;
  }

  private learn(input: P): Template<P> | null {
    const probe = (k: 0 | 1) => ({ ...input, ...Object.fromEntries(this.probed.map((name) => [name, this.probes[name]![k]])) }) as P;
    let a: Statement;
    let b: Statement;
    try {
      a = this.build(probe(0));
      b = this.build(probe(1));
    } catch {
      return null; // a builder that refuses a probe (not a value it only passes on): built every time
    }
    const { values: va, ...restA } = a;
    const { values: vb, ...restB } = b;
    if (va.length !== vb.length || JSON.stringify(restA) !== JSON.stringify(restB)) return null;
    const slots: Array<readonly [number, keyof P]> = [];
    for (let i = 0; i < va.length; i++) {
      const name = this.probed.find((n) => va[i] === this.probes[n]![0] && vb[i] === this.probes[n]![1]);
      if (name !== undefined) slots.push([i, name]);
      // anything else the same in both builds (an array of a near walk's cells: equal, not identical)
      else if (va[i] !== vb[i] && JSON.stringify(va[i]) !== JSON.stringify(vb[i])) return null;
    }
    return { statement: { ...restA, values: va } as Statement, slots };
  }
}

interface DetailInput<F> {
  readonly fields: readonly F[];
  readonly id: string;
  readonly parentId: string;
}

/**
 * A resource's detail statement per field selection, its public ids (the resource's, and its
 * parent's when the route names one) as values: built on a selection's second request, then
 * reused (the texts equal, so their prepared name is found without hashing a new text).
 */
export function detailStatements<F extends string>(
  build: (fields: readonly F[], id: string, parentId: string) => Statement,
): (fields: readonly F[], id: string, parentId?: string) => Statement {
  const memo = new StatementMemo<DetailInput<F>>(64, ({ fields, id, parentId }) => build(fields, id, parentId), {
    id: ID_PROBES[0],
    parentId: ID_PROBES[1],
  });
  return (fields, id, parentId = '') => memo.statement(fields.join(','), { fields, id, parentId });
}
