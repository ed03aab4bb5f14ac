/**
 * Failures Node's HTTP parser detects before any route runs (malformed request line, headers
 * over 16 KiB, headers or request not received within 5 s). They still get the error envelope,
 * a request id, CORS and no-store, then the connection is closed. Statuses stay within the
 * contract's list (400, 414): a request line that alone overflows the 16 KiB is a 414 (the URL
 * is too long), other oversized headers and missed deadlines are 400 invalid requests with a
 * message saying which limit was hit, rather than 431/408, which the contract does not list.
 *
 * A refused HEAD request gets the headers without the body (RFC 9110 §9.3.2): a client reading
 * a HEAD response stops after the headers, and a body would be junk on its connection. Node
 * does not tell which request failed, so it is read here from the bytes being parsed.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { errorBody, invalidQuery, uriTooLong, ApiError } from './errors.js';

type ParserError = Error & { code?: string; rawPacket?: unknown; bytesParsed?: number };

export interface FailedRequestLine {
  /** The failing request's method, or null when the bytes at hand do not start a request. */
  readonly method: string | null;
  /** Whether its request line ended before the failure point (false: the URL itself overflowed). */
  readonly lineEnded: boolean;
}

const REQUEST_LINE_START = /^([A-Z]{1,20}) [^\s]/;

/**
 * The request that failed, read from the chunk Node was parsing (`rawPacket`) up to where it
 * stopped (`bytesParsed`): after a pipelined request's blank line if there is one, else at the
 * chunk's start. When the failure came in a later chunk of a long request, its start is gone:
 * the method is then unknown and the refusal carries a body, as to a GET.
 */
export function failedRequestLine(packet: Buffer | undefined, bytesParsed: number | undefined): FailedRequestLine {
  if (!packet || packet.length === 0) return { method: null, lineEnded: false };
  const stop = typeof bytesParsed === 'number' && bytesParsed > 0 ? Math.min(bytesParsed, packet.length) : packet.length;
  const blank = packet.subarray(0, stop).lastIndexOf('\r\n\r\n');
  const start = blank >= 0 && blank + 4 < packet.length ? blank + 4 : 0;
  const head = packet.subarray(start, start + 32).toString('latin1');
  const match = REQUEST_LINE_START.exec(head);
  if (!match) return { method: null, lineEnded: false };
  return { method: match[1]!, lineEnded: packet.subarray(start, stop).includes('\n') };
}

function refusalFor(err: ParserError, line: FailedRequestLine): ApiError {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    if (line.method !== null && !line.lineEnded) return uriTooLong();
    return invalidQuery('The request headers are too large (at most 16 KiB).');
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return invalidQuery('The request was not received in time (5 s).');
  if (err.code === 'HPE_URI_TOO_LONG') return uriTooLong();
  return invalidQuery('The request is malformed.');
}

export function clientErrorHandler(err: ParserError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const line = failedRequestLine(Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined, err.bytesParsed);
  const error = refusalFor(err, line);
  const body = errorBody(error);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: no-store\r\n` +
        `Access-Control-Allow-Origin: *\r\n` +
        `Access-Control-Expose-Headers: ETag, Retry-After, Age, X-Request-ID\r\n` +
        `X-Request-ID: ${randomUUID()}\r\n` +
        `Connection: close\r\n\r\n${line.method === 'HEAD' ? '' : body}`,
    );
  }
  socket.destroy();
}
