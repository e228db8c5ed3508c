import type { AppDeps } from './deps';
import type {
  ChangeHooks,
  EngineSessionHooks,
  Features,
  MutationHandlers,
  SessionFrameHandlers,
} from './realtime/registry';
import { CallSignalling, callChangeHooks } from './modules/calls';
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
import { participationCheck } from './modules/users';

/**
 * The composition root of the realtime engine: every feature's mutation handlers and change hooks in one
 * table each, typed against the protocol's lists (a mutation or change without its entry does not compile,
 * and every mutation declares its access), the access policy's check, and the session hooks: chat's, with
 * the calls' frames joined into one frame table and their per-connection close hook. The engine
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
  const calls = new CallSignalling(deps, participation, {
    ringTimeoutMs: deps.config.callRingTimeoutMs,
    reconnectGraceMs: deps.config.callReconnectGraceMs,
  });
  const changes = {
    ...chatChangeHooks(deps),
    ...confessionChangeHooks,
    ...notificationChangeHooks,
    ...profileChangeHooks,
    ...friendChangeHooks,
    // A block ends a call between the two (it reaches every live device of the blocker; once is enough).
    // Delivery runs inside the commit's fan-out, and ending a call writes its log: after it, then.
    block_changed: {
      ...friendChangeHooks.block_changed,
      delivered: (s, change) => {
        if (change.blocked) setImmediate(() => calls.separated(s.userId, change.user.id));
      },
    },
    ...callChangeHooks,
  } satisfies ChangeHooks;
  const chat = chatSessionHooks(deps);
  const session: EngineSessionHooks = {
    ...chat,
    frames: { ...chat.frames, ...calls.frames } satisfies SessionFrameHandlers,
    closed: (s) => calls.closed(s),
  };
  return {
    mutations,
    participation,
    changes,
    session,
    async close() {
      await calls.close();
      deliveryReceiptsOf(deps).close();
      await closeConfessions(deps);
    },
  };
}
