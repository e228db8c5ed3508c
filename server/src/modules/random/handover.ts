import { RANDOM } from '@campus/protocol';
import type { Logger } from '../../lib/logger';
import { whenWritten, type Handover } from '../../realtime/handover';
import type { Session } from '../../realtime/registry';
import type { RestoredWait, Seeker } from './matchmaker';
import type { RelayedMessage, Room } from './rooms';
import type { Waiter } from './waiter';
import { lineOf, lineRecord, roomOf, roomRecord, waitOf, waitRecord } from './stored';

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
 * `state`, `r:<roomId>` per live room, `e:<roomId>` per room ended within RANDOM.postRoomActionsMs,
 * `l:<roomId>:<k>` per line a text room keeps (its last RANDOM.evidenceMessages; k counts the room's lines
 * from 1) and `w:<userId>` per wait; in `waiting`, each wait's kind (every node's counts route reads it).
 * Written on transitions (a wait begins, is matched or ends; a room opens, changes hands, reveals, ends) and
 * for each text line (the line and its room's counts, a human's typing pace), never for signalling; each
 * step's writes go out together (one round trip). A line is delivered before its write lands: if the node
 * dies in between, the line comes again (a node's replay, a device's resend) with the same numbers, which
 * the partner's device drops (relay.ts).
 */
export class StoredRandom {
  private term: Handover | undefined;
  /** Ended rooms in Redis, in the order they ended (when, and their count of lines): dropped as they expire. */
  private readonly ended = new Map<string, { at: number; lines: number }>();

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

  /**
   * A text room's line, just relayed: stored as its room's `lines()`-th, with the room's counts; the line
   * RANDOM.evidenceMessages before it is no longer kept (keepMessage), here either.
   */
  line(room: Room<Session>, line: RelayedMessage): void {
    const term = this.term;
    if (!term) return;
    const k = lines(room);
    term.set(RANDOM_STATE, `l:${room.id}:${k}`, lineRecord(line));
    if (k > RANDOM.evidenceMessages) term.del(RANDOM_STATE, `l:${room.id}:${k - RANDOM.evidenceMessages}`);
    term.set(RANDOM_STATE, `r:${room.id}`, roomRecord(room, term));
  }

  roomEnded(room: Room<Session>, now: number): void {
    const term = this.term;
    if (!term) return;
    term.del(RANDOM_STATE, `r:${room.id}`);
    this.expire(now);
    term.set(RANDOM_STATE, `e:${room.id}`, roomRecord(room, term));
    this.ended.set(room.id, { at: room.endedAt ?? now, lines: lines(room) });
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
    const lineFields: [string, string][] = [];
    for (const [field, raw] of Object.entries(fields)) {
      // Lines once their rooms are known.
      if (field.startsWith('l:')) {
        lineFields.push([field, raw]);
        continue;
      }
      const kept = this.take(field, raw, term, now, graceMs, loaded);
      if (kept === 'bad') dropped++;
      if (kept !== 'kept') term.del(RANDOM_STATE, field);
    }
    dropped += this.takeLines(lineFields, term, loaded);
    loaded.ended.sort((a, b) => a.endedAt! - b.endedAt!);
    for (const room of loaded.ended) this.ended.set(room.id, { at: room.endedAt!, lines: lines(room) });
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

  /**
   * The stored lines into their loaded rooms' `messages`, in order; a line of no loaded room, or one the
   * room no longer keeps, is deleted (counted as dropped when it does not parse). Returns the dropped.
   */
  private takeLines(fields: readonly [string, string][], term: Handover, loaded: LoadedRandom): number {
    const rooms = new Map<string, Room<Session>>();
    for (const { room } of loaded.rooms) rooms.set(room.id, room);
    for (const room of loaded.ended) rooms.set(room.id, room);
    const found = new Map<Room<Session>, [number, RelayedMessage][]>();
    let dropped = 0;
    for (const [field, raw] of fields) {
      const match = /^l:([^:]+):(\d{1,7})$/.exec(field);
      const room = match ? rooms.get(match[1]!) : undefined;
      const k = Number(match?.[2]);
      // A line its room still keeps: one of its last RANDOM.evidenceMessages.
      const kept = room !== undefined && k <= lines(room) && k > lines(room) - RANDOM.evidenceMessages;
      const line = kept ? lineOf(raw, room) : undefined;
      if (!line) {
        if (kept) dropped++;
        term.del(RANDOM_STATE, field);
        continue;
      }
      const list = found.get(room!);
      if (list) list.push([k, line]);
      else found.set(room!, [[k, line]]);
    }
    for (const [room, list] of found) {
      list.sort((a, b) => a[0] - b[0]);
      room.messages.push(...list.map(([, line]) => line));
    }
    return dropped;
  }

  /** Drops the ended rooms whose post-room actions are over (the oldest are first), their lines with them. */
  private expire(now: number): void {
    for (const [id, { at, lines: count }] of this.ended) {
      if (now - at < this.keepEndedMs) return;
      this.ended.delete(id);
      this.term?.del(RANDOM_STATE, `e:${id}`);
      for (let k = Math.max(1, count - RANDOM.evidenceMessages + 1); k <= count; k++)
        this.term?.del(RANDOM_STATE, `l:${id}:${k}`);
    }
  }
}

/** How many lines a text room has relayed: each counts once, as heard by the side it went to. */
function lines(room: Room<Session>): number {
  return room.sides[0].heard + room.sides[1].heard;
}
