import type { RandomPartner } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import type { Session } from '../../realtime/registry';
import { Matchmaker, type RandomQueues } from './matchmaker';
import { InProcessRooms, type RandomRooms } from './rooms';
import { InProcessStudents, type OnlineStudents } from './students';

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
}

const states = new WeakMap<AppDeps, RandomState>();

/** The server's state (one per server: the realtime handlers and the counts route share it). */
export function randomStateOf(deps: AppDeps): RandomState {
  let state = states.get(deps);
  if (!state)
    states.set(
      deps,
      (state = {
        queues: new Matchmaker<Waiter>(deps.now),
        rooms: new InProcessRooms<Session>(),
        students: new InProcessStudents(),
      }),
    );
  return state;
}
