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

/** The `/ws` route: the token comes in the hello frame, never in the URL. */
export function realtimeRoute(deps: AppDeps) {
  const rt = createRuntime(deps);
  return upgradeWebSocket(() => ({
    onOpen(_event, ws) {
      // The raw `ws` socket: its own message events skip a MessageEvent per frame on the hot path.
      if (ws.raw instanceof WebSocket) new Connection(rt, ws.raw);
      else ws.close(1011, 'unsupported socket');
    },
  }));
}
