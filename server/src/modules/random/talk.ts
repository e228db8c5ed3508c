import { randomUUID } from 'node:crypto';
import {
  EMPTY_FILTERS,
  RANDOM_MSG,
  SERVER_MSG,
  randomRestrictionMessage,
  type FocusedFilters,
  type RandomActionFrame,
  type RandomEndReason,
  type RandomKind,
  type RandomServerFrame,
  type User,
} from '@campus/protocol';
import type { AppDeps } from '../../deps';
import type { RateLimiter } from '../../lib/rate-limit';
import { Refusal } from '../../lib/refusal';
import type { Handover } from '../../realtime/handover';
import type { FrameHandlers, ParticipationCheck, RandomSessionFrame, Session } from '../../realtime/registry';
import { runAction } from './actions';
import { RANDOM_STATE, RANDOM_WAITING } from './handover';
import { blockedOf, readStudent } from './load';
import { OnlineProfiles } from './online';
import type { Match, Seeker } from './matchmaker';
import {
  relayAnswer,
  relayOffer,
  relayReveal,
  relayText,
  resumeLines,
  relayTyping,
  type Deliver,
  type Seat,
} from './relay';
import { matchFrame, roomFor } from './opening';
import type { Room, RoomSide } from './rooms';
import { randomStateOf, type RandomState, type Waiter } from './state';
import { Timers } from './timers';

export interface RandomTimings {
  /** Audio and video rooms end for both after this long (RANDOM.roomLimitSeconds). */
  roomLimitMs: number;
  /** A room's student whose connection closed has this long to be back on any connection. */
  reconnectGraceMs: number;
}

/** Queue joins per user and minute: far above anyone pressing Start, low enough to stop a script. */
export const RANDOM_JOIN_RATE = { limit: 60, windowMs: 60_000 };
/** How often waits widen and retry (focused talk widens every RANDOM.widenEveryMs). */
const TICK_MS = 1000;

const iso = (ms: number) => new Date(ms).toISOString();

function ended(kind: RandomKind, roomId: string, reason: RandomEndReason): RandomServerFrame {
  return kind === 'chat'
    ? { type: 'random-chat-ended', roomId, reason }
    : { type: 'call-ended', roomId, reason };
}

/**
 * Random and focused talk over `/ws` (issue 13): queues students who may take part (verified, profile
 * complete, not restricted), matches them (matchmaker.ts), opens a room named by an opaque id with each
 * side's public card (never a user id), relays within the room only, and ends it on a leave, the time limit
 * of calls, a block or report, a move to another device, or a connection gone past its grace. Nothing is
 * stored but what Add Friend, Block and Report write through their own modules.
 *
 * A student is in at most one wait or room across all their devices: queueing again ends the old one (the
 * device that held it hears `other_device`; the partner `left`). Room frames are accepted from any live
 * connection of the side's student, which then holds the side (coming back after a reconnect). An ending
 * sent to a wait names the wait's ticket where a room's would name the room.
 *
 * With REDIS_URL the node coordinating random talk also keeps its waits and rooms in Redis (handover.ts),
 * so the next one carries them on (`lead`) with their deadlines.
 */
export class RandomTalk {
  private readonly timers: Timers;
  private ticker: NodeJS.Timeout | undefined;
  private readonly joins: RateLimiter;
  private readonly online: OnlineProfiles;
  private closing = false;
  /** Counts the terms this node stopped coordinating: a queueing read across one is dropped. */
  private era = 0;
  /**
   * Counts each connection's Cancels: a queueing whose read a Cancel overtook is dropped. Sent right after
   * Find, the Cancel found no wait to leave and was lost, and the student was queued (and matched) after
   * they had cancelled.
   */
  private readonly cancels = new WeakMap<Session, number>();
  /** Rooms opened whose sides have not been told yet (until the room is stored: see open). */
  private readonly unannounced = new Set<Room<Session>>();

  private readonly deliver: Deliver = (side, frame) => {
    if (side.holder) side.holder.send(frame);
    else this.deps.realtime.sendToUsers([side.userId], frame);
  };

