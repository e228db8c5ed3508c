import { encodeServerFrame, type ServerFrame } from '@campus/protocol';
import type { Logger } from '../lib/logger';
import type { Hub } from './hub';
import type { PresenceChange } from './redis-presence';

/** What presence needs of a connection. */
export interface PresenceConnection {
  readonly userId: string;
  /** The people whose presence this user may see (the session hooks fill it; it grows as they chat). */
  readonly contacts: ReadonlySet<string>;
  send(frame: ServerFrame): void;
}

export interface PresenceOptions {
  everyMs: number;
  now: () => number;
  /** The user's last connection closed: store `lastActiveAt` before contacts hear it. */
  wentOffline(userId: string, lastActiveAt: string): Promise<void>;
  /** Each user's contacts, read from the database (for users with no connection here to say). */
  contactsOf(userIds: readonly string[]): Promise<ReadonlyMap<string, readonly string[]>>;
  log: Logger;
}

/** Users whose contacts one database read looks up, when a node's death takes many offline at once. */
const UNANNOUNCED_CHUNK = 100;

/**
 * Presence of the people a user talks with (never everyone's to everyone) and the throttled online count.
 * Who counts as a contact is the features' to say (SessionHooks); this only keeps the rule.
 *
 * With REDIS_URL who is online, a user's first and last connection and the count are the deployment's
 * (realtime/redis-presence.ts): the answers then come one Redis round trip later. Without it they are this
 * node's, given at once as before.
 */
export class Presence {
  /**
   * Connections with a contact's chat open: they hear that user's online/offline even when the contact's own
   * connection loaded its set before the two became contacts.
   */
  private readonly watchers = new Map<string, Set<PresenceConnection>>();
  private countTimer: NodeJS.Timeout | undefined;
  private lastCountAt = 0;
  private lastCount = -1;
  private readonly offCountChanged: (() => void) | undefined;
  private readonly offUnannounced: (() => void) | undefined;

  constructor(
    private readonly hub: Hub,
    private readonly options: PresenceOptions,
  ) {
    // Users coming and going on other nodes change the count this node's connections see.
    this.offCountChanged = hub.sharedPresence?.onCountChanged(() => this.scheduleCount());
    this.offUnannounced = hub.sharedPresence?.onUnannounced((change) => {
      this.tellUnannounced(change).catch(this.failed);
    });
  }

  onlineContacts(conn: PresenceConnection): string[] {
    return [...conn.contacts].filter((id) => this.hub.isOnline(id));
  }

  sendOnlineList(conn: PresenceConnection): void {
    const shared = this.hub.sharedPresence;
    if (!shared) return conn.send({ type: 'online_users_list', userIds: this.onlineContacts(conn) });
    shared
      .onlineAmong([...conn.contacts])
      .then((userIds) => conn.send({ type: 'online_users_list', userIds }))
      .catch(this.failed);
  }

  /**
   * After the connection is registered and opened; `first` when it is the user's first connection on this
   * node (with REDIS_URL, whether it is their first anywhere is Redis's to say).
   */
  connected(conn: PresenceConnection, first: boolean): void {
    const shared = this.hub.sharedPresence;
    if (!shared) {
      this.sendOnlineList(conn);
      conn.send({ type: 'online_count', count: this.hub.onlineUserCount() });
      if (first) this.announceOnline(conn, this.onlineContacts(conn));
      return;
    }
    shared
      .joined(conn.userId, first, [...conn.contacts])
      .then((joined) => {
        conn.send({ type: 'online_users_list', userIds: joined.online });
        conn.send({ type: 'online_count', count: joined.count });
        if (joined.first) this.announceOnline(conn, joined.online);
      })
      .catch(this.failed);
  }

  /**
   * After the connection is unregistered; `last` when the user has no connection left on this node (with
   * REDIS_URL, whether none is left anywhere is Redis's to say: only then is the user offline).
   */
  disconnected(conn: PresenceConnection, last: boolean, openChat: string | undefined): void {
    if (openChat) this.unwatch(conn, openChat);
    if (!last) return;
    const lastActiveAt = new Date(this.options.now()).toISOString();
    const shared = this.hub.sharedPresence;
    if (!shared) {
      const audience = this.audienceOf(conn, this.onlineContacts(conn));
      return this.announceOffline(conn.userId, lastActiveAt, audience);
    }
    // The watchers as they are now: this connection's chat was unwatched above.
    const watchers = this.audienceOf(conn, []);
    shared
      .left(conn.userId, [...conn.contacts])
      .then((left) => {
        if (!left.last) return;
        for (const id of left.online) if (id !== conn.userId) watchers.add(id);
        this.announceOffline(conn.userId, lastActiveAt, watchers);
      })
      .catch(this.failed);
  }

