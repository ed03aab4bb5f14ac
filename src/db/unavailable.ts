/**
 * Which database failures mean "the database cannot answer now" (a 503 the client may retry)
 * rather than a defect of the statement (a 500). Two kinds of failure reach the service:
 *   - failing to get a connection at all (`pool.connect()`): refused, not accepting
 *     connections, authentication, a database that is gone, too many connections, a timeout, a
 *     name that does not resolve. Whatever the cause, no statement of ours ran: it is always
 *     unavailability (`connectionFailed`).
 *   - a statement's failure: unavailability only when it says the connection or the server is
 *     going away or refused the session (`isUnavailable`); anything else (42P01, say) is a bug.
 */
import { DatabaseUnavailableError } from './errors.js';

const UNAVAILABLE_SQLSTATES = new Set([
  '57014', // query_canceled: statement_timeout
  '55P03', // lock_not_available: lock_timeout
  '57P01', // admin_shutdown: a fast shutdown, a terminated backend, a failover
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '53300', // too_many_connections (the server's or the role's limit)
  '53000', // insufficient_resources
  '28P01', // invalid_password: credentials rotated
  '28000', // invalid_authorization_specification: pg_hba refuses
  '3D000', // invalid_catalog_name: the database is missing
]);
// connection_exception (08xxx) is taken as a class, below
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** An ErrorResponse of these severities ends the session: the server, not the statement, failed. */
const SESSION_ENDING = new Set(['FATAL', 'PANIC']);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended|connect ECONNREFUSED|Client was closed|Cannot use a pool after calling end/i;

export function isUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const { code, severity } = err as { code?: unknown; severity?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_NODE_CODES.has(code))) return true;
  if (typeof severity === 'string' && SESSION_ENDING.has(severity)) return true;
  return UNAVAILABLE_MESSAGES.test(err.message);
}

/** A failure to get a connection, as the domain error the HTTP layer answers 503 with. */
export function connectionFailed(err: unknown): DatabaseUnavailableError {
  if (err instanceof DatabaseUnavailableError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const cause = err instanceof Error ? err.message : String(err);
  return new DatabaseUnavailableError(`no database connection: ${cause}${typeof code === 'string' ? ` (${code})` : ''}`);
}
