import type { AppDeps } from '../../lib/deps';
import type { ChangeHooks, MutationHandlers } from '../../realtime/registry';
import { confessionEnv } from './env';
import { takeConfessionRate } from './limits';
import { addComment, setConfessionReaction } from './reactions';
import { deleteConfession, postConfession } from './writes';

export { closeConfessions } from './env';

type ConfessionMutationType =
  'confession_react' | 'confession_comment' | 'confession_post' | 'confession_delete';
type ConfessionChangeType =
  'confession_posted' | 'confession_mine' | 'confession_deleted' | 'confession_counts';

/**
 * The confession writes of the realtime outbox, registered with the engine (server/src/features.ts). Each
 * runs in the engine's exactly-once commit; a refusal is a `Refusal` with the spec's text. The REST routes'
 * per-user limits apply here too (a hit over the limit is a refusal, remembered like any other, so a resend
 * gets the same answer). Deleting is not limited, as over REST.
 */
export function confessionMutationHandlers(deps: AppDeps): Pick<MutationHandlers, ConfessionMutationType> {
  const env = confessionEnv(deps);
  return {
    confession_react: {
      access: 'participation',
      async apply(tx, frame, actor) {
        takeConfessionRate(deps, 'react', actor.userId);
        await setConfessionReaction(tx, env, actor.userId, {
          confessionId: frame.confessionId,
          reactionType: frame.reactionType,
          on: frame.on,
        });
      },
    },
    confession_comment: {
      access: 'participation',
      async apply(tx, frame, actor) {
        takeConfessionRate(deps, 'comment', actor.userId);
        const input = { id: frame.id, confessionId: frame.confessionId, content: frame.content };
        await addComment(tx, env, actor.userId, input);
      },
    },
    confession_post: {
      access: 'participation',
      async apply(tx, frame, actor) {
        takeConfessionRate(deps, 'post', actor.userId);
        await postConfession(tx, env, actor.userId, {
          id: frame.id,
          content: frame.content,
          emotionTag: frame.emotionTag,
        });
      },
    },
    confession_delete: {
      // Withdrawing one's own words is never refused.
      access: 'open',
      async apply(tx, frame, actor) {
        await deleteConfession(tx, env, actor.userId, frame.confessionId);
      },
    },
  };
}

/**
 * Nothing happens on delivery: a confession change is data for the feed's cache, applied by the client.
 * Every signed-in connection receives the `allStudents` ones through its subscription to that audience.
 */
export const confessionChangeHooks: Pick<ChangeHooks, ConfessionChangeType> = {
  confession_posted: {},
  confession_mine: {},
  confession_deleted: {},
  confession_counts: {},
};
