/**
 * Walking the API as a client does: every page of a collection by `links.next`, and the
 * collection routes of a catalogue (top-level ones and the nested ones of a few parents).
 * Shared by the session-state test (test/db/session-state.test.ts) and the topology proof.
 */
export interface Page {
  readonly path: string;
  readonly status: number;
  readonly etag: string | null;
  readonly body: any;
}

export type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

/** One GET as a Page (the body parsed when there is one). */
export async function getPage(fetcher: Fetcher, path: string, init?: RequestInit): Promise<Page> {
  const res = await fetcher(path, init);
  const text = await res.text();
  return { path, status: res.status, etag: res.headers.get('etag'), body: text === '' ? null : JSON.parse(text) };
}

/** The path (with query) of a `links.next` URL, so it can be sent to another process. */
export function pathOf(link: string): string {
  const u = new URL(link, 'http://x');
  return `${u.pathname}${u.search}`;
}

/**
 * Every page of `first` by `links.next`. `pick(i)` chooses which fetcher reads page i (cursors
 * issued by one process read by another). Stops at the first non-200 and returns it as the last page.
 */
export async function traverse(fetchers: readonly Fetcher[], first: string, maxPages = 10_000): Promise<Page[]> {
  const pages: Page[] = [];
  let path: string | null = first;
  while (path !== null && pages.length < maxPages) {
    const page = await getPage(fetchers[pages.length % fetchers.length]!, path);
    pages.push(page);
    if (page.status !== 200) break;
    const next: string | null | undefined = page.body?.links?.next;
    path = next ? pathOf(next) : null;
  }
  return pages;
}

export const TOP_COLLECTIONS = ['/v1/events', '/v1/artists', '/v1/venues', '/v1/series'] as const;

/** The collection routes to walk over a catalogue: top-level ones, with several sorts, and nested ones of the first `parents` parents. */
export async function collectionPaths(fetcher: Fetcher, parents = 2): Promise<string[]> {
  const paths = [
    '/v1/events?limit=37',
    '/v1/events?limit=41&sort=-startLocalDate',
    '/v1/events?limit=43&sort=startInstant',
    '/v1/events?limit=29&sort=-startInstant',
    '/v1/events?limit=47&sort=updatedAt&fields=name,updatedAt,schedule',
    '/v1/artists?limit=31',
    '/v1/artists?limit=33&sort=updatedAt',
    '/v1/venues?limit=23',
    '/v1/venues?limit=27&sort=updatedAt',
    '/v1/series?limit=7',
    '/v1/series?limit=9&sort=updatedAt',
  ];
  const ids = async (path: string) => ((await getPage(fetcher, path)).body?.data ?? []).slice(0, parents).map((x: { publicId: string }) => x.publicId) as string[];
  for (const id of await ids('/v1/events?limit=5')) {
    for (const sub of ['artists', 'venues', 'series', 'editions']) paths.push(`/v1/events/${id}/${sub}?limit=2`);
  }
  for (const id of await ids('/v1/series?limit=5')) {
    paths.push(`/v1/series/${id}/artists?limit=3`, `/v1/series/${id}/editions?limit=2`, `/v1/series/${id}/editions?limit=2&sort=updatedAt`);
    for (const edition of await ids(`/v1/series/${id}/editions?limit=5`)) {
      paths.push(`/v1/series/${id}/editions/${edition}/venues?limit=2`, `/v1/series/${id}/editions/${edition}/artists?limit=2`);
    }
  }
  return paths;
}
