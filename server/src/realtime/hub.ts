import type { EphemeralFrame } from '@campus/protocol';
import type { Audience } from './audiences';
import type { ChangeBus, CommittedChange, ContactChange, EphemeralBus, EphemeralTarget } from './bus';
import type { RedisPresence } from './redis-presence';

/** What the hub needs of a WebSocket connection (realtime/connection.ts implements it). */
export interface HubConnection {
  readonly userId: string;
  readonly audiences: Set<string>;
  /** A committed change this connection may see: sent now, or held until its pull has finished. */
  push(item: CommittedChange): void;
  /**
   * An ephemeral frame, already serialised to UTF-8 JSON once for all its recipients. It may leave at the end
   * of the event-loop turn, in one write with the connection's other frames of that turn (ws-socket.ts
   * corkUntilTurnEnds).
   */
  sendEphemeral(payload: Buffer): void;
  close(code: number, reason: string): void;
  /**
   * A block between this user and `userId` (either way) committed: `userId` is no contact (presence, typing)
   * and their typing in a shared group does not reach this connection, nor this user's theirs.
   */
  separateFrom(userId: string): void;
  /** The block is gone: no longer separated, and a contact again when `contact` (they share something). */
  reuniteWith(userId: string, contact: boolean): void;
  /** No longer friends, and sharing nothing else: `userId` is no contact (presence, typing). */
  partFrom(userId: string): void;
  /** Whether a block (either way) stands between this user and `userId`: one Set lookup. */
  isSeparatedFrom(userId: string): boolean;
}

/** The live side of the engine as features see it (`deps.realtime`). */
export interface RealtimeHub {
  /** Ephemeral frames (typing, presence) to every live connection of these users. */
  sendToUsers(userIds: Iterable<string>, frame: EphemeralFrame): void;
  /**
   * Ephemeral frames to the live members of an audience, leaving out `exceptUserId` (the typer) and every
   * connection separated from them by a block either way.
   */
  sendToAudience(audience: Audience, frame: EphemeralFrame, exceptUserId?: string): void;
  /** A live connection on this node: with REDIS_URL the user may be online on another (isOnlineAnywhere). */
  isOnline(userId: string): boolean;
  /**
   * A live connection on any node (REDIS_URL: one Redis round trip, this node's answer if Redis fails);
   * without REDIS_URL this node is the deployment and it is isOnline.
   */
  isOnlineAnywhere(userId: string): Promise<boolean>;
  /** Which of `userIds` are online on any node, like isOnlineAnywhere: one round trip for the lot. */
  onlineAmongAnywhere(userIds: readonly string[]): Promise<string[]>;
  /** Distinct users with a live connection on any node, like isOnlineAnywhere. */
  onlineCountAnywhere(): Promise<number>;
  /**
   * The two are separated on every live connection of either, on every node (a block): no presence or typing
   * between them from now on, in a group they share too. This node's connections at once, the other nodes'
   * when the message reaches them (the ephemeral bus); a connection still signing in applies it once its
   * contacts are read (realtime/connection.ts). `a` is the one who blocked. Runs after the block's commit,
   * whether or not either is connected.
   */
  separate(a: string, b: string): void;
  /**
   * Features that keep live state between two people (a call) hear of every separation, after its commit
   * and outside any transaction, on the node that made it only (a coordinated feature forwards it to the node
   * that runs it). Returns the unsubscribe.
   */
  onSeparate(listener: (blockerId: string, blockedId: string) => void): () => void;
  /**
   * What a user may do changed (a moderator's decision, an automatic hold): features holding live state for
   * them (a random-talk wait or room) read it again. Called after the commit; listeners run at once.
   */
  accessChanged(userId: string): void;
  onAccessChanged(listener: (userId: string) => void): () => void;
  /**
   * The reverse of `separate` (no block either way remains): on every live connection of either, on every
   * node as `separate` is, they are no longer separated, and contacts again if `contacts` (they share a
   * chat, a group or a friendship).
   */
  reunite(a: string, b: string, contacts: boolean): void;
  /**
   * The two are no longer contacts on any live connection of either, on every node as `separate` is: their
   * friendship ended and they share no chat with a message and no group (the caller read it in the commit).
   * Not separated: a first message or a shared group makes them contacts again.
   */
  part(a: string, b: string): void;
  close(): void;
}

