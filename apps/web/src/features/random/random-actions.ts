import type { RandomActionFrame, RandomClientFrame, RandomServerFrame } from '@campus/protocol';
import { RANDOM_TEXT } from './random-state';

/** What a post-room action carries besides the room: a report's reason, note and whether to block too. */
export type ActionInput =
  | { action: 'add-friend' | 'block' }
  | {
      action: 'report';
      reason: NonNullable<RandomActionFrame['reason']>;
      note?: string;
      block: boolean;
    };

type ActionResultFrame = Extract<RandomServerFrame, { type: 'random-action-result' }>;

interface Waiter {
  roomId: string;
  resolve(message: string): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** How long an action waits for the server's answer before saying there was none. */
export const ACTION_TIMEOUT_MS = 10_000;

/**
 * Add Friend, Block and Report over /ws (`random-action`), each answered by `random-action-result`: the
 * promise resolves with the server's message when it did it, rejects with it when it did not. The room
 * names the partner; the partner's id never reaches this device.
 */
export class RandomActions {
  private readonly waiters = new Map<RandomActionFrame['action'], Waiter>();

  constructor(
    private readonly send: (frame: RandomClientFrame) => boolean,
    private readonly show: (result: { ok: boolean; message: string }) => void,
  ) {}

  act(roomId: string | null, input: ActionInput): Promise<string> {
    if (!roomId) return Promise.reject(new Error(RANDOM_TEXT.noAnswer));
    const frame: RandomActionFrame =
      input.action === 'report'
        ? {
            type: 'random-action',
            roomId,
            action: 'report',
            reason: input.reason,
            ...(input.note?.trim() ? { note: input.note.trim() } : {}),
            block: input.block,
          }
        : { type: 'random-action', roomId, action: input.action, block: input.action === 'block' };
    if (!this.send(frame)) return Promise.reject(new Error(RANDOM_TEXT.actionOffline));
    this.settle(input.action, new Error(RANDOM_TEXT.noAnswer));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(input.action);
        reject(new Error(RANDOM_TEXT.noAnswer));
      }, ACTION_TIMEOUT_MS);
      this.waiters.set(input.action, { roomId, resolve, reject, timer });
    });
  }

  result(frame: ActionResultFrame): void {
    const waiter = this.waiters.get(frame.action);
    if (!waiter || waiter.roomId !== frame.roomId) return;
    this.show({ ok: frame.ok, message: frame.message });
    if (frame.ok) this.settle(frame.action, null, frame.message);
    else this.settle(frame.action, new Error(frame.message));
  }

  /** The server refused the action frame itself (not answered with a result): every waiter hears why. */
  refused(error: string): void {
    this.show({ ok: false, message: error });
    for (const action of [...this.waiters.keys()]) this.settle(action, new Error(error));
  }

  /** The screen went away: nobody waits for answers any more. */
  dispose(): void {
    for (const waiter of this.waiters.values()) clearTimeout(waiter.timer);
    this.waiters.clear();
  }

  private settle(action: RandomActionFrame['action'], error: Error | null, message = ''): void {
    const waiter = this.waiters.get(action);
    if (!waiter) return;
    this.waiters.delete(action);
    clearTimeout(waiter.timer);
    if (error) waiter.reject(error);
    else waiter.resolve(message);
  }
}
