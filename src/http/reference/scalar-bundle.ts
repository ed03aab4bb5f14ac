/**
 * The interactive reference's renderer: Scalar's standalone bundle (one script, its styles
 * inside), served by Lineup itself so the page needs no other origin. It comes from
 * `@scalar/fastify-api-reference`, which ships that bundle with 16 small packages and no install
 * script (`@scalar/api-reference`, where it is built, installs 280 packages, 300 MB, with a
 * postinstall script). The integration hands the bundle out only through its own route, so it is
 * read once through Fastify's `inject`, in an instance of its own, never exposed.
 */
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { weakEtag } from '../../present/envelope.js';

const PACKAGE = '@scalar/fastify-api-reference';
/** The integration's route to its bundle, under the prefix it is registered with. */
const BUNDLE_ROUTE = '/bundle/js/scalar.js';

export interface ScriptAsset {
  /** The asset's name under /docs/: the bundle's content digest, so it can be cached for good. */
  readonly name: string;
  readonly body: Buffer;
  readonly etag: string;
}

/** Throws at start when the package is missing (an install without dependencies), not at the first page. */
export function requireRenderer(): void {
  import.meta.resolve(PACKAGE);
}

let loading: Promise<ScriptAsset> | undefined;

/** The bundle, read on first use and kept for the life of the process. */
export function scalarBundle(): Promise<ScriptAsset> {
  loading ??= readBundle().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

async function readBundle(): Promise<ScriptAsset> {
  const { default: scalar } = await import(PACKAGE);
  const app = Fastify({ logger: false });
  try {
    await app.register(scalar, { routePrefix: '/bundle', configuration: { url: '/openapi.json' } });
    const res = await app.inject({ method: 'GET', url: BUNDLE_ROUTE });
    if (res.statusCode !== 200) throw new Error(`${PACKAGE} answered ${res.statusCode} for its bundle`);
    const body = res.rawPayload;
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
    return { name: `scalar-${hash}.js`, body, etag: weakEtag(body) };
  } finally {
    await app.close();
  }
}
