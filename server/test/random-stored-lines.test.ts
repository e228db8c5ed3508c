import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RANDOM, type RandomPartner } from '@campus/protocol';
import { createLogger } from '../src/lib/logger';
import { RANDOM_STATE, StoredRandom } from '../src/modules/random/handover';
import { keepMessage, type Room, type RoomSide } from '../src/modules/random/rooms';
import type { Handover, SessionRef } from '../src/realtime/handover';
import type { Session } from '../src/realtime/registry';

/**
 * A text room's lines and counts in Redis (modules/random/handover.ts): written with each relayed line, read
 * back strictly by the next coordinator, and the ones a room no longer keeps deleted. An in-memory Handover
 * stands in for Redis (the Redis path itself: redis-handover-crash.test.ts).
 */
const card: RandomPartner = { firstName: 'Ann', profilePictureUrl: null, college: null, course: null };

function session(userId: string): Session {
  return {
    userId,
    closed: false,
    send: () => undefined,
    joinAudience: () => undefined,
    hasAudience: () => false,
    isContact: () => false,
    openChat: () => undefined,
  };
}

/** One Redis hash per state key, written at once (a term's writes, without the batching). */
class MemoryHandover implements Handover {
  readonly hashes = new Map<string, Map<string, string>>();
  private readonly sessions = new Map<string, Session>();

  hash(name: string): Map<string, string> {
    let hash = this.hashes.get(name);
    if (!hash) this.hashes.set(name, (hash = new Map()));
    return hash;
  }
  read(name: string): Promise<Record<string, string>> {
    return Promise.resolve(Object.fromEntries(this.hash(name)));
  }
  set(name: string, field: string, value: string): void {
    this.hash(name).set(field, value);
  }
  del(name: string, field: string): void {
    this.hash(name).delete(field);
  }
  clear(name: string): void {
    this.hash(name).clear();
  }
  written(): Promise<void> {
    return Promise.resolve();
  }
  ref(s: Session): SessionRef {
    this.sessions.set(s.userId, s);
    return { node: 'n1', conn: String([...this.sessions.keys()].indexOf(s.userId) + 1) };
  }
  session(_ref: SessionRef, userId: string): Session | undefined {
    return this.sessions.get(userId);
  }
}

function side(userId: string, initiator: boolean): RoomSide<Session> {
  return {
    userId,
    card,
    initiator,
    matched: undefined,
    holder: session(userId),
    graceUntil: undefined,
    revealed: false,
    heard: 0,
    said: 0,
  };
}

function textRoom(): Room<Session> {
  return {
    id: randomUUID(),
    kind: 'chat',
    sides: [side('u-ann', true), side('u-bob', false)],
    startedAt: Date.now(),
    endsAt: undefined,
    messages: [],
    endedAt: undefined,
  };
}

/** As relay.ts relays a numbered line from side `from`, and talk.ts stores it. */
function say(stored: StoredRandom, room: Room<Session>, from: 0 | 1, text: string): void {
  const [me, other] = [room.sides[from], room.sides[1 - from]!];
  me.said += 1;
  other.heard += 1;
  const line = { fromUserId: me.userId, text, at: new Date().toISOString() };
  keepMessage(room, line);
  stored.line(room, line);
}

const log = createLogger('silent');

/** A coordinator's store on a fresh Redis stand-in, with one live text room stored in it. */
function storedTextRoom(postRoomMs?: number) {
  const redis = new MemoryHandover();
  const stored = new StoredRandom(log, postRoomMs);
  stored.begin(redis);
  const room = textRoom();
  stored.room(room);
  return { redis, stored, room };
}

describe('random rooms’ lines in Redis', () => {
  it('the next coordinator gets a room’s last lines in order and both counts; older lines are deleted as they go', async () => {
    const { redis, stored: before, room } = storedTextRoom();
    const n = RANDOM.evidenceMessages + 3;
    for (let k = 1; k <= n; k++) say(before, room, k % 3 === 0 ? 1 : 0, `line ${k}`);
    const lineFields = [...redis.hash(RANDOM_STATE).keys()].filter((f) => f.startsWith('l:'));
    expect(lineFields).toHaveLength(RANDOM.evidenceMessages);

    const after = new StoredRandom(log);
    after.begin(redis);
    const loaded = await after.load(redis, Date.now(), 5000);
    const back = loaded.rooms[0]!.room;
    expect(back.messages).toEqual(room.messages);
    expect(back.messages[0]!.text).toBe('line 4');
    expect(back.sides.map((s) => [s.heard, s.said])).toEqual(room.sides.map((s) => [s.heard, s.said]));
  });

  it('drops a line that does not parse, names neither student, is past what its room keeps or has no room', async () => {
    const { redis, stored: before, room } = storedTextRoom();
    say(before, room, 0, 'hi');
    say(before, room, 1, 'hello');
    const state = redis.hash(RANDOM_STATE);
    const at = new Date().toISOString();
    state.set(`l:${room.id}:2`, JSON.stringify({ from: 'u-eve', text: 'not in the room', at }));
    state.set(`l:${room.id}:3`, JSON.stringify({ from: 'u-ann', text: 'ahead of the counts', at }));
    state.set(`l:${room.id}:x`, JSON.stringify({ from: 'u-ann', text: 'no number', at }));
    state.set(`l:${randomUUID()}:1`, JSON.stringify({ from: 'u-ann', text: 'no such room', at }));
    state.set(`l:${room.id}:1:1`, JSON.stringify({ from: 'u-ann', text: 'bad field', at }));

    const after = new StoredRandom(log);
    after.begin(redis);
    const loaded = await after.load(redis, Date.now(), 5000);
    expect(loaded.rooms[0]!.room.messages.map((m) => m.text)).toEqual(['hi']);
    expect([...state.keys()].filter((f) => f.startsWith('l:'))).toEqual([`l:${room.id}:1`]);
  });

  it('an ended room keeps its lines for a report, and they go with it once its post-room time is over', async () => {
    const { redis, stored, room } = storedTextRoom(1000);
    say(stored, room, 0, 'rude words');
    const endedAt = Date.now();
    room.endedAt = endedAt;
    stored.roomEnded(room, endedAt);
    const loaded = await new StoredRandom(log, 1000).load(redis, endedAt + 10, 5000);
    expect(loaded.ended[0]!.messages.map((m) => m.text)).toEqual(['rude words']);
    // The next room's end expires this one: its record and its lines are deleted.
    const next = textRoom();
    next.endedAt = endedAt + 2000;
    stored.roomEnded(next, endedAt + 2000);
    expect([...redis.hash(RANDOM_STATE).keys()].filter((f) => f.includes(room.id))).toEqual([]);
  });
});
