import {
  REALTIME_TIMING,
  type ReactionType,
  type Change,
  type ChangesFrame,
  type ClientFrame,
  type MessageErrorFrame,
  type ServerFrame,
  type SyncResetFrame,
  type UserRef,
} from '@campus/protocol';
import type { CampusSyncClient, SyncClientOptions, TypingTarget } from './client-api';
import {
  writeConfessionComment,
  writeConfessionPost,
  writeConfessionReaction,
  writeNotificationRead,
  type ConfessionAuthor,
} from './confession-writes';
import { openUserDatabase, type CampusDatabase } from './database';
import { applyChanges, syncTables } from './apply-changes';
import { directTypingKey, EphemeralStore, groupTypingKey } from './ephemeral-state';
import { loadDirectPage, loadGroupPage, type HistoryContext } from './history';
import { readCursor } from './meta';
import {
  writeDirectMessage,
  writeDiscard,
  writeGroupMessage,
  writeMarkRead,
  writeReaction,
  writeRetry,
  type Writer,
} from './mutations';
import { OpenRooms } from './open-rooms';
import { MutationIds, rollback, rowsAfter, settle } from './outbox';
import { browserNetworkSignal, RealtimeConnection } from './realtime-connection';
import { applySnapshot } from './snapshot';
import { storeConfessions } from './confession-cache';
import { loadNotifications } from './notification-fetch';
import type { LocalConfession } from './database';
import { TaskQueue } from './task-queue';

/** offline: no session; pulling: catching up since the cursor (live pushes wait); live: caught up. */
type Phase = 'offline' | 'pulling' | 'live';

const CHANGE_TYPES: ReadonlySet<string> = new Set<Change['type']>([
  'receive_message',
  'receive_group_message',
  'peer_read_messages',
  'chat-reaction',
  'group_joined',
  'notification_created',
  'notification_read',
  'group_read',
  'notifications_deleted',
]);

const isChange = (frame: ServerFrame): frame is Change => CHANGE_TYPES.has(frame.type) && 'seq' in frame;

export function createSyncClient(options: SyncClientOptions): CampusSyncClient {
  return new SyncEngine(options);
}

class SyncEngine implements CampusSyncClient {
  readonly db: CampusDatabase;
  readonly userId: string;
  private readonly self: UserRef;
  private readonly store = new EphemeralStore();
  private readonly queue = new TaskQueue((error) => console.error('[sync]', error));
  private readonly ids = new MutationIds();
  private readonly connection: RealtimeConnection;
  private readonly history: HistoryContext;
  private readonly errorListeners = new Set<(error: MessageErrorFrame) => void>();
  private phase: Phase = 'offline';
  /** The session whose pull this engine follows, and how far its outbox went out on it. */
  private session = 0;
  private sentKey = 0;
  /** Live pushes heard during a pull; applied after its last page (the cursor skips what the pull covered). */
  private held: Change[] = [];
  /** Consecutive live changes become one task and one transaction. */
  private openBatch: Change[] | null = null;
  private readonly rooms: OpenRooms;

  constructor(options: SyncClientOptions) {
    this.self = options.self;
    this.userId = options.self.id;
    this.db = options.db ?? openUserDatabase(options.self.id);
    this.history = {
      db: this.db,
      selfId: this.userId,
      baseUrl: options.baseUrl,
      token: options.token,
      fetchImpl: options.fetchImpl ?? ((input, init) => globalThis.fetch(input, init)),
    };
    this.connection = new RealtimeConnection({
      url: options.wsUrl,
      network: options.network === undefined ? browserNetworkSignal() : (options.network ?? undefined),
      token: options.token,
      WebSocketImpl: options.WebSocketImpl ?? globalThis.WebSocket,
      timing: { ...REALTIME_TIMING, ...options.timing },
      random: options.random ?? Math.random,
      events: {
        status: (status) => {
          if (status !== 'online') this.phase = 'offline';
          this.store.setStatus(status);
        },
        welcome: (_frame, generation) => this.schedule(() => this.beginPull(generation)),
        frame: (frame, generation) => this.receive(frame, generation),
        refused: (code) => this.store.setRefused(code),
      },
    });
    this.rooms = new OpenRooms(this.db, (frame, generation) => this.connection.send(frame, generation));
  }

  getState = this.store.getState;
  subscribe = this.store.subscribe;

  start(): void {
    this.connection.start();
  }

