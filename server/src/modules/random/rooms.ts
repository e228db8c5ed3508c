import { RANDOM, type RandomKind, type RandomPartner } from '@campus/protocol';

/** One student of a room. `H` is what the caller reaches them through (the connection holding this side). */
export interface RoomSide<H> {
  readonly userId: string;
  /** What the partner is shown of this student. */
  readonly card: RandomPartner;
  /** Creates the call's offer (audio/video); the other answers. */
  readonly initiator: boolean;
  /** Focused talk: how many of this side's chosen groups the partner satisfies, of how many. */
  readonly matched: { satisfied: number; chosen: number } | undefined;
  /** The connection holding this side; undefined while it is down (the reconnect grace). */
  holder: H | undefined;
  /** While it is down: until when it may come back (ms), the grace's deadline. */
  graceUntil: number | undefined;
  /** Video: this side agreed to be seen unblurred. */
  revealed: boolean;
  /**
   * Text rooms: how many of the partner's lines were relayed to this side. A connection taking the side back
   * (random-resume) says how many it has, and gets the rest from the room's kept lines.
   */
  heard: number;
  /**
   * Text rooms: the highest line number (`n`) relayed from this side. A line sent again with an `n` at or
   * below it (a device's resend, a node's replay after a coordinator crash) was relayed before: dropped.
   */
  said: number;
}

/** A text room's relayed message, kept for a report and a resume (with REDIS_URL, in Redis too: stored.ts). */
export interface RelayedMessage {
  readonly fromUserId: string;
  readonly text: string;
  readonly at: string;
}

export interface Room<H> {
  readonly id: string;
  readonly kind: RandomKind;
  readonly sides: readonly [RoomSide<H>, RoomSide<H>];
  readonly startedAt: number;
  /** Audio and video: the server's deadline (ms). */
  readonly endsAt: number | undefined;
  /** Text rooms: the last RANDOM.evidenceMessages relayed messages. */
  readonly messages: RelayedMessage[];
  /** Set once the room ended. */
  endedAt: number | undefined;
}

/**
 * Who is in which room, and rooms that ended lately (their two students may still Add Friend, Block or Report
 * from the post-room screen). Each method is one atomic step, as the matchmaker's; O(1) each, but for the
 * ended rooms dropped as they expire.
 */
export interface RandomRooms<H> {
  /** False when either student is already in a live room. */
  add(room: Room<H>): boolean;
  /** A live room. */
  get(roomId: string): Room<H> | undefined;
  /** The live room `userId` is in. */
  roomOf(userId: string): Room<H> | undefined;
  /** Every live room (the coordinator steps down and ends them). */
  live(): Room<H>[];
  /** Ends the live room (it is kept for post-room actions); returns it to the first caller only. */
  finish(roomId: string, at: number): Room<H> | undefined;
  /** A live room, or one ended within RANDOM.postRoomActionsMs. */
  recent(roomId: string, now: number): Room<H> | undefined;
  /** A room that ended under the previous coordinator (handover), for its post-room actions. */
  keepEnded(room: Room<H>): void;
  clear(): void;
}

/** Appends a relayed message, keeping only the last `RANDOM.evidenceMessages`. */
export function keepMessage<H>(room: Room<H>, message: RelayedMessage): void {
  room.messages.push(message);
  if (room.messages.length > RANDOM.evidenceMessages) room.messages.shift();
}

export class InProcessRooms<H> implements RandomRooms<H> {
  private readonly byId = new Map<string, Room<H>>();
  private readonly byUser = new Map<string, Room<H>>();
  /** In the order they ended, so the expired ones are at the front. */
  private readonly ended = new Map<string, Room<H>>();

  constructor(private readonly keepEndedMs: number = RANDOM.postRoomActionsMs) {}

  add(room: Room<H>): boolean {
    const [a, b] = room.sides;
    if (this.byId.has(room.id) || this.byUser.has(a.userId) || this.byUser.has(b.userId)) return false;
    this.byId.set(room.id, room);
    this.byUser.set(a.userId, room);
    this.byUser.set(b.userId, room);
    return true;
  }

  get(roomId: string): Room<H> | undefined {
    return this.byId.get(roomId);
  }

  roomOf(userId: string): Room<H> | undefined {
    return this.byUser.get(userId);
  }

  live(): Room<H>[] {
    return [...this.byId.values()];
  }

  finish(roomId: string, at: number): Room<H> | undefined {
    const room = this.byId.get(roomId);
    if (!room) return undefined;
    this.byId.delete(roomId);
    for (const side of room.sides) if (this.byUser.get(side.userId) === room) this.byUser.delete(side.userId);
    room.endedAt = at;
    this.expire(at);
    this.ended.set(roomId, room);
    return room;
  }

  recent(roomId: string, now: number): Room<H> | undefined {
    this.expire(now);
    return this.byId.get(roomId) ?? this.ended.get(roomId);
  }

  keepEnded(room: Room<H>): void {
    this.ended.set(room.id, room);
  }

  clear(): void {
    this.byId.clear();
    this.byUser.clear();
    this.ended.clear();
  }

  private expire(now: number): void {
    for (const [id, room] of this.ended) {
      if (now - room.endedAt! < this.keepEndedMs) return;
      this.ended.delete(id);
    }
  }
}
