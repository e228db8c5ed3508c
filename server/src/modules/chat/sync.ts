import type { AppDeps } from '../../lib/deps';
import { audience } from '../../realtime/audiences';
import type { ChangeHooks, MutationHandlers, ParticipationCheck } from '../../realtime/registry';
import { userRefsOf } from '../users';
import { deliveryReceiptsOf } from './delivery-receipts';
import { markMessagesRead, setReaction } from './receipts';
import { storeDirectMessage, storeGroupMessage } from './writes';

type ChatMutation = 'send_message' | 'send_group_message' | 'mark_messages_as_read' | 'chat-reaction';
type ChatChange =
  | 'receive_message'
  | 'receive_group_message'
  | 'peer_read_messages'
  | 'chat-reaction'
  | 'group_joined'
  | 'group_read';

/**
 * The chat feature's mutations in the engine's table (server/src/features.ts). Under the access policy a
 * limited account may answer someone who wrote to it first and mark messages read; starting a direct chat,
 * writing in a group and reacting are taking part.
 */
export function chatMutationHandlers(
  deps: AppDeps,
  participation: ParticipationCheck,
): Pick<MutationHandlers, ChatMutation> {
  const refs = userRefsOf(deps);
  return {
    send_message: {
      // Checked in checkDirectLimits, only when the recipient has not written in this chat.
      access: 'handler',
      async apply(tx, frame, actor) {
        const { id, to, content, replyTo } = frame;
        await storeDirectMessage(tx, refs, actor.userId, { id, to, content, replyTo }, participation);
      },
    },
    send_group_message: {
      access: 'participation',
      async apply(tx, frame, actor) {
        const { id, groupId, content } = frame;
        await storeGroupMessage(tx, refs, actor.userId, { id, groupId, content });
      },
      // The client shows a group's refusals in that group.
      refusalContext: (frame) => ({ context: 'group', groupId: frame.groupId }),
    },
    mark_messages_as_read: {
      access: 'open',
      async apply(tx, frame, actor) {
        await markMessagesRead(tx, refs, actor.userId, frame.chatPartnerId, frame.messageIds);
      },
    },
    'chat-reaction': {
      access: 'participation',
      async apply(tx, frame, actor) {
        const { messageId, emoji, toUserId } = frame;
        await setReaction(tx, actor.userId, { messageId, emoji, toUserId });
      },
    },
  };
}

/**
 * What a live connection does when a chat change reaches it: the recipient's device now holds a direct
 * message (a delivery receipt, batched), and a new group's messages start reaching its members' open
 * connections at once, whether or not their pull has carried the group yet.
 */
export function chatChangeHooks(deps: AppDeps): Pick<ChangeHooks, ChatChange> {
  const receipts = deliveryReceiptsOf(deps);
  return {
    receive_message: {
      delivered(session, { message }) {
        if (message.to.id === session.userId && message.status === 'sent')
          receipts.add(session.userId, message.from.id, message.id);
      },
    },
    group_joined: {
      // `reached`, not `delivered`: a connection whose pull is still to carry the change must still get
      // the group's later messages live, or the group stays silent there until the next reconnect.
      reached(session, { group }) {
        session.joinAudience(audience.group(group.id));
      },
    },
    receive_group_message: {},
    peer_read_messages: {},
    'chat-reaction': {},
    group_read: {},
  };
}