  async stop(): Promise<void> {
    this.rooms.stop();
    this.connection.stop();
    await this.queue.idle();
  }

  onMessageError(listener: (error: MessageErrorFrame) => void): () => void {
    this.errorListeners.add(listener);
    return () => {
      this.errorListeners.delete(listener);
    };
  }

  private get writer(): Writer {
    return { db: this.db, ids: this.ids, self: this.self };
  }

  /** Every local write goes into the outbox in its own transaction, then out on the live session. */
  private async queued<T>(write: (writer: Writer) => Promise<T>): Promise<T> {
    const result = await write(this.writer);
    this.flushSoon();
    return result;
  }

  sendDirectMessage(to: UserRef, content: string, replyTo: string | null = null): Promise<string> {
    return this.queued((w) => writeDirectMessage(w, to, content, replyTo));
  }

  sendGroupMessage(groupId: string, content: string): Promise<string> {
    return this.queued((w) => writeGroupMessage(w, groupId, content));
  }

  markRead(partnerId: string, messageIds: readonly string[]): Promise<void> {
    return this.queued((w) => writeMarkRead(w, partnerId, messageIds));
  }

  react(messageId: string, emoji: string, toUserId: string): Promise<void> {
    return this.queued((w) => writeReaction(w, messageId, emoji, toUserId));
  }

  retry(messageId: string): Promise<void> {
    return this.queued((w) => writeRetry(w, messageId));
  }

  discard(messageId: string): Promise<void> {
    return writeDiscard(this.writer, messageId);
  }

  reactConfession(confessionId: string, reactionType: ReactionType, on: boolean): Promise<void> {
    return this.queued((w) => writeConfessionReaction(w, confessionId, reactionType, on));
  }

  commentConfession(confessionId: string, content: string, author?: ConfessionAuthor): Promise<string> {
    return this.queued((w) => writeConfessionComment(w, confessionId, content, author));
  }

  postConfession(content: string, emotionTag: string, author?: ConfessionAuthor): Promise<string> {
    return this.queued((w) => writeConfessionPost(w, content, emotionTag, author));
  }

  markNotificationRead(notificationId: string): Promise<void> {
    return this.queued((w) => writeNotificationRead(w, notificationId));
  }

  cacheConfessions(rows: readonly LocalConfession[]): Promise<void> {
    return storeConfessions(this.db, rows);
  }

  loadNotifications(): Promise<number> {
    return loadNotifications(this.history);
  }

  typing(target: TypingTarget): void {
    this.connection.send({ type: 'typing', ...target });
  }

  stopTyping(target: TypingTarget): void {
    this.connection.send({ type: 'stop_typing', ...target });
  }

  joinChat(peerId: string): () => void {
    return this.rooms.joinChat(peerId);
  }

  joinGroup(groupId: string): () => void {
    return this.rooms.joinGroup(groupId);
  }

  markGroupSeen(groupId: string): Promise<void> {
    return this.rooms.markGroupSeen(groupId);
  }

  loadDirectPage(partnerId: string, page: number): Promise<number> {
    return loadDirectPage(this.history, partnerId, page);
  }

  loadGroupPage(groupId: string, page: number): Promise<number> {
    return loadGroupPage(this.history, groupId, page);
  }

  /** Every task that is not a live change closes the current batch, so tasks keep arrival order. */
  private schedule(task: () => Promise<void>): void {
    this.openBatch = null;
    void this.queue.push(task);
  }

  private receive(frame: ServerFrame, generation: number): void {
    if (isChange(frame)) {
      if (this.openBatch) {
        this.openBatch.push(frame);
        return;
      }
      const batch: Change[] = [frame];
      this.openBatch = batch;
      void this.queue.push(async () => {
        if (this.openBatch === batch) this.openBatch = null;
        await this.guarded(generation, () => this.applyLive(batch));
      });
      return;
    }
    switch (frame.type) {
      case 'changes':
        this.schedule(() => this.guarded(generation, () => this.applyPage(frame, generation)));
        return;
      case 'sync_reset':
        this.schedule(() => this.guarded(generation, () => this.applyReset(frame, generation)));
        return;
      case 'ack':
        this.schedule(async () => {
          await settle(this.db, frame.deviceId, frame.mid);
        });
        return;
      case 'message_error':
        this.schedule(() => this.refuse(frame));
        return;
      case 'user_offline':
        this.store.apply(frame);
        if (frame.lastActiveAt) {
          const lastActiveAt = frame.lastActiveAt;
          this.schedule(async () => {
            await this.db.conversations.update(frame.userId, { lastActiveAt });
          });
        }
        return;
      case 'peer_typing':
      case 'peer_stop_typing':
      case 'group_member_typing':
      case 'group_member_stop_typing':
      case 'user_online':
      case 'online_users_list':
      case 'online_count':
        this.store.apply(frame);
        return;
      case 'welcome':
      case 'pong':
        return;
    }
  }