/**
 * The connections of this node by user and by audience, fed by the buses: committed changes fan out to the
 * connections whose audiences include one of theirs, ephemeral frames to users or an audience's members.
 */
export class Hub implements RealtimeHub {
  private readonly byAudience = new Map<string, Set<HubConnection>>();
  private readonly byUser = new Map<string, Set<HubConnection>>();
  private readonly closeHooks: (() => void)[] = [];
  private readonly drainHooks: (() => Promise<void>)[] = [];
  private readonly separationListeners = new Set<(blockerId: string, blockedId: string) => void>();
  private readonly accessListeners = new Set<(userId: string) => void>();
  private isClosed = false;
  private readonly unsubscribe: (() => void)[];
  /** REDIS_URL: who is online on every node (realtime/redis-presence.ts); unset, this node is all there is. */
  private shared: RedisPresence | undefined;

  constructor(
    changes: ChangeBus,
    private readonly ephemeral: EphemeralBus,
  ) {
    this.unsubscribe = [
      changes.subscribe((items) => this.fanOut(items)),
      ephemeral.subscribe((target, json) => this.deliverEphemeral(target, json)),
      ephemeral.subscribeContacts((change) => this.applyContacts(change)),
    ];
  }

  get closed(): boolean {
    return this.isClosed;
  }

  sendToUsers(userIds: Iterable<string>, frame: EphemeralFrame): void {
    this.ephemeral.publish({ users: userIds }, frame);
  }

  sendToAudience(audience: Audience, frame: EphemeralFrame, exceptUserId?: string): void {
    this.ephemeral.publish({ audience, exceptUserId }, frame);
  }

  isOnline(userId: string): boolean {
    return this.byUser.has(userId);
  }

  isOnlineAnywhere(userId: string): Promise<boolean> {
    return this.shared ? this.shared.isOnline(userId) : Promise.resolve(this.isOnline(userId));
  }

  onlineAmongAnywhere(userIds: readonly string[]): Promise<string[]> {
    if (this.shared) return this.shared.onlineAmong(userIds);
    return Promise.resolve(userIds.filter((id) => this.isOnline(id)));
  }

  onlineCountAnywhere(): Promise<number> {
    return this.shared ? this.shared.count() : Promise.resolve(this.onlineUserCount());
  }

  /** Set once by the engine with REDIS_URL, before any connection. */
  sharePresence(shared: RedisPresence): void {
    this.shared = shared;
  }

  get sharedPresence(): RedisPresence | undefined {
    return this.shared;
  }

  separate(a: string, b: string): void {
    // The bus applies it to this node's connections before it returns: the listeners see them separated.
    this.ephemeral.publishContacts({ k: 'separate', a, b });
    for (const listener of this.separationListeners) listener(a, b);
  }

  onSeparate(listener: (blockerId: string, blockedId: string) => void): () => void {
    this.separationListeners.add(listener);
    return () => {
      this.separationListeners.delete(listener);
    };
  }

  accessChanged(userId: string): void {
    for (const listener of this.accessListeners) listener(userId);
  }

  onAccessChanged(listener: (userId: string) => void): () => void {
    this.accessListeners.add(listener);
    return () => {
      this.accessListeners.delete(listener);
    };
  }

  reunite(a: string, b: string, contacts: boolean): void {
    this.ephemeral.publishContacts({ k: 'reunite', a, b, contacts });
  }

  part(a: string, b: string): void {
    this.ephemeral.publishContacts({ k: 'part', a, b });
  }

