/**
 * The HTTP listener with the spec's Limits table (the deadlines are settings, the spec's by
 * default): 16 KiB of headers, header and request deadlines, keep-alive, an idle-connection
 * timeout, and the PROXY protocol from trusted sources when configured.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config/config.js';
import { trustedMatcher } from '../config/trusted-sources.js';
import { acceptProxyProtocol } from '../limits/proxy-protocol.js';
import { refuseConnect } from './client-errors.js';
import { servedPaths } from './routes/known-paths.js';
import type { Operations } from './admin/operations.js';
import { TurnBudget, requestsPerTurn } from './turn-budget.js';

export function createListener(config: Config, ops: Operations, handler: http.RequestListener): http.Server {
  // a turn of the event loop reads a bounded number of requests, so that it keeps accepting
  // connections under overload (turn-budget.ts)
  const turns = new TurnBudget(requestsPerTurn(config.maxRequestsPerConnection));
  ops.metrics.watch({ connectionsWaitingTurn: () => turns.waiting });
  const serve: http.RequestListener = (req, res) => {
    turns.count(req.socket);
    handler(req, res);
  };
  const server = http.createServer(
    // connectionsCheckingInterval: enforce the deadlines promptly (Node's default checks every 30 s)
    {
      maxHeaderSize: 16 * 1024,
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(500, config.headersTimeoutMs),
      // An HTTP/1.1 request without Host is refused by the request stages (plugins/admission.ts)
      // with the error envelope: Node's own refusal is a bare 400 with no X-Request-ID or CORS.
      requireHostHeader: false,
    },
    serve,
  );
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  const served = servedPaths(config.docs);
  server.on('connect', (req: http.IncomingMessage, socket: Socket) => refuseConnect(req, socket, served));
  // An Expect other than 100-continue: Node's own answer is a bare 417 with no envelope or
  // request id. RFC 9110 §10.1.1 lets a server ignore an expectation it does not support, so the
  // request is served as if it had none: the normal answer, or the envelope of its refusal.
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => serve(req, res));
  if (config.proxyProtocol.length > 0) {
    acceptProxyProtocol(server, {
      trusted: trustedMatcher(config.proxyProtocol),
      headerTimeoutMs: config.headersTimeoutMs,
      onReject: (reason) => ops.metrics.proxyRejections.inc({ reason }),
    });
  }
  // A connection with no traffic either way for 15 s (e.g. a client that stopped reading) is closed.
  server.setTimeout(15_000);
  // At most LINEUP_MAX_REQUESTS_PER_CONNECTION requests per connection is enforced by a request
  // stage (plugins/connection.ts), not by server.maxRequestsPerSocket.
  trackUnusedConnections(server);
  return server;
}

/** Per listener: the connections that have not sent a request (head) yet. */
const unusedConnections = new WeakMap<http.Server, Set<Socket>>();

function trackUnusedConnections(server: http.Server): void {
  const unused = new Set<Socket>();
  unusedConnections.set(server, unused);
  server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  server.on('request', (request: http.IncomingMessage) => unused.delete(request.socket));
}

/**
 * Closes the connections that never sent a request (a client or proxy that pre-connects), for a
 * graceful shutdown. Node counts such a connection as waiting for its request head, so
 * closeIdleConnections leaves it open, and once the server stops listening its header deadline is
 * no longer checked: the shutdown would wait for the grace period (or the 15 s idle timeout).
 * Call it after the requests already sent have been read (server.ts settle).
 */
export function closeUnusedConnections(server: http.Server): number {
  const unused = unusedConnections.get(server);
  if (unused === undefined) return 0;
  const closing = [...unused];
  for (const socket of closing) socket.destroy();
  return closing.length;
}
