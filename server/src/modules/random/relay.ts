import type { RandomServerFrame } from '@campus/protocol';
import type { RandomSessionFrame, Session } from '../../realtime/registry';
import { keepMessage, type RelayedMessage, type Room, type RoomSide } from './rooms';

/** A student's place in a live room, as a frame of theirs found it. */
export interface Seat {
  readonly room: Room<Session>;
  readonly me: RoomSide<Session>;
  readonly other: RoomSide<Session>;
}

/** Sends to the connection holding a side (or, while it is down, to every live connection of the student). */
export type Deliver = (side: RoomSide<Session>, frame: RandomServerFrame) => void;

type FrameOf<T extends RandomSessionFrame['type']> = Extract<RandomSessionFrame, { type: T }>;

/**
 * What happens within a room: text, typing and the call's two descriptions go to the partner only, never
 * beyond the room; reveal goes to both. A frame that does not fit the room's kind (text in a call, an offer
 * from the answering side) is dropped without an answer.
 */

/**
 * Text rooms: to the partner with the server's time and its number among the lines they were relayed (`i`,
 * their `heard`), kept (the last few) for a report and for a connection that takes the partner's side back
 * after a drop (resumeLines). A line numbered (`n`) at or below what this side already said is one sent again
 * (the device's resend after random-resume, a node's replay after a coordinator crash): dropped. Returns the
 * line relayed, for the store (stored.ts), or undefined.
 */
export function relayText(
  seat: Seat,
  frame: FrameOf<'chat-message'>,
  deliver: Deliver,
  at: string,
): RelayedMessage | undefined {
  const { room, me, other } = seat;
  if (room.kind !== 'chat' || frame.text.trim() === '') return undefined;
  if (frame.n !== undefined) {
    if (frame.n <= me.said) return undefined;
    me.said = frame.n;
  }
  const line = { fromUserId: me.userId, text: frame.text, at };
  keepMessage(room, line);
  other.heard += 1;
  deliver(other, lineFrame(room, line, other.heard));
  return line;
}

/**
 * The partner's lines a side's new connection lacks, when it says it has `heard` of them: those relayed after
 * its `heard`-th, as far as the room still keeps them (the last RANDOM.evidenceMessages of both sides). A drop
 * the server did not see (a socket it still took for open) loses the lines written to it; the count finds them.
 */
export function resumeLines(seat: Seat, heard: number): RandomServerFrame[] {
  const { room, me } = seat;
  const kept = room.messages.filter((line) => line.fromUserId !== me.userId);
  // The index, among all the partner's lines to this side, of the first one still kept.
  const firstKept = me.heard - kept.length;
  const from = Math.max(0, heard - firstKept);
  return kept.slice(from).map((line, k) => lineFrame(room, line, firstKept + from + k + 1));
}

/** A line as its receiver gets it: the text, the server's time, and `i`, its number among those they got. */
function lineFrame(room: Room<Session>, line: RelayedMessage, i: number): RandomServerFrame {
  return { type: 'chat-message', roomId: room.id, text: line.text, timestamp: line.at, i };
}

export function relayTyping(seat: Seat, frame: FrameOf<'random-typing'>, deliver: Deliver): void {
  if (seat.room.kind !== 'chat') return;
  deliver(seat.other, { type: 'random-typing', roomId: seat.room.id, typing: frame.typing });
}

/** The initiator's whole offer, to the other side. */
export function relayOffer(seat: Seat, frame: FrameOf<'call-user'>, deliver: Deliver): void {
  if (seat.room.kind === 'chat' || !seat.me.initiator) return;
  deliver(seat.other, { type: 'incoming-call', roomId: seat.room.id, signal: frame.signalData });
}

/** The other side's whole answer, to the initiator. */
export function relayAnswer(seat: Seat, frame: FrameOf<'answer-call'>, deliver: Deliver): void {
  if (seat.room.kind === 'chat' || seat.me.initiator) return;
  deliver(seat.other, { type: 'call-accepted', roomId: seat.room.id, signal: frame.signal });
}

/** Video rooms: each side's consent to be seen; both hear the state on every change. */
export function relayReveal(seat: Seat, frame: FrameOf<'random-reveal'>, deliver: Deliver): void {
  const { room, me, other } = seat;
  if (room.kind !== 'video' || me.revealed === frame.reveal) return;
  me.revealed = frame.reveal;
  const both = me.revealed && other.revealed;
  deliver(me, { type: 'random-reveal', roomId: room.id, partner: other.revealed, both });
  deliver(other, { type: 'random-reveal', roomId: room.id, partner: me.revealed, both });
}