  /** Returns whether it is the user's first connection here. */
  register(conn: HubConnection): boolean {
    for (const audience of conn.audiences) this.addAudience(conn, audience);
    let set = this.byUser.get(conn.userId);
    const first = !set;
    if (!set) this.byUser.set(conn.userId, (set = new Set()));
    set.add(conn);
    return first;
  }

  /** Returns whether it was the user's last connection here. */
  unregister(conn: HubConnection): boolean {
    for (const audience of conn.audiences) {
      const set = this.byAudience.get(audience);
      if (!set) continue;
      set.delete(conn);
      if (!set.size) this.byAudience.delete(audience);
    }
    const set = this.byUser.get(conn.userId);
    if (!set?.delete(conn)) return false;
    if (set.size) return false;
    this.byUser.delete(conn.userId);
    return true;
  }

  addAudience(conn: HubConnection, audience: string): void {
    conn.audiences.add(audience);
    let set = this.byAudience.get(audience);
    if (!set) this.byAudience.set(audience, (set = new Set()));
    set.add(conn);
  }

  connectionCount(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /** This node's users; onlineCountAnywhere for the deployment's. */
  onlineUserCount(): number {
    return this.byUser.size;
  }

  onlineUsers(): IterableIterator<string> {
    return this.byUser.keys();
  }

  forEachConnection(fn: (conn: HubConnection) => void): void {
    for (const conns of this.byUser.values()) for (const conn of conns) fn(conn);
  }

  /** Runs on close (the WebSocket side stops its timers). */
  onClose(fn: () => void): void {
    this.closeHooks.push(fn);
  }

  onDrain(fn: () => Promise<void>): void {
    this.drainHooks.push(fn);
  }

  /**
   * The node is draining (SIGTERM): each hook finishes its in-flight work and closes its sockets with a
   * "reconnect elsewhere" code. The hub stays open: the database and the buses are still there until close().
   */
  async drain(): Promise<void> {
    await Promise.all(this.drainHooks.map((fn) => fn()));
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const off of this.unsubscribe) off();
    for (const fn of this.closeHooks) fn();
  }

  private fanOut(items: readonly CommittedChange[]): void {
    for (const item of items) {
      if (item.audiences.length === 1) {
        const conns = this.byAudience.get(item.audiences[0]!);
        if (conns) for (const conn of conns) conn.push(item);
        continue;
      }
      const seen = new Set<HubConnection>();
      for (const audience of item.audiences) {
        const conns = this.byAudience.get(audience);
        if (!conns) continue;
        for (const conn of conns) {
          if (seen.has(conn)) continue;
          seen.add(conn);
          conn.push(item);
        }
      }
    }
  }

  /** A contact change made on any node, to this node's connections of either user. */
  private applyContacts(change: ContactChange): void {
    const apply = (conn: HubConnection, other: string) => {
      if (change.k === 'separate') conn.separateFrom(other);
      else if (change.k === 'reunite') conn.reuniteWith(other, change.contacts);
      else conn.partFrom(other);
    };
    for (const conn of this.byUser.get(change.a) ?? []) apply(conn, change.b);
    for (const conn of this.byUser.get(change.b) ?? []) apply(conn, change.a);
  }

  private deliverEphemeral(target: EphemeralTarget, json: string): void {
    // Encoded and framed once for every recipient (ws-socket.ts's textFrameOf), not once a socket; not at
    // all on a node none of them is connected to (every node hears every ephemeral frame with REDIS_URL).
    let encoded: Buffer | undefined;
    const payload = () => (encoded ??= Buffer.from(json));
    if (target.users) {
      for (const userId of target.users) {
        const conns = this.byUser.get(userId);
        if (conns) for (const conn of conns) conn.sendEphemeral(payload());
      }
    }
    if (target.audience) {
      const from = target.exceptUserId;
      // A group's typing never crosses a block: one Set lookup per member connection.
      for (const conn of this.byAudience.get(target.audience) ?? [])
        if (from === undefined || (conn.userId !== from && !conn.isSeparatedFrom(from)))
          conn.sendEphemeral(payload());
    }
  }
}
