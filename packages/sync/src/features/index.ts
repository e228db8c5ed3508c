import type {
  ChangeAppliers,
  ClientFeatures,
  FeatureHost,
  MutationClients,
  SessionFrameHandlers,
} from '../feature-contract';
import { callChanges } from './calls/changes';
import { loadCallLogs } from './calls/fetch';
import { CallSignals } from './calls/signals';
import { chatChanges } from './chat/changes';
import { chatEphemeral } from './chat/ephemeral';
import { chatMutations } from './chat/mutations';
import { OpenRooms } from './chat/open-rooms';
import { applyChatSnapshot } from './chat/snapshot';
import { confessionChanges } from './confessions/changes';
import { confessionMutations } from './confessions/mutations';
import { friendChanges } from './friends/changes';
import { loadFriendsState } from './friends/fetch';
import { friendMutations } from './friends/mutations';
import { notificationChanges } from './notifications/changes';
import { loadNotifications } from './notifications/fetch';
import { notificationMutations } from './notifications/mutations';
import { RandomSignals } from './random/signals';
import { userChanges } from './users/changes';

/**
 * One client's features: the tables the engine dispatches to, and for the client API chat's open rooms,
 * the call signalling and random talk's frames.
 */
export interface CampusFeatures {
  features: ClientFeatures;
  rooms: OpenRooms;
  calls: CallSignals;
  random: RandomSignals;
}

/**
 * The composition root of the client's features, built for each client (chat keeps what is open on screen):
 * one table of mutation sides and one of change appliers, each checked against every type of
 * @campus/protocol (a type without its handler fails here).
 */
export function campusFeatures(host: FeatureHost): CampusFeatures {
  const rooms = new OpenRooms(host);
  const calls = new CallSignals((frame) => host.send(frame));
  const random = new RandomSignals((frame) => host.send(frame));
  const features: ClientFeatures = {
    mutations: {
      ...chatMutations,
      ...confessionMutations,
      ...notificationMutations,
      ...friendMutations,
    } satisfies MutationClients,
    changes: {
      ...chatChanges(rooms),
      ...confessionChanges,
      ...notificationChanges,
      ...userChanges,
      ...friendChanges,
      ...callChanges,
    } satisfies ChangeAppliers,
    snapshot: [applyChatSnapshot],
    // The snapshot carries no notifications, friends, requests, blocks or call logs: they come through REST.
    afterReset: [loadNotifications, loadFriendsState, (rest) => loadCallLogs(rest)],
    ephemeral: { ...chatEphemeral },
    frames: { ...calls.handlers(), ...random.handlers() } satisfies SessionFrameHandlers,
    caughtUp: [(generation) => rooms.rejoin(generation)],
    stop: [() => rooms.stop()],
  };
  return { features, rooms, calls, random };
}
