import type { WebSocket } from 'ws';
import { CLOSE_CODES } from '@campus/protocol';
import type { RevocableSocket } from './live-sockets';

/** How long a revoked socket gets to finish the close handshake before it is cut. */
const CLOSE_GRACE_MS = 1000;

/**
 * A plain `ws` socket seen by the live-socket registry (the notes socket). It is tracked before the upgrade,
 * while the token is checked, so it may be revoked before it has a socket: then it is closed as it opens.
 */
export class RevocableWebSocket implements RevocableSocket {
  private socket: WebSocket | undefined;
  private revoked = false;

  /** The socket has opened. False (and the socket is being closed) if the session was revoked already. */
  attach(socket: WebSocket): boolean {
    this.socket = socket;
    if (this.revoked) end(socket);
    return !this.revoked;
  }

  get isRevoked(): boolean {
    return this.revoked;
  }

  revoke(): void {
    if (this.revoked) return;
    this.revoked = true;
    if (this.socket) end(this.socket);
  }
}

function end(socket: WebSocket): void {
  // `ws` keeps emitting 'message' while closing, until the peer's close frame arrives: without its
  // listeners a frame sent in that round trip reaches nobody. Sending stops by itself (no longer OPEN).
  socket.removeAllListeners('message');
  socket.close(CLOSE_CODES.unauthorized, 'session revoked');
  setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
}
