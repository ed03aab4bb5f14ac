/**
 * The catalogue of refusals (spec: Errors). Every failure leaves the service as one envelope
 * `{ ok: false, error: { type, message, details? } }` with exactly these keys. 5xx messages are
 * generic: the cause is logged with the request id, never serialized.
 */

export type ErrorType =
  | 'invalid_query'
  | 'not_found'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'unavailable'
  | 'internal_error';

export interface ErrorDetail {
  readonly parameter: string;
  readonly message: string;
}

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

export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limited', 'Too many requests: slow down and retry later.', [], {
    'Retry-After': String(retryAfterSeconds),
  });

export const unavailable = (message = 'The service is temporarily unavailable; retry later.', retryAfterSeconds = 1) =>
  new ApiError(503, 'unavailable', message, [], { 'Retry-After': String(retryAfterSeconds) });

export const INTERNAL_MESSAGE = 'An unexpected error occurred.';
export const internalError = () => new ApiError(500, 'internal_error', INTERNAL_MESSAGE);

/**
 * Stored data the public projection cannot represent (more than 25 URLs, a non-http(s) URL, an
 * empty name…). Spec: Event rule 3 — a sanitized 500, never silent truncation.
 */
export class ProjectionError extends Error {}

/** The database is unreachable, timed out or lost the connection: a 503, never a 500. */
export class DatabaseUnavailableError extends Error {}

export function errorBody(err: ApiError): string {
  const error: { type: ErrorType; message: string; details?: ErrorDetail[] } = { type: err.type, message: err.message };
  if (err.details.length > 0) error.details = err.details.map((d) => ({ parameter: d.parameter, message: d.message }));
  return JSON.stringify({ ok: false, error });
}
