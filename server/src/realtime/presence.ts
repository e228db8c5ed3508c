import { encodeServerFrame, type ServerFrame } from '@campus/protocol';
import type { Logger } from '../lib/logger';
import type { Hub } from './hub';

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
  log: Logger;
}

/**
 * Presence of the people a user talks with (never everyone's to everyone) and the throttled online count.
 * Who counts as a contact is the features' to say (SessionHooks); this only keeps the rule.
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

  constructor(
    private readonly hub: Hub,
    private readonly options: PresenceOptions,
  ) {}

  onlineContacts(conn: PresenceConnection): string[] {
    return [...conn.contacts].filter((id) => this.hub.isOnline(id));
  }

  sendOnlineList(conn: PresenceConnection): void {
    conn.send({ type: 'online_users_list', userIds: this.onlineContacts(conn) });
  }

  /** After the connection is registered and opened; `first` when it is the user's first connection. */
  connected(conn: PresenceConnection, first: boolean): void {
    this.sendOnlineList(conn);
    conn.send({ type: 'online_count', count: this.hub.onlineUserCount() });
    if (first) {
      this.hub.sendToUsers(this.audienceOf(conn), { type: 'user_online', userId: conn.userId });
      this.scheduleCount();
    }
  }

  /** After the connection is unregistered; `last` when the user has no connection left. */
  disconnected(conn: PresenceConnection, last: boolean, openChat: string | undefined): void {
    if (openChat) this.unwatch(conn, openChat);
    if (!last) return;
    const lastActiveAt = new Date(this.options.now()).toISOString();
    const audience = this.audienceOf(conn);
    this.scheduleCount();
    const tell = () =>
      this.hub.sendToUsers(audience, { type: 'user_offline', userId: conn.userId, lastActiveAt });
    this.options.wentOffline(conn.userId, lastActiveAt).then(tell, (err: unknown) => {
      this.options.log.error({ err }, 'presence update failed');
      tell();
    });
  }

  /** New contacts of a live connection: it hears at once which of them are online (offline is the default). */
  contactsAdded(conn: PresenceConnection, userIds: readonly string[]): void {
    for (const userId of userIds) if (this.hub.isOnline(userId)) conn.send({ type: 'user_online', userId });
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

  /** The online users who should hear about this user: contacts and anyone with their chat open. */
  private audienceOf(conn: PresenceConnection): Set<string> {
    const users = new Set<string>();
    for (const id of conn.contacts) if (this.hub.isOnline(id)) users.add(id);
    for (const watcher of this.watchers.get(conn.userId) ?? []) users.add(watcher.userId);
    users.delete(conn.userId);
    return users;
  }

  private scheduleCount(): void {
    if (this.countTimer) return;
    const wait = Math.max(0, this.lastCountAt + this.options.everyMs - Date.now());
    this.countTimer = setTimeout(() => {
      this.countTimer = undefined;
      this.lastCountAt = Date.now();
      const count = this.hub.onlineUserCount();
      if (count === this.lastCount) return;
      this.lastCount = count;
      const json = encodeServerFrame({ type: 'online_count', count });
      this.hub.forEachConnection((conn) => conn.sendRaw(json));
    }, wait);
    this.countTimer.unref();
  }

  close(): void {
    clearTimeout(this.countTimer);
  }
}