  readonly frames: FrameHandlers<RandomSessionFrame> = {
    'find-partner': (s, f) => this.queue(s, f.kind, f.filters, f.retry),
    'join-random': (s, f) => this.queue(s, 'chat', f.filters, f.retry),
    'leave-random-queue': (s) => this.leaveQueue(s),
    'leave-random-room': (s, f) => this.leaveRoom(s, f.roomId),
    'random-resume': (s, f) => this.resume(s, f.roomId, f.heard),
    'end-call': (s, f) => this.leaveRoom(s, f.roomId),
    'chat-message': (s, f) =>
      this.inRoom(s, f.roomId, (seat) => {
        const line = relayText(seat, f, this.deliver, iso(this.deps.now()));
        if (line) this.state.stored.line(seat.room, line);
      }),
    'random-typing': (s, f) => this.inRoom(s, f.roomId, (seat) => relayTyping(seat, f, this.deliver)),
    'call-user': (s, f) => this.inRoom(s, f.roomId, (seat) => relayOffer(seat, f, this.deliver)),
    'answer-call': (s, f) => this.inRoom(s, f.roomId, (seat) => relayAnswer(seat, f, this.deliver)),
    'random-reveal': (s, f) =>
      this.inRoom(s, f.roomId, (seat) => {
        const was = seat.me.revealed;
        relayReveal(seat, f, this.deliver);
        if (seat.me.revealed !== was) this.state.stored.room(seat.room);
      }),
    'random-action': (s, f) => this.action(s, f),
  };

  /** The hooks another node forwards to the coordinator (coordinated.ts), by name. */
  readonly events = {
    separated: (blockerId: string, blockedId: string) => this.separated(blockerId, blockedId),
    recheck: (userId: string) => this.recheck(userId),
  };

  /**
   * What the coordinator keeps in Redis, and the frames a node sends again after a takeover (idempotent):
   * a text line only with its number, which drops it if the old coordinator relayed it (relayText).
   */
  readonly stateKeys = [RANDOM_STATE, RANDOM_WAITING];
  readonly replayable = ['leave-random-room', 'end-call', 'random-resume', 'chat-message'];
  replays(frame: RandomSessionFrame): boolean {
    return frame.type !== 'chat-message' || frame.n !== undefined;
  }

  constructor(
    private readonly deps: AppDeps,
    private readonly participation: ParticipationCheck,
    private readonly timings: RandomTimings,
    private readonly state: RandomState = randomStateOf(deps),
  ) {
    // Per user across the nodes (deps.rates); `hitNow` decides before anything yields, as before.
    this.joins = deps.rates.limiter('random.join', RANDOM_JOIN_RATE);
    this.online = new OnlineProfiles(deps, state.students);
    this.timers = new Timers((err) => deps.log.error({ err }, 'random timer failed'));
  }

  // ---- queueing

  /**
   * The answer to a Find already taken, again, to the connection that sent it: its wait's `random-queue`
   * (once stored, as the first was) or its room's match (once announced: until then the announcement is on
   * its way). Starting over instead would reset that wait, or end that room for the partner. False when this
   * connection holds neither wait nor room of this kind: then the Find was lost, and it queues.
   */
  private answerAgain(session: Session, kind: RandomKind): boolean {
    const wait = this.state.queues.waiting(session.userId);
    if (wait?.holder.session === session && wait.kind === kind) {
      this.state.stored.afterWritten(() => this.waitFrame(wait, false));
      return true;
    }
    const room = this.state.rooms.roomOf(session.userId);
    if (!room || room.kind !== kind) return false;
    const i = room.sides.findIndex((side) => side.userId === session.userId);
    const me = room.sides[i]!;
    if (me.holder !== session) return false;
    if (!this.unannounced.has(room)) session.send(matchFrame(room, me, room.sides[1 - i]!));
    return true;
  }

  /**
   * Find. A retry (the device heard nothing back: its first may have died with a crashed coordinator) is
   * answered again when the first made it, checked before the read and after it; else it queues as a first
   * one does.
   */
  private async queue(
    session: Session,
    kind: RandomKind,
    filters: FocusedFilters = EMPTY_FILTERS,
    retry?: true,
  ) {
    const era = this.era;
    if (this.closing) return;
    if (retry && this.answerAgain(session, kind)) return;
    const { userId } = session;
    const refuse = (code: Extract<RandomServerFrame, { type: 'random-refused' }>['code'], error: string) =>
      session.send({ type: 'random-refused', code, error });
    if (this.joins.hitNow(userId) > 0) return refuse('rateLimited', SERVER_MSG.tooManyRequests);
    const cancels = this.cancels.get(session) ?? 0;
    let read;
    try {
      read = await this.deps.transactor.read(async (tx) => {
        // Random talk takes part (the access policy), read fresh: an admin's decision counts at once.
        await this.participation(tx, userId);
        const found = await readStudent(tx, userId, this.deps.config.verificationPolicy);
        return found && { ...found, blocked: await blockedOf(tx, userId) };
      });
    } catch (err) {
      if (err instanceof Refusal) return refuse('verification', RANDOM_MSG.verificationRequired);
      throw err;
    }
    // Awaited: the socket may have closed, the student cancelled, the server begun to stop, or this node
    // stopped coordinating.
    if (this.closing || era !== this.era || session.closed) return;
    if ((this.cancels.get(session) ?? 0) !== cancels) return;
    if (!read) return refuse('unavailable', RANDOM_MSG.unavailable);
    const { student, restriction, blocked } = read;
    this.online.read(student);
    if (!student.complete) return refuse('profile', RANDOM_MSG.profileIncomplete);
    if (restriction) return refuse('restricted', randomRestrictionMessage(restriction));
    // The first Find may have been taken while this one's read ran.
    if (retry && this.answerAgain(session, kind)) return;
    this.moveOn(session);
    const { seeker, match } = this.state.queues.join({
      userId,
      ticket: randomUUID(),
      kind,
      filters,
      profile: student.profile,
      blocked,
      holder: { session, card: student.card },
    });
    // A wait is acknowledged once it is stored (with REDIS_URL: a crash in between would lose a wait the
    // student was told of); one matched at once has nothing to keep, and hears of it before its room.
    if (match) {
      this.waitFrame(seeker, false);
      this.open(match);
    } else this.state.stored.afterWritten(() => this.waitFrame(seeker, false));
    this.startTicking();
  }