  /**
   * Applies what a session received, only while that session lives. If applying fails (storage full, an
   * aborted transaction) the session is dropped: the cursor did not move past the lost changes (it is saved
   * in their transaction) and later pages of that session are skipped, so the next session pulls them again.
   */
  private async guarded(generation: number, apply: () => Promise<void>): Promise<void> {
    if (!this.connection.isLive(generation)) return;
    try {
      await apply();
    } catch (error) {
      if (this.connection.isLive(generation)) this.connection.restart();
      throw error;
    }
  }

  private async beginPull(generation: number): Promise<void> {
    if (!this.connection.isLive(generation)) return;
    this.phase = 'pulling';
    this.session = generation;
    this.sentKey = 0;
    this.held = [];
    this.send({ type: 'pull', cursor: await readCursor(this.db) }, generation);
  }

  private async applyPage(page: ChangesFrame, generation: number): Promise<void> {
    this.afterApply(await this.apply(page.changes, page.cursor));
    if (generation !== this.session || !this.connection.isLive(generation)) return;
    // The server streams every page of one pull; the last one says hasMore false.
    if (!page.hasMore) await this.finishPull(generation);
  }

  private async applyReset(reset: SyncResetFrame, generation: number): Promise<void> {
    await applySnapshot(this.db, this.userId, reset);
    // The snapshot holds no notifications: those made since the old cursor come through REST.
    this.loadNotifications().catch(() => undefined);
    if (generation === this.session && this.connection.isLive(generation)) await this.finishPull(generation);
  }

  /** Caught up: apply what was pushed meanwhile, then send the outbox in order. */
  private async finishPull(generation: number): Promise<void> {
    if (this.phase !== 'pulling') return;
    this.phase = 'live';
    const held = this.held;
    this.held = [];
    if (held.length) this.afterApply(await this.apply(held));
    await this.flush(generation);
    this.rooms.rejoin(generation);
  }

  private async applyLive(batch: Change[]): Promise<void> {
    if (this.phase === 'pulling') {
      this.held.push(...batch);
      return;
    }
    this.afterApply(await this.apply(batch));
  }

  private apply(changes: readonly Change[], pageCursor?: number): Promise<Change[]> {
    return applyChanges(this.db, this.userId, changes, pageCursor, { openGroupId: this.rooms.openGroupId });
  }

  /** A message from someone ends their typing indicator. */
  private afterApply(applied: readonly Change[]): void {
    for (const change of applied) {
      if (change.type === 'receive_message') {
        const from = change.message.from.id;
        this.store.clearTyping(directTypingKey(from), from);
      } else if (change.type === 'receive_group_message') {
        this.store.clearTyping(groupTypingKey(change.message.group), change.message.from.id);
      }
    }
  }

  private flushSoon(): void {
    const generation = this.session;
    this.schedule(() => this.flush(generation));
  }

  /** Sends the queued mutations this session has not sent yet, in queue order. */
  private async flush(generation: number): Promise<void> {
    if (this.phase !== 'live' || generation !== this.session || !this.connection.isLive(generation)) return;
    for (const row of await rowsAfter(this.db, this.sentKey)) {
      if (!this.send(row.frame, generation)) return;
      this.sentKey = row.key ?? this.sentKey;
    }
  }

  private async refuse(frame: MessageErrorFrame): Promise<void> {
    const { deviceId, mid } = frame;
    if (deviceId !== undefined && mid !== undefined) {
      await this.db.transaction('rw', syncTables(this.db), async () => {
        const row = await settle(this.db, deviceId, mid);
        if (row) await rollback(this.db, row, frame.error);
      });
    }
    for (const listener of [...this.errorListeners]) listener(frame);
  }

  private send(frame: ClientFrame, generation: number): boolean {
    return this.connection.send(frame, generation);
  }
}
