/**
 * The /docs page: an empty document that loads Scalar's bundle from this origin and points it at
 * /openapi.json. Its configuration keeps every request on this origin: no web fonts, no
 * telemetry, no request proxy, no AI agent or MCP features; "try it" calls go to the origin the
 * page was loaded from (the document names no servers). The Content-Security-Policy holds every
 * browser to that, whatever a later bundle might add.
 */
import { createHash } from 'node:crypto';

const DOCS_TITLE = 'Lineup API reference';

const SCALAR_CONFIGURATION = {
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  defaultOpenAllTags: true,
};

const mountScript = (): string =>
  `Scalar.createApiReference('#app', Object.assign(${JSON.stringify(SCALAR_CONFIGURATION)}, { servers: [{ url: location.origin }] }));`;

export interface DocsPage {
  readonly html: string;
  /** The page's Content-Security-Policy: this origin only, the inline mount script by its hash. */
  readonly csp: string;
}

export function docsPage(scriptName: string): DocsPage {
  const mount = mountScript();
  const mountHash = createHash('sha256').update(mount).digest('base64');
  const html =
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    // no favicon request: the page asks this origin for its script and the document only
    '<link rel="icon" href="data:,">\n' +
    `<title>${DOCS_TITLE}</title>\n</head>\n<body>\n<div id="app"></div>\n` +
    `<script src="/docs/${scriptName}"></script>\n<script>${mount}</script>\n</body>\n</html>\n`;
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'sha256-${mountHash}'`,
    // the bundle injects its stylesheet and sets inline styles
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
  return { html, csp };
}
