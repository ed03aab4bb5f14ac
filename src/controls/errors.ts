/**
 * What the request stages (controls, plan, and the parent check of the query layer) refuse, as
 * domain errors: no status, type or envelope here. The HTTP layer alone maps them to its
 * refusals (http/errors.ts `publicError`).
 */

/** One problem with one parameter (`*`: the query as a whole). */
export interface ErrorDetail {
  readonly parameter: string;
  readonly message: string;
}

/** The query's controls cannot be served: unknown, malformed or incompatible parameters or cursor. */
export class InvalidQuery extends Error {
  override readonly name = 'InvalidQuery';

  constructor(
    message: string,
    readonly details: readonly ErrorDetail[] = [],
  ) {
    super(message);
  }
}

/** The normalized URL plus room for a full cursor does not fit the URL budget. */
export class UrlTooLong extends Error {
  override readonly name = 'UrlTooLong';
}

/** The addressed resource does not exist: a malformed publicId, or a missing or inactive parent. */
export class ResourceNotFound extends Error {
  override readonly name = 'ResourceNotFound';
}