  /** The student starts again from `session`: a room of theirs ends, a wait on another connection too. */
  private moveOn(session: Session): void {
    const { userId } = session;
    const room = this.state.rooms.roomOf(userId);
    // The connection that moved on knows it did; another one that held the side is told why it ended.
    if (room)
      this.end(room, (side) => {
        if (side.userId !== userId) return 'left';
        return side.holder && side.holder !== session ? 'other_device' : undefined;
      });
    const wait = this.state.queues.waiting(userId);
    if (wait && wait.holder.session !== session)
      wait.holder.session.send(ended(wait.kind, wait.ticket, 'other_device'));
  }

  private leaveQueue(session: Session): void {
    this.cancels.set(session, (this.cancels.get(session) ?? 0) + 1);
    // Only the connection that queued: a stale screen elsewhere must not cancel this device's wait.
    if (this.state.queues.waiting(session.userId)?.holder.session === session)
      this.state.queues.leave(session.userId);
  }

  private waitFrame(seeker: Seeker<Waiter>, widened: boolean): void {
    const { kind, since, binding } = seeker;
    seeker.holder.session.send({ type: 'random-queue', kind, since: iso(since), binding, widened });
  }

  private startTicking(): void {
    if (this.ticker || this.closing) return;
    this.ticker = setInterval(() => this.tick(), TICK_MS);
    this.ticker.unref();
  }

  /** Widens waits and matches those whose chances changed; stops while nobody waits. */
  private tick(): void {
    if (this.state.queues.size() === 0) {
      clearInterval(this.ticker);
      this.ticker = undefined;
      return;
    }
    try {
      const { matches, widened } = this.state.queues.tick();
      for (const seeker of widened) this.waitFrame(seeker, true);
      for (const match of matches) this.open(match);
    } catch (err) {
      this.deps.log.error({ err }, 'random matchmaking failed');
    }
  }

  // ---- rooms

  private open(match: Match<Waiter>): void {
    const room = roomFor(match, randomUUID(), this.deps.now(), this.timings.roomLimitMs);
    if (!this.state.rooms.add(room)) return this.deps.log.warn({ kind: room.kind }, 'random room not opened');
    this.state.stored.room(room);
    // The sides hear of the room once it is stored (with REDIS_URL), as a wait is acknowledged: a crash of
    // this node in between must not leave two students told of a room the next coordinator never heard
    // of (before the write it finds their waits instead, and matches them again).
    this.unannounced.add(room);
    this.state.stored.afterWritten(() => this.announce(room));
    this.limit(room);
  }

  /** Tells both sides of their match, once: when the room is stored, or when it ends before that. */
  private announce(room: Room<Session>): void {
    if (!this.unannounced.delete(room)) return;
    const [a, b] = room.sides;
    this.deliver(a, matchFrame(room, a, b));
    this.deliver(b, matchFrame(room, b, a));
  }

  /** Audio and video rooms end at the server's deadline. */
  private limit(room: Room<Session>): void {
    if (room.endsAt === undefined) return;
    this.timers.set(`limit:${room.id}`, Math.max(0, room.endsAt - this.deps.now()), () => {
      const live = this.state.rooms.get(room.id);
      if (live) this.end(live, () => 'time_limit');
    });
  }

