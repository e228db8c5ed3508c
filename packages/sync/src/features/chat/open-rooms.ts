import type { CampusDatabase } from '../../database';
import type { FeatureHost, FrameSender } from '../../feature-contract';

/** join_group writes a read mark on the server and is rate limited there. */
const GROUP_JOIN_INTERVAL_MS = 1000;

/** What change appliers may ask of the screen: the group open there has its messages seen as they arrive. */
export interface OpenView {
  readonly openGroupId: string | null;
}

/**
 * The chat or group open on screen. The server is told on open, again after every pull (frames sent while
 * offline were dropped), and, for a group, whenever new messages are seen, at most once a second.
 */
export class OpenRooms implements OpenView {
  private chat: string | null = null;
  private group: string | null = null;
  private lastGroupJoinAt = 0;
  private groupJoinTimer: ReturnType<typeof setTimeout> | undefined;

  private readonly db: CampusDatabase;
  private readonly send: FrameSender;

  constructor(host: FeatureHost) {
    this.db = host.db;
    this.send = host.send;
  }

  get openGroupId(): string | null {
    return this.group;
  }

  joinChat(peerId: string): () => void {
    this.chat = peerId;
    this.send({ type: 'join_chat', peerId });
    return () => {
      if (this.chat === peerId) this.chat = null;
    };
  }

  joinGroup(groupId: string): () => void {
    this.group = groupId;
    this.sendGroupJoin(groupId);
    return () => {
      if (this.group !== groupId) return;
      this.group = null;
      this.cancelGroupJoin();
    };
  }

  async markGroupSeen(groupId: string): Promise<void> {
    await this.db.transaction('rw', this.db.conversations, async () => {
      const row = await this.db.conversations.get(groupId);
      if (row && row.unreadCount !== 0) await this.db.conversations.update(groupId, { unreadCount: 0 });
    });
    this.throttledGroupJoin(groupId);
  }

  /** After a pull the server learns again what is open. */
  rejoin(generation: number): void {
    if (this.chat) this.send({ type: 'join_chat', peerId: this.chat }, generation);
    if (this.group && this.send({ type: 'join_group', groupId: this.group }, generation))
      this.lastGroupJoinAt = Date.now();
  }

  stop(): void {
    this.cancelGroupJoin();
  }

  /** Forgets the deferred join too: a timer id left behind would make later marks think one is pending. */
  private cancelGroupJoin(): void {
    clearTimeout(this.groupJoinTimer);
    this.groupJoinTimer = undefined;
  }

  /** join_group writes the server's read mark and costs a rate-limited token: at most one a second. */
  private throttledGroupJoin(groupId: string): void {
    const wait = this.lastGroupJoinAt + GROUP_JOIN_INTERVAL_MS - Date.now();
    if (wait <= 0) {
      this.sendGroupJoin(groupId);
      return;
    }
    if (this.groupJoinTimer !== undefined) return;
    this.groupJoinTimer = setTimeout(() => {
      this.groupJoinTimer = undefined;
      if (this.group === groupId) this.sendGroupJoin(groupId);
    }, wait);
  }

  private sendGroupJoin(groupId: string): void {
    if (this.send({ type: 'join_group', groupId })) this.lastGroupJoinAt = Date.now();
  }
}
