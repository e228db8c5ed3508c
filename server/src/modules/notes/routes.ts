import { Hono } from 'hono';
import { upgradeWebSocket, type HttpBindings } from '@hono/node-server';
import { WebSocket } from 'ws';
import {
  NOTES_MSG,
  NOTES_SUBPROTOCOL,
  NOTES_TOKEN_PREFIX,
  REALTIME_ERRORS,
  SERVER_MSG,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { validateSessionToken } from '../../lib/auth/sessions';
import { openNotesConnection } from './connection';
import { NotesStore } from './store';

/** Group ids are server-made UUIDs; anything else cannot name a group and never reaches a query. */
const GROUP_ID = /^[A-Za-z0-9_-]{1,64}$/;
const TOKEN = /^[A-Za-z0-9]{16,128}$/;

/** The values of Sec-WebSocket-Protocol, e.g. `campus-notes, token.<session token>`. */
export function offeredProtocols(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
}

function tokenFrom(protocols: readonly string[]): string | null {
  const offered = protocols.find((value) => value.startsWith(NOTES_TOKEN_PREFIX));
  const token = offered?.slice(NOTES_TOKEN_PREFIX.length);
  return token && TOKEN.test(token) ? token : null;
}

/**
 * GET /notes/:groupId — the group's Yjs notes document over a WebSocket. The session token travels in the
 * Sec-WebSocket-Protocol header (never in the URL); session and membership are checked before the upgrade,
 * so a refused client gets a plain 401/403 and never a socket.
 */
export function notesRoutes(deps: AppDeps) {
  const store = new NotesStore(deps.sqlite, deps.now);
  const routes = new Hono<{ Bindings: HttpBindings }>();

  routes.get('/:groupId', async (c) => {
    const groupId = c.req.param('groupId');
    const protocols = offeredProtocols(c.req.header('sec-websocket-protocol'));
    const token = tokenFrom(protocols);
    const found = token ? await validateSessionToken(deps.db, token, deps.now()) : null;
    if (!found) return c.json({ error: SERVER_MSG.unauthorized }, 401);
    const userId = found.user.id;
    if (!GROUP_ID.test(groupId) || !store.isMember(groupId, userId)) {
      return c.json({ error: REALTIME_ERRORS.notGroupMember }, 403);
    }
    if (!protocols.includes(NOTES_SUBPROTOCOL)) return c.json({ error: NOTES_MSG.subprotocolMissing }, 400);
    if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
      return c.json({ error: NOTES_MSG.upgradeRequired }, 426);
    }

    const request = c.env.incoming;
    return upgradeWebSocket(
      c,
      {
        onOpen(_event, ws) {
          if (!(ws.raw instanceof WebSocket)) {
            ws.close(1011, 'unsupported socket');
            return;
          }
          openNotesConnection(ws.raw, request, { groupId, userId, store, log: deps.log });
        },
      },
      { onError: (err: unknown) => deps.log.error({ err, groupId }, 'notes socket error') },
    );
  });

  return routes;
}
