import type { RandomPartner } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import type { Session } from '../../realtime/registry';
import { Matchmaker, type RandomQueues } from './matchmaker';
import { InProcessRooms, type RandomRooms } from './rooms';
import { InProcessStudents, type OnlineStudents } from './students';
import { MirroredQueues, RedisWaiting } from './waiting';

/** What a wait holds besides the matchmaker's data: the connection that queued, and the student's card. */
export interface Waiter {
  readonly session: Session;
  readonly card: RandomPartner;
}

/**
 * Random talk's cross-user state, behind three small interfaces: the queues, the rooms and the online
 * students' profiles. In one process today; issue 14 moves them to Redis (and names connections by node
 * and id instead of holding `Session`s), leaving the module's logic as it is.
 */
export interface RandomState {
  readonly queues: RandomQueues<Waiter>;
  readonly rooms: RandomRooms<Session>;
  readonly students: OnlineStudents;
  /** REDIS_URL: every node's view of who waits (the queues themselves run on the coordinator only). */
  readonly waiting: RedisWaiting | undefined;
}

const states = new WeakMap<AppDeps, RandomState>();

/** The server's state (one per server: the realtime handlers and the counts route share it). */
export function randomStateOf(deps: AppDeps): RandomState {
  const known = states.get(deps);
  if (known) return known;
  const { redis, config } = deps;
  const waiting =
    redis &&
    config.redis &&
    new RedisWaiting(redis.client, `${config.redis.prefix}:random:waiting`, deps.log);
  const queues = new Matchmaker<Waiter>(deps.now);
  const state: RandomState = {
    queues: waiting ? new MirroredQueues(queues, waiting) : queues,
    rooms: new InProcessRooms<Session>(),
    students: new InProcessStudents(),
    waiting,
  };
  states.set(deps, state);
  return state;
}
