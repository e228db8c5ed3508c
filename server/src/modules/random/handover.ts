import { RANDOM } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import { whenWritten, type Handover } from '../../realtime/handover';
import type { Session } from '../../realtime/registry';
import type { RestoredWait, Seeker } from './matchmaker';
import type { Room } from './rooms';
import type { Waiter } from './waiter';
import { roomOf, roomRecord, waitOf, waitRecord } from './stored';

/** Random talk's hashes in Redis (coordinator.ts): its state, and who waits in which queue (the counts). */
export const RANDOM_STATE = 'state';
export const RANDOM_WAITING = 'waiting';

export interface LoadedRandom {
  /** Live rooms; `moved`: changed as they loaded (a side's connection is gone), to be written back. */
  rooms: { room: Room<Session>; moved: boolean }[];
  /** Rooms ended lately, oldest first (their post-room actions). */
  ended: Room<Session>[];
  waits: RestoredWait<Waiter>[];
}

/**
 * Random talk's state in Redis while this node coordinates it (issue 14), for the node after it: in
 * `state`, `r:<roomId>` per live room, `e:<roomId>` per room ended within RANDOM.postRoomActionsMs and
 * `w:<userId>` per wait; in `waiting`, each wait's kind (every node's counts route reads it). Written on
 * transitions only (a wait begins, is matched or ends; a room opens, changes hands, reveals, ends), never
 * for relayed text or signalling; each step's writes go out together (one round trip).
 */
export class StoredRandom {
  private term: Handover | undefined;
  /** Ended rooms in Redis, in the order they ended: each is dropped there once it expires. */
  private readonly ended = new Map<string, number>();

  constructor(
    private readonly log: Logger,
    private readonly keepEndedMs: number = RANDOM.postRoomActionsMs,
  ) {}

  begin(term: Handover): void {
    this.term = term;
  }

  end(): void {
    this.term = undefined;
    this.ended.clear();
  }

  current(term: Handover): boolean {
    return this.term === term;
  }

  room(room: Room<Session>): void {
    const term = this.term;
    term?.set(RANDOM_STATE, `r:${room.id}`, roomRecord(room, term));
  }

  roomEnded(room: Room<Session>, now: number): void {
    const term = this.term;
    if (!term) return;
    term.del(RANDOM_STATE, `r:${room.id}`);
    this.expire(now);
    term.set(RANDOM_STATE, `e:${room.id}`, roomRecord(room, term));
    this.ended.set(room.id, room.endedAt ?? now);
  }

  wait(seeker: Seeker<Waiter>): void {
    const term = this.term;
    term?.set(RANDOM_STATE, `w:${seeker.userId}`, waitRecord(seeker, term));
    term?.set(RANDOM_WAITING, seeker.userId, seeker.kind);
  }

  /**
   * Runs `fn` once what was stored so far is in Redis (at once without a term: one node, no Redis). A
   * student is told they wait only then: a crash of this node in between would lose an acknowledged wait.
   */
  afterWritten(fn: () => void): void {
    whenWritten(this.term, fn);
  }

  waitGone(userId: string): void {
    this.term?.del(RANDOM_STATE, `w:${userId}`);
    this.term?.del(RANDOM_WAITING, userId);
  }

  /**
   * What the previous coordinator left. Waits whose connection is gone end (as they would have with it),
   * rooms expired or unreadable go, and the waiting list is written again from the waits kept.
   */
  async load(term: Handover, now: number, graceMs: number): Promise<LoadedRandom> {
    const fields = await term.read(RANDOM_STATE);
    const loaded: LoadedRandom = { rooms: [], ended: [], waits: [] };
    let dropped = 0;
    for (const [field, raw] of Object.entries(fields)) {
      const kept = this.take(field, raw, term, now, graceMs, loaded);
      if (kept === 'bad') dropped++;
      if (kept !== 'kept') term.del(RANDOM_STATE, field);
    }
    loaded.ended.sort((a, b) => a.endedAt! - b.endedAt!);
    for (const room of loaded.ended) this.ended.set(room.id, room.endedAt!);
    term.clear(RANDOM_WAITING);
    for (const wait of loaded.waits) term.set(RANDOM_WAITING, wait.userId, wait.kind);
    if (dropped) this.log.warn({ dropped }, 'random talk: stored records that did not parse were dropped');
    return loaded;
  }

  /** One stored field into `loaded`: kept, gone (its time or its connection passed) or bad. */
  private take(
    field: string,
    raw: string,
    term: Handover,
    now: number,
    graceMs: number,
    loaded: LoadedRandom,
  ): 'kept' | 'gone' | 'bad' {
    const [kind, id] = [field.slice(0, 2), field.slice(2)];
    if (kind === 'w:') {
      const wait = waitOf(raw, term);
      if (wait === 'gone') return 'gone';
      if (!wait || wait.userId !== id) return 'bad';
      loaded.waits.push(wait);
      return 'kept';
    }
    const found = kind === 'r:' || kind === 'e:' ? roomOf(raw, term, now, graceMs) : undefined;
    if (!found || found.room.id !== id || (kind === 'e:') !== (found.room.endedAt !== undefined))
      return 'bad';
    if (kind === 'r:') loaded.rooms.push(found);
    else if (now - found.room.endedAt! < this.keepEndedMs) loaded.ended.push(found.room);
    else return 'gone';
    return 'kept';
  }

  /** Drops the ended rooms whose post-room actions are over (the oldest are first). */
  private expire(now: number): void {
    for (const [id, endedAt] of this.ended) {
      if (now - endedAt < this.keepEndedMs) return;
      this.ended.delete(id);
      this.term?.del(RANDOM_STATE, `e:${id}`);
    }
  }
}
