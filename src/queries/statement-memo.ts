/**
 * First pages' statements, built once per effective controls and reused.
 *
 * A page statement's text and values are a function of the plan; on a first page (no cursor) the
 * only part of the plan that changes between two requests with the same controls is the operation
 * time (`now`), and the builders use it as a parameter, never in the text. Building the ≈ 5 KB
 * text, and hashing it again to find its prepared name, was ≈ 9% of Node's CPU on a one-Event
 * search page (docs/performance.md, "Statements built once").
 *
 * What is kept is learnt from the builder itself rather than assumed: the first time a key is
 * seen, the statement is built at two different operation times; it is kept only if the two
 * texts (and everything but the values) are equal and the values differ only where each build
 * has its own operation time as it is. Later requests then get that statement with their own
 * operation time in those places. A builder that writes `now` into the text, or a value derived
 * from it, is simply not memoized (test/unit/statement-memo.test.ts).
 */
import type { Statement } from './statement.js';

/** Two operation times that share no field (year, month, day, hour, minute, second, millisecond). */
const PROBES = ['2000-01-01T00:00:00.000Z', '2011-12-13T14:15:16.789Z'] as const;

interface Template {
  readonly statement: Statement;
  /** The values that are the operation time. */
  readonly nowAt: readonly number[];
}

export class StatementMemo<P extends { readonly now: string }> {
  /** A key's template, or null when its statements cannot be reused (then built every time). */
  private readonly templates = new Map<string, Template | null>();

  constructor(
    private readonly capacity: number,
    private readonly build: (plan: P) => Statement,
  ) {}

  /** The statement of `plan`; `key` names everything but `now` that the builder reads (null: not memoized). */
  statement(key: string | null, plan: P): Statement {
    if (key === null) return this.build(plan);
    let template = this.templates.get(key);
    if (template === undefined) {
      template = learn(this.build, plan);
      if (this.templates.size >= this.capacity) this.templates.clear();
      this.templates.set(key, template);
    }
    if (template === null) return this.build(plan);
    const values = template.statement.values.slice();
    for (const i of template.nowAt) values[i] = plan.now;
    return { ...template.statement, values };
  }

  get size(): number {
    return this.templates.size;
  }
}

function learn<P extends { readonly now: string }>(build: (plan: P) => Statement, plan: P): Template | null {
  const [a, b] = PROBES.map((now) => build({ ...plan, now }));
  const { values: va, ...restA } = a!;
  const { values: vb, ...restB } = b!;
  if (va.length !== vb.length || JSON.stringify(restA) !== JSON.stringify(restB)) return null;
  const nowAt: number[] = [];
  for (let i = 0; i < va.length; i++) {
    if (va[i] === PROBES[0] && vb[i] === PROBES[1]) nowAt.push(i);
    // anything else the same in both builds (an array of a near walk's cells: equal, not identical)
    else if (va[i] !== vb[i] && JSON.stringify(va[i]) !== JSON.stringify(vb[i])) return null;
  }
  return { statement: a!, nowAt };
}
