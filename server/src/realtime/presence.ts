import type SQLite from 'better-sqlite3';
import type { AppDeps } from '../lib/deps';
import type { RealtimeHubInternals } from './hub';

/** What presence needs of a connection. */
export interface PresenceConnection {
  readonly userId: string;
  readonly contacts: Set<string>;
  sendRaw(json: string): void;
}

function prepare(sqlite: SQLite.Database) {
  return {
    // The people a user talks with: direct partners (a row exists only once a message was sent) and
    // co-members of their groups. Friends will join this UNION.
    contacts: sqlite.prepare<[string, string, string], { id: string }>(
      `SELECT peer_id AS id FROM direct_conversations WHERE user_id = ?
       UNION
       SELECT o.user_id FROM group_members m JOIN group_members o ON o.group_id = m.group_id
        WHERE m.user_id = ? AND o.user_id <> ?`,
    ),
    groups: sqlite.prepare<[string], { group_id: string }>(
      'SELECT group_id FROM group_members WHERE user_id = ?',
    ),
    touch: sqlite.prepare<[string, string]>('UPDATE users SET last_active_at = ? WHERE id = ?'),
  };
}

/**
 * Presence of the people a user talks with (never everyone's to everyone) and the throttled online count.
 * Contacts are read once per connection at hello and grow as the user chats (contacts.ts has the rule).
 */
export class Presence {
  private readonly sql: ReturnType<typeof prepare>;
  /**
   * Connections with a contact's chat open: they hear that user's online/offline even when the contact's own
   * connection loaded its set before the two became contacts.
   */
  private readonly watchers = new Map<string, Set<PresenceConnection>>();
  private countTimer: NodeJS.Timeout | undefined;
  private lastCountAt = 0;
  private lastCount = -1;

  constructor(
    private readonly deps: AppDeps,
    private readonly hub: RealtimeHubInternals,
    private readonly everyMs: number,
  ) {
    this.sql = prepare(deps.sqlite);
  }

  loadContacts(userId: string): Set<string> {
    return new Set(this.sql.contacts.all(userId, userId, userId).map((r) => r.id));
  }

  groupAudiences(userId: string): string[] {
    return this.sql.groups.all(userId).map((r) => `g:${r.group_id}`);
  }

  onlineContacts(conn: PresenceConnection): string[] {
    return [...conn.contacts].filter((id) => this.hub.isOnline(id));
  }

  sendOnlineList(conn: PresenceConnection): void {
    conn.sendRaw(JSON.stringify({ type: 'online_users_list', userIds: this.onlineContacts(conn) }));
  }

  /** After the connection is registered; `first` when it is the user's first connection. */
  connected(conn: PresenceConnection, first: boolean): void {
    this.sendOnlineList(conn);
    conn.sendRaw(JSON.stringify({ type: 'online_count', count: this.hub.onlineUserCount() }));
    if (first) {
      this.hub.sendToUsers(this.audienceOf(conn), { type: 'user_online', userId: conn.userId });
      this.scheduleCount();
    }
  }

  /** After the connection is unregistered; `last` when the user has no connection left. */
  disconnected(conn: PresenceConnection, last: boolean, openChat: string | undefined): void {
    if (openChat) this.unwatch(conn, openChat);
    if (!last) return;
    const lastActiveAt = new Date(this.deps.now()).toISOString();
    this.sql.touch.run(lastActiveAt, conn.userId);
    this.hub.sendToUsers(this.audienceOf(conn), { type: 'user_offline', userId: conn.userId, lastActiveAt });
    this.scheduleCount();
  }

  /** New contacts of a live connection: it hears at once which of them are online (offline is the default). */
  contactsAdded(conn: PresenceConnection, userIds: readonly string[]): void {
    for (const userId of userIds)
      if (this.hub.isOnline(userId)) conn.sendRaw(JSON.stringify({ type: 'user_online', userId }));
  }

  /** The chat open on `peerId` (a contact: ephemeral.ts checks) replaces `previous`; undefined opens none. */
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
    const wait = Math.max(0, this.lastCountAt + this.everyMs - Date.now());
    this.countTimer = setTimeout(() => {
      this.countTimer = undefined;
      this.lastCountAt = Date.now();
      const count = this.hub.onlineUserCount();
      if (count === this.lastCount) return;
      this.lastCount = count;
      const json = JSON.stringify({ type: 'online_count', count });
      this.hub.forEachConnection((conn) => conn.sendRaw(json));
    }, wait);
    this.countTimer.unref();
  }

  close(): void {
    clearTimeout(this.countTimer);
  }
}
