import type { EphemeralFrame } from '@campus/protocol';
import type { ConnectionStatus, EphemeralState } from './client-api';

/**
 * The ephemeral frames the engine itself keeps (presence, the online count, typing). Other ephemeral frames
 * (call signalling) belong to a feature: they reach it through the session frame table, not this store.
 */
export type PresenceFrame = Extract<
  EphemeralFrame,
  {
    type:
      | 'peer_typing'
      | 'peer_stop_typing'
      | 'group_member_typing'
      | 'group_member_stop_typing'
      | 'user_online'
      | 'user_offline'
      | 'online_users_list'
      | 'online_count';
  }
>;

const INITIAL: EphemeralState = {
  status: 'offline',
  online: new Set(),
  onlineCount: null,
  typing: new Map(),
  lastActive: new Map(),
};

export const directTypingKey = (partnerId: string): string => `u:${partnerId}`;
export const groupTypingKey = (groupId: string): string => `g:${groupId}`;

/**
 * Presence, typing and connection status: never stored, replaced by a new object on every change so
 * React's useSyncExternalStore sees it. `getState` and `subscribe` are bound arrow functions on purpose.
 */
export class EphemeralStore {
  private state: EphemeralState = INITIAL;
  private readonly listeners = new Set<() => void>();

  getState = (): EphemeralState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  setStatus(status: ConnectionStatus): void {
    if (status === this.state.status) return;
    // Typing and presence heard on a lost connection may be stale: forget them until the server resends.
    const lost = status !== 'online' && this.state.status === 'online';
    this.update(lost ? { status, typing: new Map(), online: new Set() } : { status });
  }

  setRefused(code: number): void {
    this.update({ refusedCode: code });
  }

  /** A message from `userId` arrived: whatever they were typing has been sent. */
  clearTyping(key: string, userId: string): void {
    const current = this.state.typing.get(key);
    if (!current?.includes(userId)) return;
    this.setTyping(key, userId, false);
  }

  apply(frame: PresenceFrame): void {
    switch (frame.type) {
      case 'peer_typing':
      case 'peer_stop_typing':
        this.setTyping(directTypingKey(frame.fromUserId), frame.fromUserId, frame.type === 'peer_typing');
        return;
      case 'group_member_typing':
      case 'group_member_stop_typing':
        this.setTyping(groupTypingKey(frame.groupId), frame.fromUserId, frame.type === 'group_member_typing');
        return;
      case 'user_online': {
        if (this.state.online.has(frame.userId)) return;
        this.update({ online: new Set([...this.state.online, frame.userId]) });
        return;
      }
      case 'user_offline': {
        const online = new Set(this.state.online);
        online.delete(frame.userId);
        const lastActive = new Map(this.state.lastActive);
        if (frame.lastActiveAt) lastActive.set(frame.userId, frame.lastActiveAt);
        // A student who closed the app mid-sentence never sends stop_typing: gone means not typing.
        const typing = new Map<string, readonly string[]>();
        for (const [key, ids] of this.state.typing) {
          const rest = ids.filter((id) => id !== frame.userId);
          if (rest.length) typing.set(key, rest);
        }
        this.update({ online, lastActive, typing });
        return;
      }
      case 'online_users_list':
        this.update({ online: new Set(frame.userIds) });
        return;
      case 'online_count':
        if (frame.count !== this.state.onlineCount) this.update({ onlineCount: frame.count });
        return;
    }
  }

  private setTyping(key: string, userId: string, typing: boolean): void {
    const current = this.state.typing.get(key) ?? [];
    const has = current.includes(userId);
    if (has === typing) return;
    const next = typing ? [...current, userId] : current.filter((id) => id !== userId);
    const map = new Map(this.state.typing);
    if (next.length) map.set(key, next);
    else map.delete(key);
    this.update({ typing: map });
  }

  private update(patch: Partial<EphemeralState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of [...this.listeners]) listener();
  }
}
