import { upgradeWebSocket } from '@hono/node-server';
import WebSocket, { WebSocketServer } from 'ws';
import { NOTES_SUBPROTOCOL } from '@campus/protocol';
import type { AppDeps } from '../lib/deps';
import { Connection } from './connection';
import { createRuntime } from './runtime';

/** Largest frame a client may send; a chat message is at most 4,000 characters. */
const MAX_FRAME_BYTES = 64 * 1024;

/**
 * The one WebSocketServer of the process (upgrades arrive through Hono routes via @hono/node-server).
 * The notes socket offers 'campus-notes' and gets it back; `/ws` offers nothing.
 */
export function createWebSocketServer(): WebSocketServer {
  return new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
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
export function realtimeRoute(deps: AppDeps) {
  const rt = createRuntime(deps);
  const events = {
    onOpen(_event: Event, ws: { raw?: unknown; close(code?: number, reason?: string): void }) {
      // The raw `ws` socket: its own message events skip a MessageEvent per frame on the hot path.
      if (!(ws.raw instanceof WebSocket)) return ws.close(1011, 'unsupported socket');
      new Connection(rt, ws.raw);
      dropAdapterListeners(ws.raw);
    },
  };
  // One events object for every connection (nothing in it depends on the request).
  return upgradeWebSocket(() => events);
}
