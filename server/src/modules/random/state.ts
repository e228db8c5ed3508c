import type { AppDeps } from '../../deps';
import type { Session } from '../../realtime/registry';
import { RANDOM_WAITING, StoredRandom } from './handover';
import { Matchmaker, type RandomQueues } from './matchmaker';
import { InProcessRooms, type RandomRooms } from './rooms';
import { InProcessStudents, type OnlineStudents } from './students';
import type { Waiter } from './waiter';
import { PersistedQueues, RedisWaiting } from './waiting';

export type { Waiter } from './waiter';

/**
 * Random talk's cross-user state, behind three small interfaces: the queues, the rooms and the online
 * students' profiles, in the memory of the node that runs random talk (with REDIS_URL, the coordinator,
 * which also keeps its queues and rooms in Redis for the next one: `stored`).
 */
export interface RandomState {
  readonly queues: RandomQueues<Waiter>;
  readonly rooms: RandomRooms<Session>;
  readonly students: OnlineStudents;
  /** REDIS_URL: every node's view of who waits (the queues themselves run on the coordinator only). */
  readonly waiting: RedisWaiting | undefined;
  /** What the coordinator writes to Redis (nothing without REDIS_URL: it never coordinates then). */
  readonly stored: StoredRandom;
}

const states = new WeakMap<AppDeps, RandomState>();

/** The server's state (one per server: the realtime handlers and the counts route share it). */
export function randomStateOf(deps: AppDeps): RandomState {
  const known = states.get(deps);
  if (known) return known;
  const { redis, config } = deps;
  // The coordinator's hash of the same name (coordinator.ts: `<prefix>:<channel>:<name>`).
  const waiting =
    redis &&
    config.redis &&
    new RedisWaiting(redis.client, `${config.redis.prefix}:random:${RANDOM_WAITING}`);
  const stored = new StoredRandom(deps.log);
  const state: RandomState = {
    queues: new PersistedQueues(new Matchmaker<Waiter>(deps.now), stored),
    rooms: new InProcessRooms<Session>(),
    students: new InProcessStudents(),
    waiting,
    stored,
  };
  states.set(deps, state);
  return state;
}