  /** A side whose connection is down ends the room for the partner at its grace's deadline. */
  private grace(room: Room<Session>, side: RoomSide<Session>, until: number): void {
    side.graceUntil = until;
    this.timers.set(`grace:${room.id}:${side.userId}`, Math.max(0, until - this.deps.now()), () => {
      const live = this.state.rooms.get(room.id);
      // Reconnected but never took the room back (a reload, a screen that gave up on it): it ends too.
      if (!live || side.holder) return;
      this.end(live, (s) => (s.userId === side.userId ? undefined : 'disconnected'));
    });
  }

  /** The student's side of a live room, held from now on by `session` (it may be a new connection). */
  private seat(session: Session, roomId: string): Seat | undefined {
    const room = this.state.rooms.get(roomId);
    const i = room ? room.sides.findIndex((s) => s.userId === session.userId) : -1;
    if (!room || i < 0) return undefined;
    const me = room.sides[i]!;
    if (me.holder !== session) {
      me.holder = session;
      me.graceUntil = undefined;
      this.timers.clear(`grace:${room.id}:${me.userId}`);
      this.state.stored.room(room);
    }
    return { room, me, other: room.sides[1 - i]! };
  }

  /**
   * A connection takes its student's side back after a drop (random-resume): `random-resumed`, then the
   * partner's lines it lacks (resumeLines). A room that is not live for this student (its grace ran out, it
   * ended meanwhile, or it was never theirs) is answered as ended, `disconnected`; a room id the student never
   * had gets the text room's end, as an unknown one does, so it tells a stranger nothing. `said` tells the
   * device which of its own lines to send again (those the drop lost). With REDIS_URL the lines and both
   * counts are in Redis too, so a coordinator that took over after a crash answers the same (stored.ts).
   */
  private resume(session: Session, roomId: string, heard: number): void {
    const seat = this.seat(session, roomId);
    if (seat) {
      session.send({ type: 'random-resumed', roomId, said: seat.me.said });
      for (const frame of resumeLines(seat, heard)) session.send(frame);
      return;
    }
    const recent = this.state.rooms.recent(roomId, this.deps.now());
    const theirs = recent?.sides.some((side) => side.userId === session.userId);
    session.send(ended(theirs ? recent!.kind : 'chat', roomId, 'disconnected'));
  }

  private inRoom(session: Session, roomId: string, fn: (seat: Seat) => void): void {
    const seat = this.seat(session, roomId);
    if (seat) fn(seat);
  }

  private leaveRoom(session: Session, roomId: string): void {
    const seat = this.seat(session, roomId);
    if (seat) this.end(seat.room, (side) => (side === seat.me ? 'you_left' : 'left'));
  }

  /** Ends the room once (false when another path ended it first), clears its timers, tells each side. */
  private end(room: Room<Session>, reasonFor: (side: RoomSide<Session>) => RandomEndReason | undefined) {
    const now = this.deps.now();
    if (!this.state.rooms.finish(room.id, now)) return false;
    // Its sides hear of the room before they hear it ended.
    this.announce(room);
    this.state.stored.roomEnded(room, now);
    this.timers.clear(`limit:${room.id}`);
    for (const side of room.sides) this.timers.clear(`grace:${room.id}:${side.userId}`);
    for (const side of room.sides) {
      const reason = reasonFor(side);
      if (reason) this.deliver(side, ended(room.kind, room.id, reason));
    }
    return true;
  }

  // ---- after (or during) a room

  private async action(session: Session, frame: RandomActionFrame): Promise<void> {
    const { roomId, action } = frame;
    const answer = (ok: boolean, message: string) =>
      session.send({ type: 'random-action-result', roomId, action, ok, message });
    const room = this.state.rooms.recent(roomId, this.deps.now());
    const i = room ? room.sides.findIndex((s) => s.userId === session.userId) : -1;
    if (!room || i < 0) return answer(false, RANDOM_MSG.roomGone);
    const me = room.sides[i]!;
    const partner = room.sides[1 - i]!;
    const outcome = await runAction(this.deps, this.participation, room, me.userId, partner.userId, frame);
    if (outcome.separated) this.separated(me.userId, partner.userId);
    // A report may have set the partner's automatic hold: their other wait or room ends with it.
    if (outcome.ok && action === 'report') this.recheck(partner.userId);
    // A report or block ends the room it was made in, if it is still going.
    const live = outcome.ok && action !== 'add-friend' ? this.state.rooms.get(roomId) : undefined;
    if (live) this.end(live, (side) => (side.userId === me.userId ? 'you_left' : 'left'));
    if (!session.closed) answer(outcome.ok, outcome.message);
  }

  // ---- the engine's hooks

