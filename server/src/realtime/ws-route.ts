import type { ServerType } from '@hono/node-server';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { NOTES_FRAME_LIMITS, NOTES_SUBPROTOCOL, REALTIME_PATH } from '@campus/protocol';
import type { AppDeps } from '../deps';
import { Connection } from './connection';
import type { RealtimeEngine } from './engine';
import type { Features } from './registry';
import { createRuntime } from './runtime';

/** Largest frame a `/ws` client may send; a chat message is at most 4,000 characters. */
const MAX_FRAME_BYTES = 64 * 1024;

/** The options ws passes to setSocket (lib/websocket-server.js completeUpgrade). */
interface SocketOptions {
  maxPayload?: number;
  [option: string]: unknown;
}
type SetSocket = (socket: Duplex, head: Buffer, options: SocketOptions) => void;

/**
 * ws has one maxPayload per server, and both sockets share this server. ws lets a server name its WebSocket
 * class (it must extend ws's) and negotiates the sub-protocol before it calls setSocket, so the limit is
 * chosen per socket here: `/ws` (no sub-protocol) keeps 64 KiB and ws's 1009 before a byte is buffered; the
 * notes socket gets NOTES_FRAME_LIMITS.maxTransportFrameBytes, since its sync step 2 carries offline edits
 * and its decoder refuses what is too large for notes with a code y-websocket does not retry.
 */
class SizedWebSocket extends WebSocket {
  setSocket(socket: Duplex, head: Buffer, options: SocketOptions): void {
    const maxPayload =
      this.protocol === NOTES_SUBPROTOCOL ? NOTES_FRAME_LIMITS.maxTransportFrameBytes : MAX_FRAME_BYTES;
    // setSocket is ws's own (undeclared in @types/ws); called with the options ws built, only the limit changed.
    const base = (WebSocket.prototype as unknown as { setSocket: SetSocket }).setSocket;
    base.call(this, socket, head, { ...options, maxPayload });
  }
}

/**
 * The one WebSocketServer of the process: `/ws` upgrades come from routeUpgrades, the others through Hono
 * routes via @hono/node-server. The notes socket offers 'campus-notes' and gets it back; `/ws` offers
 * nothing.
 */
export function createWebSocketServer(): WebSocketServer {
  return new WebSocketServer({
    noServer: true,
    // The default for a socket that is neither; SizedWebSocket sets each socket's own.
    maxPayload: MAX_FRAME_BYTES,
    WebSocket: SizedWebSocket,
    handleProtocols: (protocols) => (protocols.has(NOTES_SUBPROTOCOL) ? NOTES_SUBPROTOCOL : false),
  });
}

/** What an upgrade listener of a Node HTTP server is called with. */
type UpgradeListener = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** What the `/ws` upgrade needs of the node's lifecycle (lib/lifecycle.ts). */
interface UpgradeGate {
  refuseUpgradeWhileDraining(socket: Duplex): boolean;
}

/**
 * Whether a request target names `/ws`, as the Hono route `app.get('/ws')` matched it: a query string
 * allowed, `/wsx` and `/ws/` being other paths, and the absolute form (`GET http://host/ws`, which a server
 * must accept) read by its path.
 */
export function isRealtimeTarget(target: string | undefined): boolean {
  if (!target) return false;
  let start = 0;
  if (target.charCodeAt(0) !== 0x2f) {
    const authority = target.indexOf('://');
    start = authority < 0 ? -1 : target.indexOf('/', authority + 3);
  }
  if (start < 0 || !target.startsWith(REALTIME_PATH, start)) return false;
  const next = target.charCodeAt(start + REALTIME_PATH.length);
  return Number.isNaN(next) || next === 0x3f;
}

/**
 * `/ws` upgrades go straight to `ws`; every other upgrade (group notes) to the listener @hono/node-server
 * registered, which runs it through the Hono app. Through Hono a `/ws` upgrade built an undici Request, a
 * Headers copy, a URL and a Context and ran every middleware: about 30 % of the server's CPU while clients
 * connect at once (1,000 in the bench, a reconnect storm of 5,000), for nothing `/ws` uses. Its token comes
 * in the hello frame (no cookie, so no origin check is needed, and none was made), no per-IP limit reads its
 * address, and the security headers the 101 no longer carries protect pages, which a 101 is not. What the
 * middleware did for it is kept: while draining it is refused with 503 (lib/lifecycle.ts). Any method goes
 * to `ws`, which answers all but GET with 405, as it did behind the Hono route.
 */
export function routeUpgrades(
  server: ServerType,
  wss: WebSocketServer,
  lifecycle: UpgradeGate,
  accept: (ws: WebSocket) => void,
): void {
  const others = server.listeners('upgrade') as UpgradeListener[];
  server.removeAllListeners('upgrade');
  // One listener, so the adapter still answers the upgrades it refuses (it does when it is the only one).
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isRealtimeTarget(request.url) || request.headers.upgrade?.toLowerCase() !== 'websocket') {
      for (const listener of others) listener.call(server, request, socket, head);
      return;
    }
    if (lifecycle.refuseUpgradeWhileDraining(socket)) return;
    // Synchronous (no verifyClient, no permessage-deflate): the socket is a Connection within this turn, so
    // a drain beginning later finds it among the runtime's sockets and closes it with 1012. ws answers a bad
    // method, key or version itself (405, 400) and destroys the socket on an error.
    wss.handleUpgrade(request, socket, head, accept);
  });
}

/** The `/ws` sockets: the token comes in the hello frame, never in the URL. */
export function realtimeSockets(
  deps: AppDeps,
  engine: RealtimeEngine,
  features: Features,
): (ws: WebSocket) => void {
  const rt = createRuntime(deps, engine, features);
  return (ws) => void new Connection(rt, ws);
}
