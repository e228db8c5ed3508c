import type { AppDeps } from './deps';
import type {
  ChangeHooks,
  EngineSessionHooks,
  Features,
  MutationHandlers,
  SessionFrameHandlers,
} from './realtime/registry';
import { CoordinatedCalls, callChangeHooks } from './modules/calls';
import { chatChangeHooks, chatMutationHandlers } from './modules/chat/sync';
import { chatSessionHooks } from './modules/chat/session-hooks';
import { deliveryReceiptsOf } from './modules/chat';
import {
  closeConfessions,
  confessionChangeHooks,
  confessionMutationHandlers,
} from './modules/confessions/sync';
import { friendChangeHooks, friendMutationHandlers } from './modules/friends';
import { notificationChangeHooks, notificationMutationHandlers } from './modules/notifications/sync';
import { profileChangeHooks } from './modules/profile/sync';
import { CoordinatedRandomTalk } from './modules/random';
import { participationCheck } from './modules/users';

/**
 * The composition root of the realtime engine: every feature's mutation handlers and change hooks in one
 * table each, typed against the protocol's lists (a mutation or change without its entry does not compile,
 * and every mutation declares its access), the access policy's check, and the session hooks: chat's, with
 * the calls' and random talk's frames joined into one frame table and their per-connection hooks. The engine
 * (server/src/realtime) imports no module; this file is where they meet. docs/adding-a-feature.md has the
 * recipe.
 */
export function createFeatures(deps: AppDeps): Features {
  // The access policy (issue 11): each handler declares its `access`; this is the check behind it.
  const participation = participationCheck(deps.config.verificationPolicy);
  const mutations = {
    ...chatMutationHandlers(deps, participation),
    ...confessionMutationHandlers(deps),
    ...notificationMutationHandlers(deps),
    ...friendMutationHandlers(deps),
  } satisfies MutationHandlers;
  // One-to-one calls: their signalling frames join chat's, and they hear every connection that closes.
  // With REDIS_URL one node of the deployment runs them (and random talk) for all: modules' coordinated.ts.
  const calls = new CoordinatedCalls(deps, participation, {
    ringTimeoutMs: deps.config.callRingTimeoutMs,
    reconnectGraceMs: deps.config.callReconnectGraceMs,
  });
  // Random and focused talk: their frames join too, and they hear connections open and close.
  const random = new CoordinatedRandomTalk(deps, participation, {
    roomLimitMs: deps.config.randomRoomLimitMs,
    reconnectGraceMs: deps.config.randomReconnectGraceMs,
  });
  const changes = {
    ...chatChangeHooks(deps),
    ...confessionChangeHooks,
    ...notificationChangeHooks,
    ...profileChangeHooks,
    ...friendChangeHooks,
    ...callChangeHooks,
    // A profile save or a verification decision: random talk's cache of online profiles follows.
    me_updated: {
      ...profileChangeHooks.me_updated,
      reached: (_s, change) => {
        random.profileChanged(change.user);
        // A rejected document closes random talk at once (after the commit's fan-out: it reads).
        setImmediate(() => random.recheck(change.user.id));
      },
    },
  } satisfies ChangeHooks;
  // A block ends a call between the two, whichever way it was made (REST or the outbox, online or not).
  // It also ends a random room between them and keeps them apart in random talk's queues.
  const stopHearingBlocks = deps.realtime.onSeparate((blocker, blocked) => {
    calls.separated(blocker, blocked);
    random.separated(blocker, blocked);
  });
  // A moderator's decision or an automatic hold: a random-talk wait or room of the user ends with it.
  const stopHearingAccess = deps.realtime.onAccessChanged((userId) => random.recheck(userId));
  const chat = chatSessionHooks(deps);
  const session: EngineSessionHooks = {
    ...chat,
    open: (userId) => {
      random.connected(userId);
      return chat.open(userId);
    },
    frames: { ...chat.frames, ...calls.frames, ...random.frames } satisfies SessionFrameHandlers,
    closed: (s) => {
      calls.closed(s);
      random.closed(s);
    },
  };
  return {
    mutations,
    participation,
    changes,
    session,
    async close() {
      stopHearingBlocks();
      stopHearingAccess();
      await random.close();
      await calls.close();
      deliveryReceiptsOf(deps).close();
      await closeConfessions(deps);
    },
  };
}
