import { upgradeWebSocket } from '@hono/node-server';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { CLOSE_CODES, NOTES_FRAME_LIMITS, NOTES_SUBPROTOCOL } from '@campus/protocol';
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
 * The one WebSocketServer of the process (upgrades arrive through Hono routes via @hono/node-server).
 * The notes socket offers 'campus-notes' and gets it back; `/ws` offers nothing.
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

const SOCKET_EVENTS = ['message', 'close', 'error'] as const;

/**
 * @hono/node-server attaches its own message/close/error listeners right after `onOpen` returns. They close
 * over the upgrade's Hono Context, Request, Headers, URLs and the IncomingMessage, which then live as long as
 * the socket: about 10 KB of heap per idle connection. A Connection listens on the raw socket itself and uses
 * none of them (no onMessage/onClose/onError events are given), so once they are attached, detach them. The
 * listeners present now (ws's own client tracking, the Connection's) stay.
 */
function dropAdapterListeners(raw: WebSocket): void {
  const keep = new Map(SOCKET_EVENTS.map((event) => [event, new Set(raw.listeners(event))]));
  // The adapter adds its listeners synchronously after onOpen, before any I/O callback can run.
  queueMicrotask(() => {
    for (const event of SOCKET_EVENTS) {
      const mine = keep.get(event)!;
      for (const listener of raw.listeners(event)) {
        if (!mine.has(listener)) raw.off(event, listener as (...args: unknown[]) => void);
      }
    }
  });
}

/** The `/ws` route: the token comes in the hello frame, never in the URL. */
export function realtimeRoute(deps: AppDeps, engine: RealtimeEngine, features: Features) {
  const rt = createRuntime(deps, engine, features);
  const events = {
    onOpen(_event: Event, ws: { raw?: unknown; close(code?: number, reason?: string): void }) {
      // The raw `ws` socket: its own message events skip a MessageEvent per frame on the hot path.
      if (!(ws.raw instanceof WebSocket)) return ws.close(CLOSE_CODES.serverError, 'unsupported socket');
      new Connection(rt, ws.raw);
      dropAdapterListeners(ws.raw);
    },
  };
  // One events object for every connection (nothing in it depends on the request).
  return upgradeWebSocket(() => events);
}
