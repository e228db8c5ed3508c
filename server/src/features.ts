import type { AppDeps } from './deps';
import type { ChangeHooks, Features, MutationHandlers } from './realtime/registry';
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
 * and every mutation declares its access), the access policy's check, and chat's session hooks. The engine
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
  const changes = {
    ...chatChangeHooks(deps),
    ...confessionChangeHooks,
    ...notificationChangeHooks,
    ...profileChangeHooks,
    ...friendChangeHooks,
  } satisfies ChangeHooks;
  return {
    mutations,
    participation,
    changes,
    session: chatSessionHooks(deps),
    async close() {
      deliveryReceiptsOf(deps).close();
      await closeConfessions(deps);
    },
  };
}
