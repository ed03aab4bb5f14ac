/**
 * A page's body and weak ETag, kept for the next read of the same page over the same rows
 * (docs/performance.md, "Rendered once per distinct page").
 *
 * Presentation is a function of the plan (path and normalized query) and of the rows read; the
 * rows stage hands equal texts over as the same frozen values (queries/text-memo.ts). So when
 * every input of a page is identical (`===`) to those of the last read of that page, its bytes are
 * too, and the projection, the envelope, their UTF-8 encoding and the hash are skipped. The
 * database work is still done on every request, conditional and HEAD requests included: only what
 * is computed from its answer is kept. A page whose rendering fails (an invalid stored projection,
 * the sanitized 500) is never kept. Bounded by page count, oldest first out.
 */
import { envelopeBytes, weakEtag } from './envelope.js';

/** A success body as the socket writes it, and its weak ETag. */
export interface RenderedBody {
  readonly body: Buffer;
  readonly etag: string;
}

/** The body's bytes and their tag, computed. */
export function renderBody(envelope: unknown): RenderedBody {
  const body = envelopeBytes(envelope);
  return { body, etag: weakEtag(body) };
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
