import type { ConfessionCommentFrame, ConfessionPostFrame, ConfessionReactFrame } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { takeConfessionRate } from './limits';
import { addComment, postConfession, setConfessionReaction } from './writes';

export type ConfessionMutationFrame = ConfessionReactFrame | ConfessionCommentFrame | ConfessionPostFrame;

/**
 * The confession writes of the realtime outbox, for chat/mutations.ts to dispatch inside its exactly-once
 * transaction. A refusal throws `ConfessionRefusal` (errors.ts) before anything is written; its `message`
 * is the spec's text for `message_error`. The REST routes' per-user limits apply here too.
 */
export function applyConfessionMutation(deps: AppDeps, userId: string, frame: ConfessionMutationFrame): void {
  switch (frame.type) {
    case 'confession_react':
      takeConfessionRate(deps, 'react', userId);
      setConfessionReaction(deps, userId, {
        confessionId: frame.confessionId,
        reactionType: frame.reactionType,
        on: frame.on,
      });
      return;
    case 'confession_comment':
      takeConfessionRate(deps, 'comment', userId);
      addComment(deps, userId, { id: frame.id, confessionId: frame.confessionId, content: frame.content });
      return;
    case 'confession_post':
      takeConfessionRate(deps, 'post', userId);
      postConfession(deps, userId, { id: frame.id, content: frame.content, emotionTag: frame.emotionTag });
      return;
  }
}
