/**
 * Requests read per turn of the event loop. libuv accepts ONE connection per turn of the loop,
 * however many wait in the kernel's accept queue. A turn that serves every keep-alive connection
 * with a request ready is long under a closed-loop overload (hundreds of requests), and those
 * connections, closed after their last allowed request and opened again at once, come back
 * faster than turns go by: the accept queue fills with them, and a new client (a health check)
 * waits seconds before its connection is even accepted.
 *
 * So a turn reads about `perTurn` requests. Past that, and as long as connections wait, the
 * connection a request came on is not read again (its next request waits in its socket) until a
 * later turn resumes it, the longest parked first, `perTurn` at a time: turns stay short, every
 * turn accepts a waiting connection, and every connection is served in its turn. Below `perTurn`
 * requests a turn, nothing is parked.
 */
import type { Socket } from 'node:net';

/** The part of Node's stream handle (net.Socket._handle) that starts and stops reading. */
interface ReadingHandle {
  reading?: boolean;
  readStop(): number;
  readStart(): number;
}

function handleOf(socket: Socket): ReadingHandle | null {
  const handle = (socket as unknown as { _handle?: Partial<ReadingHandle> | null })._handle;
  return handle && typeof handle.readStop === 'function' && typeof handle.readStart === 'function' ? (handle as ReadingHandle) : null;
}

/** Node's HTTP server stops reading a connection whose client does not read its responses. */
function nodePaused(socket: Socket): boolean {
  return (socket as unknown as { _paused?: boolean })._paused === true;
}

/**
 * At most one request a connection per turn out of `maxRequestsPerConnection` is closing it, and
 * a turn accepts one connection: half the limit (at most 32, so that a turn stays a few
 * milliseconds) keeps the accepts ahead of the connections that close.
 */
export function requestsPerTurn(maxRequestsPerConnection: number): number {
  return Math.max(1, Math.min(32, Math.floor(maxRequestsPerConnection / 2)));
}

export class TurnBudget {
  private read = 0;
  private scheduled = false;
  /** Parked connections, the longest parked first (a Set keeps insertion order). */
  private readonly parked = new Set<Socket>();

  constructor(
    private readonly perTurn: number,
    /** Runs its callback in a later turn of the loop (setImmediate: after this turn's I/O). */
    private readonly nextTurn: (callback: () => void) => void = setImmediate,
  ) {}

  /** Connections waiting for their turn. */
  get waiting(): number {
    return this.parked.size;
  }

  /**
   * Counts a request read from this connection. Past the turn's budget, or while connections
   * wait for their turn, the connection is parked behind them (this request is served now).
   */
  count(socket: Socket): void {
    this.schedule();
    if (++this.read <= this.perTurn && this.parked.size === 0) return;
    const handle = handleOf(socket);
    // a connection Node itself stopped reading (its responses are not being read) stays Node's
    if (handle === null || handle.reading !== true || socket.destroyed || this.parked.has(socket)) return;
    if (handle.readStop() === 0) {
      handle.reading = false;
      this.parked.add(socket);
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.nextTurn(this.turn);
  }

  private readonly turn = (): void => {
    this.scheduled = false;
    this.read = 0;
    let resumed = 0;
    for (const socket of this.parked) {
      if (resumed >= this.perTurn) break;
      this.parked.delete(socket);
      const handle = handleOf(socket);
      // gone, already reading again, or paused by Node meanwhile (it resumes those itself)
      if (handle === null || socket.destroyed || handle.reading === true || nodePaused(socket)) continue;
      handle.reading = true;
      if (handle.readStart() !== 0) socket.destroy(); // as Node does when it cannot read a socket
      resumed++;
    }
    if (this.parked.size > 0) this.schedule();
  };
}
