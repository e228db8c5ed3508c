/** A live socket that the revocation of its session must end. */
export interface RevocableSocket {
  /**
   * Stops delivering and accepting frames at once, then closes with 4401. Synchronous, so nothing is sent or
   * applied after the revocation that called it; the close handshake may finish later.
   */
  revoke(): void;
}

/** One tracked socket, as its owner sees it. */
export interface LiveSocketEntry {
  /** The session's user, once the token's lookup found it: `revokeUser` reaches the socket from then on. */
  identify(userId: string): void;
  /** The socket closed (or never opened): forget it. Safe to call more than once. */
  release(): void;
}

/**
 * Every live socket (`/ws`, `/notes`) of each session, so revoking a session ends its sockets. A socket is
 * tracked by its session id (the stored SHA-256 of the token) before the token is even looked up, so a
 * logout that commits while the lookup runs still reaches it.
 *
 * This is the seam for several nodes (DESIGN, "Beyond one machine"): a Redis-backed implementation would
 * revoke locally at once as this one does and publish the session or user id for the other nodes.
 */
export interface LiveSockets {
  track(sessionId: string, socket: RevocableSocket): LiveSocketEntry;
  revokeSession(sessionId: string): void;
  revokeUser(userId: string): void;
}

/** This node's own registry: the Redis-backed one (realtime/redis-bus.ts) also asks which sessions it holds. */
export interface LocalLiveSockets extends LiveSockets {
  /** The sessions with a live socket here. */
  sessionIds(): string[];
}

interface Tracked {
  socket: RevocableSocket;
  sessionId: string;
  userId: string | undefined;
}

function addTo(index: Map<string, Set<Tracked>>, key: string, item: Tracked): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(item);
}

function removeFrom(index: Map<string, Set<Tracked>>, key: string | undefined, item: Tracked): void {
  if (key === undefined) return;
  const set = index.get(key);
  if (!set?.delete(item)) return;
  if (!set.size) index.delete(key);
}

/** The in-process registry: one server process sees all of its own sockets. */
export function createLiveSockets(onError: (err: unknown) => void): LocalLiveSockets {
  const bySession = new Map<string, Set<Tracked>>();
  const byUser = new Map<string, Set<Tracked>>();

  const forget = (item: Tracked) => {
    removeFrom(bySession, item.sessionId, item);
    removeFrom(byUser, item.userId, item);
  };

  // Every socket gets its revoke even if one throws: a faulty one must not keep the others open, nor fail
  // the logout or reset whose database change has already committed.
  const revokeAll = (items: Set<Tracked> | undefined) => {
    if (!items) return;
    for (const item of [...items]) {
      forget(item);
      try {
        item.socket.revoke();
      } catch (err) {
        onError(err);
      }
    }
  };

  return {
    track(sessionId, socket) {
      const item: Tracked = { socket, sessionId, userId: undefined };
      addTo(bySession, sessionId, item);
      return {
        identify(userId) {
          // Revoked (or released) before the lookup ended: nothing to index.
          if (!bySession.get(sessionId)?.has(item)) return;
          removeFrom(byUser, item.userId, item);
          item.userId = userId;
          addTo(byUser, userId, item);
        },
        release: () => forget(item),
      };
    },
    revokeSession: (sessionId) => revokeAll(bySession.get(sessionId)),
    revokeUser: (userId) => revokeAll(byUser.get(userId)),
    sessionIds: () => [...bySession.keys()],
  };
}
