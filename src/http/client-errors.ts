/**
 * Failures Node's HTTP parser detects before any route runs (malformed request line, headers
 * over 16 KiB, headers or request not received within 5 s). They still get the error envelope,
 * a request id, CORS and no-store, then the connection is closed. Statuses stay within the
 * contract's list (400, 414): oversized headers and missed deadlines are 400 invalid requests
 * with a message saying which limit was hit, rather than 431/408, which the contract does not list.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { errorBody, invalidQuery, ApiError } from './errors.js';

function refusalFor(code: string | undefined): { status: number; error: ApiError } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 400, error: invalidQuery('The request headers are too large (at most 16 KiB).') };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 400, error: invalidQuery('The request was not received in time (5 s).') };
  }
  if (code === 'HPE_URI_TOO_LONG') {
    return { status: 414, error: invalidQuery('The request URL is too long.') };
  }
  return { status: 400, error: invalidQuery('The request is malformed.') };
}

export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, error } = refusalFor(err.code);
  const body = errorBody(error);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: no-store\r\n` +
        `Access-Control-Allow-Origin: *\r\n` +
        `Access-Control-Expose-Headers: ETag, Retry-After, Age, X-Request-ID\r\n` +
        `X-Request-ID: ${randomUUID()}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
