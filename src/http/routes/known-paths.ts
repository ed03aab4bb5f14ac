/**
 * Every path the API serves (decisions §2), and the API reference's when it is served
 * (LINEUP_DOCS), with the methods each allows, so an unsupported method on a known path is a
 * 405 with `Allow`, and anything else a 404 (decisions §5).
 */

export interface KnownPath {
  readonly pattern: RegExp;
  readonly allow: string;
}

const SEGMENT = '[^/]+';
/** Every path allows these (the `Allow` of a 405, the preflight's allowed methods). */
export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

export const RESOURCE_PATHS = [
  '/v1/events',
  '/v1/events/:eventId',
  '/v1/events/:eventId/artists',
  '/v1/events/:eventId/venues',
  '/v1/events/:eventId/series',
  '/v1/events/:eventId/editions',
  '/v1/artists',
  '/v1/artists/:artistId',
  '/v1/venues',
  '/v1/venues/:venueId',
  '/v1/series',
  '/v1/series/:seriesId',
  '/v1/series/:seriesId/artists',
  '/v1/series/:seriesId/editions',
  '/v1/series/:seriesId/editions/:editionId',
  '/v1/series/:seriesId/editions/:editionId/venues',
  '/v1/series/:seriesId/editions/:editionId/artists',
  // extension (decisions §8): calendar feeds
  '/v1/artists/:artistId/calendar.ics',
  '/v1/venues/:venueId/calendar.ics',
  '/v1/series/:seriesId/calendar.ics',
] as const;

export const OPERATIONAL_PATHS = ['/v1/health', '/v1/ready'] as const;

/**
 * The API reference (outside /v1, not operations of the contract): the document, the page, and
 * the page's script (its one asset, named by its content).
 */
export const REFERENCE_PATHS = ['/openapi.json', '/docs', '/docs/:asset'] as const;

const toPattern = (path: string) => new RegExp(`^${path.replace(/:[A-Za-z]+/g, SEGMENT)}$`);
const known = (paths: readonly string[]): KnownPath[] => paths.map((p) => ({ pattern: toPattern(p), allow: ALLOWED_METHODS }));

/** The paths one service answers: the API's, and the reference's when it is served. */
export type ServedPaths = readonly KnownPath[];

const API: ServedPaths = known([...RESOURCE_PATHS, ...OPERATIONAL_PATHS]);
const API_AND_REFERENCE: ServedPaths = [...API, ...known(REFERENCE_PATHS)];

export const servedPaths = (reference: boolean): ServedPaths => (reference ? API_AND_REFERENCE : API);

/** The known path `path` is (a request's path, undecoded), as the router matches it; else undefined. */
export function knownPath(path: string, served: ServedPaths): KnownPath | undefined {
  const routed = routedPath(path);
  return served.find((k) => k.pattern.test(routed));
}

/**
 * `path` as the router (find-my-way) matches it: its percent-escapes decoded by `decodeURI`, which
 * keeps those of reserved characters (`%2F` stays a part of its segment), with `%25` kept as it
 * is. So a path that GET is served on (`/v1/%65vents` is `/v1/events`) is the same known path for
 * every method and for the body rule: `DELETE /v1/%65vents` is a 405, not a 404 (spec Errors). A
 * path that is not valid percent-encoded UTF-8 is refused by the router before any route
 * (plugins/errors.ts `routerRefusal`): its undecoded shape is matched.
 */
function routedPath(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURI(path.replace(/%25/g, '%2525'));
  } catch {
    return path;
  }
}

export const allows = (known: KnownPath, method: string): boolean => known.allow.split(', ').includes(method);
