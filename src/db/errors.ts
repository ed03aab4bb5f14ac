/**
 * Failures of the database stage, as domain errors (the HTTP layer maps them, http/errors.ts).
 */

/** The database is unreachable, timed out or lost the connection: the client may retry (503). */
export class DatabaseUnavailableError extends Error {}
