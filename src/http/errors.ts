/**
 * The catalogue of refusals (spec: Errors). Every failure leaves the service as one envelope
 * `{ ok: false, error: { type, message, details? } }` with exactly these keys. 5xx messages are
 * generic: the cause is logged with the request id, never serialized.
 *
 * The stages below HTTP raise their own domain errors (controls/errors.ts, db/errors.ts,
 * limits/, present/errors.ts); `publicError` is the one place that gives them a status, a type
 * and a message.
 */
import type { ERROR_TYPES } from '../contract/common.js';
import { InvalidQuery, ResourceNotFound, UrlTooLong, type ErrorDetail } from '../controls/errors.js';
import { DatabaseUnavailableError } from '../db/errors.js';
import { BudgetExceededError } from '../limits/admission.js';
import { ReadSlotsFullError } from '../limits/reads.js';
import { ProjectionError } from '../present/errors.js';

export type { ErrorDetail };

export type ErrorType = (typeof ERROR_TYPES)[number];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    readonly details: readonly ErrorDetail[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** At most this many problems are listed; one more entry says how many were left out. */
export const MAX_DETAILS = 10;

/** The first MAX_DETAILS problems and a summary of the rest: an error body stays a few KB. */
export function boundedDetails(details: readonly ErrorDetail[]): readonly ErrorDetail[] {
  if (details.length <= MAX_DETAILS) return details;
  const rest = details.length - MAX_DETAILS;
  return [...details.slice(0, MAX_DETAILS), { parameter: '*', message: `${rest} more problem${rest === 1 ? '' : 's'} not listed` }];
}

export const invalidQuery = (message: string, details: readonly ErrorDetail[] = []) =>
  new ApiError(400, 'invalid_query', message, boundedDetails(details));

export const notFound = (message = 'No resource exists at this address.') => new ApiError(404, 'not_found', message);

export const methodNotAllowed = (allow: string) =>
  new ApiError(405, 'method_not_allowed', 'This method is not supported on this resource.', [], { Allow: allow });

export const uriTooLong = () =>
  new ApiError(414, 'invalid_query', 'The request URL is too long (at most 4,096 bytes, including room for a continuation cursor).');

/**
 * The refusals of an overload (429, 503) are thrown thousands of times a second, with a few
 * messages and Retry-After values: each is built once and reused (building an Error captures
 * its stack, which costs more than the rest of the refusal's rendering). ApiErrors are never
 * mutated. At most REUSED_REFUSALS are kept; others are built each time.
 */
const REUSED_REFUSALS = 64;
const reused = new Map<string, ApiError>();

function reusedRefusal(key: string, build: () => ApiError): ApiError {
  const found = reused.get(key);
  if (found !== undefined) return found;
  const built = build();
  if (reused.size < REUSED_REFUSALS) reused.set(key, built);
  return built;
}

export const rateLimited = (retryAfterSeconds: number) =>
  reusedRefusal(`429 ${retryAfterSeconds}`, () =>
    new ApiError(429, 'rate_limited', 'Too many requests: slow down and retry later.', [], {
      'Retry-After': String(retryAfterSeconds),
    }),
  );

export const unavailable = (message = 'The service is temporarily unavailable; retry later.', retryAfterSeconds = 1) =>
  reusedRefusal(`503 ${retryAfterSeconds} ${message}`, () =>
    new ApiError(503, 'unavailable', message, [], { 'Retry-After': String(retryAfterSeconds) }),
  );

export const INTERNAL_MESSAGE = 'An unexpected error occurred.';
export const internalError = () => new ApiError(500, 'internal_error', INTERNAL_MESSAGE);

/**
 * What a failure is, for the log and the metrics, and the refusal it is answered with:
 * - `refusal`: the client's request (or the service's state) is refused as the error says;
 * - `unavailable`: the database cannot answer now (503, counted and logged as a warning);
 * - `stored-data`: stored data the contract cannot represent (sanitized 500, logged);
 * - `programming`: a defect of the service, e.g. a read over its statement budget (sanitized
 *   500, logged with its stack);
 * - `unknown`: anything else (sanitized 500, logged with its stack), or a 4xx from Fastify.
 */
export type FailureKind = 'refusal' | 'unavailable' | 'stored-data' | 'programming' | 'unknown';

/** The status of a 4xx Fastify raised itself (Lineup's own errors carry no `statusCode`), else null. */
export function frameworkRefusalStatus(err: unknown): number | null {
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

export function publicError(err: unknown): { kind: FailureKind; error: ApiError } {
  if (err instanceof ApiError) return { kind: 'refusal', error: err };
  if (err instanceof InvalidQuery) return { kind: 'refusal', error: invalidQuery(err.message, err.details) };
  if (err instanceof UrlTooLong) return { kind: 'refusal', error: uriTooLong() };
  if (err instanceof ResourceNotFound) return { kind: 'refusal', error: notFound() };
  if (err instanceof ReadSlotsFullError) return { kind: 'refusal', error: unavailable('The database is busy; retry shortly.') };
  if (err instanceof DatabaseUnavailableError) {
    return { kind: 'unavailable', error: unavailable('The database is temporarily unavailable; retry later.') };
  }
  if (err instanceof ProjectionError) return { kind: 'stored-data', error: internalError() };
  if (err instanceof BudgetExceededError) return { kind: 'programming', error: internalError() };
  // Fastify's own 4xx (e.g. a malformed request it refused before any route)
  const status = frameworkRefusalStatus(err);
  if (status !== null) return { kind: 'refusal', error: status === 414 ? uriTooLong() : invalidQuery('The request is malformed.') };
  return { kind: 'unknown', error: internalError() };
}

const bodies = new WeakMap<ApiError, string>();

export function errorBody(err: ApiError): string {
  const known = bodies.get(err);
  if (known !== undefined) return known;
  const error: { type: ErrorType; message: string; details?: ErrorDetail[] } = { type: err.type, message: err.message };
  if (err.details.length > 0) error.details = err.details.map((d) => ({ parameter: d.parameter, message: d.message }));
  const body = JSON.stringify({ ok: false, error });
  bodies.set(err, body);
  return body;
}