  /** New contacts of a live connection: it hears at once which of them are online (offline is the default). */
  contactsAdded(conn: PresenceConnection, userIds: readonly string[]): void {
    const shared = this.hub.sharedPresence;
    const tell = (online: readonly string[]) => {
      for (const userId of online) conn.send({ type: 'user_online', userId });
    };
    if (!shared) return tell(userIds.filter((id) => this.hub.isOnline(id)));
    shared.onlineAmong(userIds).then(tell).catch(this.failed);
  }

  /** The chat open on `peerId` (a contact: the feature checks) replaces `previous`; undefined opens none. */
  watch(conn: PresenceConnection, peerId: string | undefined, previous: string | undefined): void {
    if (previous) this.unwatch(conn, previous);
    if (!peerId) return;
    let set = this.watchers.get(peerId);
    if (!set) this.watchers.set(peerId, (set = new Set()));
    set.add(conn);
  }

  private unwatch(conn: PresenceConnection, peerId: string): void {
    const set = this.watchers.get(peerId);
    if (!set) return;
    set.delete(conn);
    if (!set.size) this.watchers.delete(peerId);
  }

  private announceOnline(conn: PresenceConnection, onlineContacts: Iterable<string>): void {
    this.hub.sendToUsers(this.audienceOf(conn, onlineContacts), { type: 'user_online', userId: conn.userId });
    this.scheduleCount();
  }

  /** The user's last connection closed: `lastActiveAt` is stored before `audience` hears it. */
  private announceOffline(userId: string, lastActiveAt: string, audience: Set<string>): void {
    this.scheduleCount();
    const tell = () => this.hub.sendToUsers(audience, { type: 'user_offline', userId, lastActiveAt });
    this.options.wentOffline(userId, lastActiveAt).then(tell, (err: unknown) => {
      this.options.log.error({ err }, 'presence update failed');
      tell();
    });
  }

  /**
   * The online users who should hear about this user: their online contacts (on any node with REDIS_URL) and
   * anyone with their chat open here.
   */
  private audienceOf(conn: PresenceConnection, onlineContacts: Iterable<string>): Set<string> {
    const users = new Set(onlineContacts);
    for (const watcher of this.watchers.get(conn.userId) ?? []) users.add(watcher.userId);
    users.delete(conn.userId);
    return users;
  }

  /**
   * With REDIS_URL: users who went offline or came back without a connection of theirs announcing it (a
   * node died, or Redis had lost this node's share). Their contacts are read from the database, a chunk of
   * users a read, and each user is checked again just before: one who reconnected (or left) meanwhile was
   * announced by that connection already.
   */
  private async tellUnannounced(change: PresenceChange): Promise<void> {
    const shared = this.hub.sharedPresence;
    if (!shared) return;
    const lastActiveAt = new Date(this.options.now()).toISOString();
    const batches: [readonly string[], boolean][] = [
      [change.gone ?? [], false],
      [change.back ?? [], true],
    ];
    for (const [userIds, online] of batches) {
      for (let i = 0; i < userIds.length; i += UNANNOUNCED_CHUNK) {
        const chunk = userIds.slice(i, i + UNANNOUNCED_CHUNK);
        const contacts = await this.options.contactsOf(chunk);
        for (const userId of chunk) {
          if (this.hub.closed) return;
          const now = await shared.onlineAmong([userId, ...(contacts.get(userId) ?? [])]);
          if (now.includes(userId) !== online) continue;
          const audience = new Set(now);
          for (const watcher of this.watchers.get(userId) ?? []) audience.add(watcher.userId);
          audience.delete(userId);
          if (online) this.hub.sendToUsers(audience, { type: 'user_online', userId });
          else this.announceOffline(userId, lastActiveAt, audience);
        }
      }
    }
  }

  /** A presence answer that threw (the Redis side never rejects; a send to a closing socket might). */
  private readonly failed = (err: unknown): void => {
    this.options.log.error({ err }, 'presence update failed');
  };

  private scheduleCount(): void {
    if (this.countTimer) return;
    const wait = Math.max(0, this.lastCountAt + this.options.everyMs - Date.now());
    this.countTimer = setTimeout(() => {
      this.countTimer = undefined;
      this.lastCountAt = Date.now();
      const shared = this.hub.sharedPresence;
      if (!shared) return this.broadcastCount(this.hub.onlineUserCount());
      shared
        .count()
        .then((count) => this.broadcastCount(count))
        .catch(this.failed);
    }, wait);
    this.countTimer.unref();
  }

  private broadcastCount(count: number): void {
    if (count === this.lastCount || this.hub.closed) return;
    this.lastCount = count;
    const payload = Buffer.from(encodeServerFrame({ type: 'online_count', count }));
    this.hub.forEachConnection((conn) => conn.sendEphemeral(payload));
  }

  close(): void {
    clearTimeout(this.countTimer);
    this.offCountChanged?.();
    this.offUnannounced?.();
  }
}
