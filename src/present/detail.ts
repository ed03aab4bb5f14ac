/**
 * A resource's detail (an Artist, Venue, Series or Edition) → its success envelope's body and
 * weak ETag, kept per request URL while its row is the same (page-memo.ts, as the list pages are):
 * the projection's checks, the envelope's JSON, its encoding and its hash are skipped when the
 * row read on this request equals the one last rendered for that URL. The row is still read on
 * every request, conditional and HEAD requests included.
 *
 * The URL is the key because it decides everything the projection takes besides the row: the
 * resource and its field selection, in the order asked for.
 */
import { objectEnvelope, renderBody, type RenderedBody } from './envelope.js';
import { PageMemo, rowInputs } from './page-memo.js';

/** The last rendering of up to this many details (≈ 1 KB each for the defaults). */
const details = new PageMemo(256);

export function renderDetail<R extends object>(url: string, row: R, present: (row: R) => unknown): RenderedBody {
  return details.render(url, rowInputs(false, [row]), () => renderBody(objectEnvelope(present(row))));
}