  /** A block between the two committed: never matched, and a room between them ends (the blocker left it). */
  separated(blockerId: string, blockedId: string): void {
    this.state.queues.separate(blockerId, blockedId);
    const room = this.state.rooms.roomOf(blockerId);
    if (room?.sides.some((s) => s.userId === blockedId))
      this.end(room, (side) => (side.userId === blockerId ? 'you_left' : 'left'));
  }

  /** A connection signed in: the student's profile joins the online cache (counts). */
  connected(userId: string): void {
    this.online.connected(userId);
  }

  /** The student's profile or status changed (`me_updated`). */
  profileChanged(user: User): void {
    this.online.changed(user);
  }

  /**
   * What the student may do may have changed (a verification decision, a report's hold, a moderator's
   * suspension): read fresh, and if random talk is closed to them now, their wait and room end at once
   * ('restricted' to them, 'left' to the partner), not only their next try.
   */
  recheck(userId: string): void {
    this.recheckNow(userId).catch((err: unknown) => this.deps.log.error({ err }, 'random recheck failed'));
  }

  private async recheckNow(userId: string): Promise<void> {
    if (this.closing || (!this.state.rooms.roomOf(userId) && !this.state.queues.waiting(userId))) return;
    const allowed = await this.deps.transactor.read(async (tx) => {
      try {
        await this.participation(tx, userId);
      } catch (err) {
        if (err instanceof Refusal) return false;
        throw err;
      }
      const found = await readStudent(tx, userId, this.deps.config.verificationPolicy);
      return !!found && found.student.complete && !found.restriction;
    });
    if (allowed || this.closing) return;
    const wait = this.state.queues.waiting(userId);
    if (wait) {
      this.state.queues.leave(userId);
      wait.holder.session.send(ended(wait.kind, wait.ticket, 'restricted'));
    }
    const room = this.state.rooms.roomOf(userId);
    if (room) this.end(room, (side) => (side.userId === userId ? 'restricted' : 'left'));
  }

  /**
   * A connection closed: its wait ends at once; a room side it held has the grace period to be back on any
   * connection of the student, else the room ends as disconnected for the partner.
   */
  closed(session: Session): void {
    const { userId } = session;
    this.leaveQueue(session);
    const online = this.deps.realtime.isOnline(userId);
    const room = this.state.rooms.roomOf(userId);
    const side = room?.sides.find((s) => s.userId === userId);
    if (room && side) {
      const key = `grace:${room.id}:${userId}`;
      // The holder closed, or the last connection that could have taken the side over did.
      if (side.holder === session || (side.holder === undefined && !online && !this.timers.has(key))) {
        side.holder = undefined;
        this.grace(room, side, this.deps.now() + this.timings.reconnectGraceMs);
        this.state.stored.room(room);
      }
    }
    this.online.closed(userId);
  }

  /**
   * This node coordinates random talk from now on (REDIS_URL): it takes the previous coordinator's waits
   * and rooms over, with their connections and timers (a deadline passed meanwhile ends a room at once).
   */
  async lead(term: Handover): Promise<void> {
    const { stored, rooms, queues } = this.state;
    stored.begin(term);
    const loaded = await stored.load(term, this.deps.now(), this.timings.reconnectGraceMs);
    if (!stored.current(term) || this.closing) return;
    for (const room of loaded.ended) rooms.keepEnded(room);
    for (const { room, moved } of loaded.rooms) {
      if (!rooms.add(room)) {
        this.deps.log.warn({ kind: room.kind }, 'random talk: a stored room clashes with another');
        continue;
      }
      if (moved) stored.room(room);
      this.limit(room);
      for (const side of room.sides)
        if (side.graceUntil !== undefined) this.grace(room, side, side.graceUntil);
    }
    for (const wait of loaded.waits) queues.restore(wait);
    if (queues.size()) this.startTicking();
  }

  /** A connection closed on a node that does not coordinate: only this node's cache of profiles follows. */
  offline(userId: string): void {
    this.online.closed(userId);
  }

  /**
   * This node stops coordinating random talk while other nodes go on (issue 14: its lease lapsed, or it
   * hands over as it stops): it forgets its waits and rooms without ending any; they are in Redis, and the
   * next coordinator carries them on.
   */
  stepDown(): void {
    this.era++;
    this.state.stored.end();
    clearInterval(this.ticker);
    this.ticker = undefined;
    this.timers.clearAll();
    this.state.queues.clear();
    this.state.rooms.clear();
  }

  /** The server is stopping: no timer outlives it, nobody waits, no room stays. */
  close(): void {
    this.closing = true;
    clearInterval(this.ticker);
    this.ticker = undefined;
    this.timers.clearAll();
    this.state.queues.clear();
    this.state.rooms.clear();
    this.online.stop();
  }
}
