import { Hono } from 'hono';
import { upgradeWebSocket, type HttpBindings } from '@hono/node-server';
import { WebSocket } from 'ws';
import {
  CLOSE_CODES,
  NOTES_FRAME_LIMITS,
  NOTES_MSG,
  NOTES_SUBPROTOCOL,
  NOTES_TOKEN_PREFIX,
  REALTIME_ERRORS,
  SERVER_MSG,
  accessLevel,
} from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { RevocableWebSocket } from '../../lib/auth/revocable-web-socket';
import { sessionIdFromToken } from '../../lib/auth/session-token';
import { validateSessionToken } from '../../lib/auth/sessions';
import { openNotesConnection } from './connection';
import { NotesCrossNode } from './cross-node';
import { newClientBudget } from './frame-guard';
import { KeyedBuckets } from './keyed-buckets';
import { openNotesStore } from './open-store';
import { isNotesMember, NOTES_GROUP_ID } from './store';

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
 * so a refused client gets a plain 401/403 and never a socket. A member whose account is limited by the
 * access policy may open and read the notes; an edit from it closes the socket with 4403 (frame-guard.ts).
 */
export function notesRoutes(deps: AppDeps) {
  // SQLite's handle, or PostgreSQL (DATABASE_URL) through the server's Kysely.
  const store = openNotesStore(deps);
  // With REDIS_URL, members on other nodes edit the same notes: their updates come and go through Redis.
  const peers =
    deps.redis && deps.config.redis
      ? new NotesCrossNode(deps.redis, store, deps.log, deps.config.redis.gapCheckMs)
      : undefined;
  // Each upgrade opens the document and costs a sync; y-websocket retries a 429 with its backoff.
  const upgrades = new KeyedBuckets(NOTES_FRAME_LIMITS.upgrades, deps.now);
  const newClientsPerMember = newClientBudget(deps.now);
  /** Live sockets per group and member (key `groupId\0userId`), capped at maxConnectionsPerMember. */
  const liveConnections = new Map<string, number>();
  const routes = new Hono<{ Bindings: HttpBindings }>();

  routes.get('/:groupId', async (c) => {
    const groupId = c.req.param('groupId');
    const protocols = offeredProtocols(c.req.header('sec-websocket-protocol'));
    const token = tokenFrom(protocols);
    if (!token) return c.json({ error: SERVER_MSG.unauthorized }, 401);
    const request = c.env.incoming;
    // Tracked before the lookup, so a logout that commits between the check and the open still closes it.
    const live = new RevocableWebSocket();
    const entry = deps.liveSockets.track(sessionIdFromToken(token), live);
    const refuse = (status: 401 | 403 | 400 | 426 | 429, error: string) => {
      entry.release();
      return c.json({ error }, status);
    };
    // A database fault is not a bad token: it goes on to the 500 handler and the client retries.
    const found = await validateSessionToken(deps.db, token, deps.now()).catch((err: unknown) => {
      entry.release();
      throw err;
    });
    if (!found || live.isRevoked) return refuse(401, SERVER_MSG.unauthorized);
    const userId = found.user.id;
    entry.identify(userId);
    if (!upgrades.take(userId)) return refuse(429, SERVER_MSG.tooManyRequests);
    // Read through the transactor: after the await above, a raw read could run inside another commit.
    const member =
      NOTES_GROUP_ID.test(groupId) &&
      (await deps.transactor
        .read((tx) => isNotesMember(tx, groupId, userId))
        .catch((err: unknown) => {
          entry.release();
          throw err;
        }));
    if (!member) {
      return refuse(403, REALTIME_ERRORS.notGroupMember);
    }
    if (!protocols.includes(NOTES_SUBPROTOCOL)) return refuse(400, NOTES_MSG.subprotocolMissing);
    if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
      return refuse(426, NOTES_MSG.upgradeRequired);
    }
    const liveKey = `${groupId}\0${userId}`;
    const liveCount = liveConnections.get(liveKey) ?? 0;
    if (liveCount >= NOTES_FRAME_LIMITS.maxConnectionsPerMember) {
      return refuse(429, SERVER_MSG.tooManyRequests);
    }
    liveConnections.set(liveKey, liveCount + 1);
    const release = () => {
      entry.release();
      const left = (liveConnections.get(liveKey) ?? 1) - 1;
      if (left > 0) liveConnections.set(liveKey, left);
      else liveConnections.delete(liveKey);
    };
    // The upgraded socket is this TCP connection: it closes with it, or at once if the handshake fails.
    if (request.socket.destroyed) release();
    else request.socket.once('close', release);

    return upgradeWebSocket(
      c,
      {
        onOpen(_event, ws) {
          if (!(ws.raw instanceof WebSocket)) {
            ws.close(CLOSE_CODES.serverError, 'unsupported socket');
            return;
          }
          if (!live.attach(ws.raw)) return;
          openNotesConnection(ws.raw, request, {
            groupId,
            userId,
            store,
            log: deps.log,
            now: deps.now,
            newClientsPerMember,
            peers,
            // With the status read for each edit: an admin's verification lets an open socket write at once.
            mayEdit: (status) =>
              accessLevel(status ?? 'pending_submission', deps.config.verificationPolicy) === 'full',
          });
        },
      },
      { onError: (err: unknown) => deps.log.error({ err, groupId }, 'notes socket error') },
    );
  });

  return routes;
}
