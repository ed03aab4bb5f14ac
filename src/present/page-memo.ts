/**
 * A page's body and weak ETag, kept for the next read of the same page over the same rows
 * (docs/architecture.md#rendered-once-per-distinct-page).
 *
 * Presentation is a function of the plan (path and normalized query) and of the rows read; the
 * rows stage hands equal texts over as the same frozen values (queries/text-memo.ts). So when
 * every input of a page is identical (`===`) to those of the last read of that page, its bytes are
 * too, and the projection, the envelope, their UTF-8 encoding and the hash are skipped. The
 * database work is still done on every request, conditional and HEAD requests included: only what
 * is computed from its answer is kept. A page whose rendering fails (an invalid stored projection,
 * the sanitized 500) is never kept. Bounded by page count, oldest first out.
 */
import type { CursorKey } from '../controls/cursor.js';
import type { RenderedBody } from './envelope.js';

/** Which page: its path, normalized query and position (the same key always presents alike). */
export const pageKey = (plan: { readonly path: string; readonly normalizedQuery: string; readonly after: readonly CursorKey[] | null }) =>
  `${plan.path}?${plan.normalizedQuery}#${JSON.stringify(plan.after)}`;

/** Stands before the JSON text of a value the driver parsed from JSON, among a page's inputs: no column's value is it. */
const JSON_VALUE = Object.freeze({ parsedJson: true });

/** The JSON text of a value parsed from JSON (plain objects and arrays only), else null. */
function jsonText(value: object): string | null {
  const proto = Object.getPrototypeOf(value) as unknown;
  return Array.isArray(value) || proto === Object.prototype || proto === null ? JSON.stringify(value) : null;
}

/**
 * A page's inputs: `hasMore`, then every column name and value of every row as the rows stage
 * handed them over. A JSON column the driver parsed anew on this read (links, say) is listed as
 * its JSON text: equal texts, equal values, so such a page is kept too. `null` when a value is
 * any other object that is not one of the shared frozen values: such a page is never reused.
 */
export function rowInputs(hasMore: boolean, rows: readonly object[]): unknown[] | null {
  const inputs: unknown[] = [hasMore];
  for (const row of rows) {
    // for…in, not Object.entries: no arrays allocated per row on every read
    for (const key in row) {
      const value = (row as Record<string, unknown>)[key];
      if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
        const text = jsonText(value);
        if (text === null) return null;
        inputs.push(key, JSON_VALUE, text);
      } else {
        inputs.push(key, value);
      }
    }
  }
  return inputs;
}

interface Kept {
  readonly inputs: readonly unknown[];
  readonly rendered: RenderedBody;
}

export class PageMemo {
  private readonly pages = new Map<string, Kept>();

  constructor(private readonly maxPages: number) {}

  /**
   * The rendered page for `key` whose inputs are `inputs`; `null` inputs: the page depends on
   * something not listed (it is rendered, and not kept).
   */
  render(key: string, inputs: readonly unknown[] | null, render: () => RenderedBody): RenderedBody {
    if (inputs === null) return render();
    const kept = this.pages.get(key);
    if (kept !== undefined && sameInputs(kept.inputs, inputs)) return kept.rendered;
    const rendered = render();
    if (kept === undefined && this.pages.size >= this.maxPages) this.pages.delete(this.pages.keys().next().value as string);
    this.pages.set(key, { inputs, rendered });
    return rendered;
  }

  get size(): number {
    return this.pages.size;
  }
}

function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
