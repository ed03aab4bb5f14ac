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
import { ALLOW_ORIGIN, EXPOSED_HEADERS } from './cors-headers.js';
import { pathOf } from '../controls/query-string.js';
import { errorBody, invalidQuery, methodNotAllowed, notFound, uriTooLong, ApiError } from './errors.js';
import { knownPath, type ServedPaths } from './routes/known-paths.js';
import { CACHE_NONE, JSON_TYPE } from './respond.js';

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

export type ParserRefusalReason = 'parser_malformed' | 'parser_headers_too_large' | 'parser_uri_too_long' | 'parser_timeout';

function refusalFor(err: ParserError, line: FailedRequestLine, requestTimeoutMs: number): { error: ApiError; reason: ParserRefusalReason } {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    if (line.method !== null && !line.lineEnded) return { error: uriTooLong(), reason: 'parser_uri_too_long' };
    return { error: invalidQuery('The request headers are too large (at most 16 KiB).'), reason: 'parser_headers_too_large' };
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const seconds = Math.round(requestTimeoutMs / 100) / 10;
    return { error: invalidQuery(`The request was not received in time (${seconds} s).`), reason: 'parser_timeout' };
  }
  if (err.code === 'HPE_URI_TOO_LONG') return { error: uriTooLong(), reason: 'parser_uri_too_long' };
  return { error: invalidQuery('The request is malformed.'), reason: 'parser_malformed' };
}

export interface ParserRefusal {
  /** The X-Request-ID the refusal answered with. */
  readonly requestId: string;
  readonly reason: ParserRefusalReason;
  readonly status: number;
  /** Node's parser error code (HPE_…, ERR_HTTP_REQUEST_TIMEOUT). */
  readonly code: string | undefined;
  readonly remoteAddress: string | undefined;
}

export interface ClientErrorOptions {
  /** The listener's request deadline, named in the timeout refusal's message. */
  readonly requestTimeoutMs?: number;
  /** Told of every refusal written (for the log line and the refusal metric). */
  readonly onRefusal?: (refusal: ParserRefusal) => void;
}

export function createClientErrorHandler(options: ClientErrorOptions = {}): (err: ParserError, socket: Socket) => void {
  const requestTimeoutMs = options.requestTimeoutMs ?? 5000;
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const line = failedRequestLine(Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined, err.bytesParsed);
    const { error, reason } = refusalFor(err, line, requestTimeoutMs);
    const requestId = randomUUID();
    const remoteAddress = socket.remoteAddress; // gone once the socket is destroyed
    writeRefusal(socket, error, requestId, line.method === 'HEAD');
    options.onRefusal?.({ requestId, reason, status: error.status, code: err.code, remoteAddress });
  };
}

/** The listener's parser refusals with the spec's defaults, told to nobody. */
export const clientErrorHandler = createClientErrorHandler();

/**
 * A CONNECT request: Node hands it to the server's 'connect' listener, and with none destroys the
 * socket unanswered. It is answered as any method no route serves (decisions §5): a known path
 * 405 with Allow, anything else (an authority such as `host:443` included) 404; then the
 * connection is closed, as Node would not read another request from it.
 */
export function refuseConnect(req: http.IncomingMessage, socket: Socket, served: ServedPaths): void {
  const known = knownPath(pathOf(req.url ?? ''), served);
  writeRefusal(socket, known ? methodNotAllowed(known.allow) : notFound(), randomUUID(), false);
}

function writeRefusal(socket: Socket, error: ApiError, requestId: string, head: boolean): void {
  const body = errorBody(error);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status]}\r\n` +
        Object.entries(error.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('') +
        `Content-Type: ${JSON_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: ${CACHE_NONE}\r\n` +
        `Access-Control-Allow-Origin: ${ALLOW_ORIGIN}\r\n` +
        `Access-Control-Expose-Headers: ${EXPOSED_HEADERS}\r\n` +
        `X-Request-ID: ${requestId}\r\n` +
        `Connection: close\r\n\r\n${head ? '' : body}`,
    );
  }
  socket.destroy();
}
