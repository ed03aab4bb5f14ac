/**
 * The HTTP listener with the spec's Limits table (the deadlines are settings, the spec's by
 * default): 16 KiB of headers, header and request deadlines, keep-alive, an idle-connection
 * timeout, and the PROXY protocol from trusted sources when configured.
 */
import http from 'node:http';
import type { Config } from '../config/config.js';
import { trustedMatcher } from '../config/trusted-sources.js';
import { acceptProxyProtocol } from '../limits/proxy-protocol.js';
import type { Operations } from './admin/operations.js';

export function createListener(config: Config, ops: Operations, handler: http.RequestListener): http.Server {
  const server = http.createServer(
    // connectionsCheckingInterval: enforce the deadlines promptly (Node's default checks every 30 s)
    {
      maxHeaderSize: 16 * 1024,
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(500, config.headersTimeoutMs),
    },
    handler,
  );
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
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
  return server;
}
