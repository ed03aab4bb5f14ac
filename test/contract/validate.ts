/**
 * Contract check of one HTTP exchange against the committed contract (openapi.json): the
 * operation is found by method and path template, the status must be one the operation
 * documents, the body must match that status's schema (ajv, strict, JSON Schema 2020-12) or be
 * empty when the response documents no content, and every documented required header must be
 * present and match its schema. test/helper.ts runs it on every response its `get`/`json`
 * return, so every response the HTTP suites see is held to the contract.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

interface HeaderDoc {
  required?: boolean;
  schema: object;
}
interface ResponseDoc {
  headers?: Record<string, HeaderDoc>;
  content?: Record<string, { schema: object }>;
}
interface OperationDoc {
  operationId: string;
  responses: Record<string, ResponseDoc>;
}
type PathItem = Partial<Record<'get' | 'head' | 'options', OperationDoc>>;
interface Document {
  paths: Record<string, PathItem>;
}

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

let loaded: { doc: Document; templates: { template: string; pattern: RegExp }[] } | undefined;

export function contractDocument(): Document {
  return load().doc;
}

function load() {
  if (!loaded) {
    // the repository's document (tests run from the repository: `npm test` runs them transpiled
    // elsewhere, scripts/test-build.mjs, so this file's own location is not the repository's)
    const doc = JSON.parse(readFileSync(join(process.cwd(), 'openapi.json'), 'utf8')) as Document;
    const templates = Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[A-Za-z]+\}/g, '[^/]+')}$`),
    }));
    loaded = { doc, templates };
  }
  return loaded;
}

const ajv = new Ajv2020({ strict: true, allErrors: true });
const compiled = new Map<object, ValidateFunction>();
function validatorOf(schema: object): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}

/** Why `value` does not match `schema` (ajv, as for the exchanges), or null when it does. */
export function schemaErrors(schema: object, value: unknown): string | null {
  const validate = validatorOf(schema);
  return validate(value) ? null : ajv.errorsText(validate.errors, { separator: '; ' });
}

/** The path template of the contract a request path matches, or undefined (an unknown path). */
export function templateOf(pathname: string): string | undefined {
  return load().templates.find((t) => t.pattern.test(pathname))?.template;
}

export interface Exchange {
  readonly method: string;
  /** Path and query as requested (e.g. `/v1/events?limit=2`), or a full URL. */
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

const ERROR_STATUSES = new Set(['400', '404', '405', '414', '429', '500', '503']);

/** Throws a ContractViolation describing every mismatch. */
export function checkExchange(x: Exchange): void {
  const { doc } = load();
  const pathname = new URL(x.url, 'http://contract.invalid').pathname;
  const method = x.method.toLowerCase();
  const template = templateOf(pathname);
  const where = `${x.method} ${x.url} → ${x.status}`;
  const problems: string[] = [];
  const item = template ? doc.paths[template] : undefined;
  const op = item && (method === 'get' || method === 'head' || method === 'options') ? item[method] : undefined;

  let response: ResponseDoc | undefined;
  if (op) {
    response = op.responses[String(x.status)];
    if (!response) throw new ContractViolation(`${where}: status ${x.status} is not documented for ${op.operationId}`);
  } else {
    // An unknown path or an undocumented method: only error responses are possible, and they
    // carry the error envelope (shape taken from the GET of any operation).
    if (!ERROR_STATUSES.has(String(x.status))) throw new ContractViolation(`${where}: an undocumented path or method answered a non-error status`);
    const any = Object.values(doc.paths)[0]?.get;
    response = any?.responses[String(x.status)] ?? any?.responses['400'];
    if (response?.headers) response = { ...response, headers: pick(response.headers, ['X-Request-ID', 'Access-Control-Allow-Origin', 'Cache-Control']) };
  }
  if (!response) return;

  for (const [name, h] of Object.entries(response.headers ?? {})) {
    const value = x.headers.get(name);
    if (value === null) {
      if (h.required) problems.push(`missing header ${name}`);
      continue;
    }
    const validate = validatorOf(h.schema);
    if (!validate(value)) problems.push(`header ${name}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`);
  }

  const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
  const schema = media?.schema;
  const bodyless = method === 'head' || !schema;
  if (mediaType !== undefined && mediaType !== 'application/json' && method !== 'head') {
    const type = x.headers.get('content-type') ?? '';
    if (type.split(';')[0]?.trim() !== mediaType) problems.push(`content-type ${JSON.stringify(type)} is not the documented ${mediaType}`);
  }
  if (bodyless) {
    if (x.text !== '') problems.push(`expected no body, got ${x.text.slice(0, 120)}`);
  } else if (mediaType !== 'application/json') {
    // a text body (the calendar feeds): documented as a string
    if (x.text === '') problems.push('expected a body');
  } else if (schema) {
    let body: unknown;
    try {
      body = JSON.parse(x.text);
    } catch {
      problems.push(`body is not JSON: ${x.text.slice(0, 120)}`);
    }
    if (body !== undefined) {
      const validate = validatorOf(schema);
      if (!validate(body)) problems.push(`body: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
    }
  }
  if (problems.length > 0) throw new ContractViolation(`${where} (${op?.operationId ?? 'unknown route'}) breaks the contract:\n  ${problems.join('\n  ')}`);
}

function pick<T>(record: Record<string, T>, keys: string[]): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => keys.includes(k)));
}

/** Validates a fetch Response (reading a clone, so the caller can still read the body). */
export async function checkResponse(method: string, url: string, res: Response): Promise<void> {
  const text = await res.clone().text();
  checkExchange({ method, url, status: res.status, headers: res.headers, text });
}
