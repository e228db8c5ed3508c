import type { RandomServerFrame } from '@campus/protocol';
import type { Session } from '../../realtime/registry';
import { scoreOf } from './match-profile';
import type { Match, Seeker } from './matchmaker';
import type { Room, RoomSide } from './rooms';
import type { Waiter } from './state';

/**
 * The room a match opens: each side held by the connection that queued, with its card; the student who
 * waited longer initiates the call; audio and video rooms get the server's deadline.
 */
export function roomFor(match: Match<Waiter>, id: string, now: number, limitMs: number): Room<Session> {
  const sideOf = (s: Seeker<Waiter>, partner: Seeker<Waiter>, initiator: boolean): RoomSide<Session> => ({
    userId: s.userId,
    card: s.holder.card,
    initiator,
    matched: s.chosen > 0 ? { satisfied: scoreOf(s.filters, partner.profile), chosen: s.chosen } : undefined,
    holder: s.holder.session,
    graceUntil: undefined,
    revealed: false,
    heard: 0,
    said: 0,
  });
  const { kind, first, second } = match;
  return {
    id,
    kind,
    sides: [sideOf(first, second, true), sideOf(second, first, false)],
    startedAt: now,
    endsAt: kind === 'chat' ? undefined : now + limitMs,
    messages: [],
    endedAt: undefined,
  };
}

/** What one side is told of its match: the partner's card, never their id. */
export function matchFrame(room: Room<Session>, me: RoomSide<Session>, partner: RoomSide<Session>) {
  const matched = me.matched ? { matched: me.matched } : {};
  const frame: RandomServerFrame =
    room.endsAt === undefined
      ? { type: 'random-matched', roomId: room.id, partner: partner.card, ...matched }
      : {
          type: 'partner-found',
          roomId: room.id,
          kind: room.kind === 'video' ? 'video' : 'audio',
          isInitiator: me.initiator,
          partner: partner.card,
          endsAt: new Date(room.endsAt).toISOString(),
          ...matched,
        };
  return frame;
}
