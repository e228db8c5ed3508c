import { z } from 'zod';
import {
  COUNTRY_OPTIONS,
  branchSchema,
  focusedFiltersSchema,
  interestSchema,
  randomKindSchema,
  skillLevelSchema,
  INTEREST_OPTIONS,
} from '@campus/protocol';
import { parseStored, sessionRefSchema, type Handover } from '../../realtime/handover';
import type { Session } from '../../realtime/registry';
import type { RestoredWait, Seeker } from './matchmaker';
import type { RelayedMessage, Room, RoomSide } from './rooms';
import type { Waiter } from './waiter';

/**
 * Random talk's rooms and waits as the coordinator keeps them in Redis for the next one (coordinator.ts,
 * `Handover`), read back strictly: a record that does not parse, or whose parts contradict each other, is
 * dropped. Kept: what the room and queue logic needs (both students of a room, its kind, times, each
 * side's card as the partner was already shown it, initiator, reveal and holding connection), and a text
 * room's last lines with each side's counts (relay.ts), so that after a takeover a side taken back gets the
 * lines it lacks, a line sent again is still known, and a report still carries what was said.
 */
const ms = z.number().int().min(0).max(8.64e15);
const userId = z.string().min(1).max(64);
const count = z.number().int().min(0).max(1_000_000);

/** The partner's card: never a picture (its URL is keyed by the user id: students.ts). */
const cardSchema = z.strictObject({
  firstName: z.string().max(200),
  profilePictureUrl: z.null(),
  college: z.string().max(200).nullable(),
  course: z.string().max(200).nullable(),
});

const sideSchema = z.strictObject({
  userId,
  card: cardSchema,
  initiator: z.boolean(),
  matched: z
    .strictObject({ satisfied: z.number().int().min(0).max(5), chosen: z.number().int().min(1).max(5) })
    .nullable(),
  revealed: z.boolean(),
  holder: sessionRefSchema.nullable(),
  graceUntil: ms.nullable(),
  // Text rooms' counts (relay.ts); absent in a record from before them: 0.
  heard: count.optional(),
  said: count.optional(),
});

const roomSchema = z
  .strictObject({
    id: z.uuid(),
    kind: randomKindSchema,
    startedAt: ms,
    endsAt: ms.nullable(),
    endedAt: ms.nullable(),
    sides: z.tuple([sideSchema, sideSchema]),
  })
  .refine(({ sides: [a, b] }) => a.userId !== b.userId && a.initiator !== b.initiator)
  .refine((room) => (room.kind === 'chat') === (room.endsAt === null));

const profileSchema = z.strictObject({
  userId,
  college: z.string().max(200).nullable(),
  country: z.enum(COUNTRY_OPTIONS).nullable(),
  skillLevel: skillLevelSchema.nullable(),
  branch: branchSchema.nullable(),
  interests: z.array(interestSchema).max(INTEREST_OPTIONS.length),
});

const waitSchema = z
  .strictObject({
    userId,
    ticket: z.uuid(),
    kind: randomKindSchema,
    since: ms,
    arrival: z.number().int().min(0),
    filters: focusedFiltersSchema,
    profile: profileSchema,
    blocked: z.array(userId).max(100_000),
    holder: sessionRefSchema,
    card: cardSchema,
  })
  .refine((w) => w.profile.userId === w.userId && !w.blocked.includes(w.userId));

/** What a wait is stored as, as it is in memory. */
type WaitFields = Pick<
  Seeker<Waiter>,
  'userId' | 'ticket' | 'kind' | 'since' | 'arrival' | 'filters' | 'profile'
>;

function waitFields(wait: WaitFields): WaitFields {
  const { userId, ticket, kind, since, arrival, filters, profile } = wait;
  return { userId, ticket, kind, since, arrival, filters, profile };
}

/** A live room (with its connections) or an ended one (without: nobody holds it any more). */
export function roomRecord(room: Room<Session>, handover: Handover): string {
  const ended = room.endedAt !== undefined;
  return JSON.stringify({
    id: room.id,
    kind: room.kind,
    startedAt: room.startedAt,
    endsAt: room.endsAt ?? null,
    endedAt: room.endedAt ?? null,
    sides: room.sides.map((side: RoomSide<Session>) => ({
      userId: side.userId,
      card: side.card,
      initiator: side.initiator,
      matched: side.matched ?? null,
      revealed: side.revealed,
      holder: side.holder && !ended ? handover.ref(side.holder) : null,
      graceUntil: ended ? null : (side.graceUntil ?? null),
      heard: side.heard,
      said: side.said,
    })),
  });
}

/** A text room's line as stored (`l:<roomId>:<k>`, k its number in the room): who said it, what and when. */
const lineSchema = z.strictObject({
  from: userId,
  text: z.string().min(1).max(1000),
  at: z.string().max(40),
});

export function lineRecord(line: RelayedMessage): string {
  return JSON.stringify({ from: line.fromUserId, text: line.text, at: line.at });
}

/** A stored line of `room`, if it parses and names one of its two students. */
export function lineOf(raw: string, room: Room<Session>): RelayedMessage | undefined {
  const stored = parseStored(lineSchema, raw);
  if (!stored || !room.sides.some((side) => side.userId === stored.from)) return undefined;
  return { fromUserId: stored.from, text: stored.text, at: stored.at };
}

/**
 * A stored room, its sides' connections found again. A live room's side whose connection is gone (this
 * node's, closed; or a node that stopped with it) gets the grace period from now (`moved`: write it back).
 */
export function roomOf(
  raw: string,
  handover: Handover,
  now: number,
  graceMs: number,
): { room: Room<Session>; moved: boolean } | undefined {
  const stored = parseStored(roomSchema, raw);
  if (!stored) return undefined;
  let moved = false;
  const side = (s: (typeof stored.sides)[number]): RoomSide<Session> => {
    const holder = s.holder && !stored.endedAt ? handover.session(s.holder, s.userId) : undefined;
    let graceUntil = s.graceUntil ?? undefined;
    if (!holder && graceUntil === undefined && stored.endedAt === null) {
      graceUntil = now + graceMs;
      moved = true;
    }
    return {
      ...s,
      matched: s.matched ?? undefined,
      holder,
      graceUntil,
      heard: s.heard ?? 0,
      said: s.said ?? 0,
    };
  };
  const room: Room<Session> = {
    id: stored.id,
    kind: stored.kind,
    startedAt: stored.startedAt,
    endsAt: stored.endsAt ?? undefined,
    endedAt: stored.endedAt ?? undefined,
    sides: [side(stored.sides[0]), side(stored.sides[1])],
    messages: [],
  };
  return { room, moved };
}

export function waitRecord(seeker: Seeker<Waiter>, handover: Handover): string {
  const { blocked, holder } = seeker;
  return JSON.stringify({
    ...waitFields(seeker),
    blocked: [...blocked],
    holder: handover.ref(holder.session),
    card: holder.card,
  });
}

/** A stored wait, if its connection is still there (a wait ends with the connection that queued). */
export function waitOf(raw: string, handover: Handover): RestoredWait<Waiter> | 'gone' | undefined {
  const stored = parseStored(waitSchema, raw);
  if (!stored) return undefined;
  const session = handover.session(stored.holder, stored.userId);
  if (!session) return 'gone';
  return { ...waitFields(stored), blocked: new Set(stored.blocked), holder: { session, card: stored.card } };
}
