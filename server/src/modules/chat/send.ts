import type { DirectMessage, GroupMessage } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { userRefsOf } from '../users';
import {
  storeDirectMessage,
  storeGroupMessage,
  type DirectMessageInput,
  type GroupMessageInput,
} from './writes';

/** A direct message in a transaction of its own: for REST (attachments) and scripts. Refusals reject. */
export function sendDirectMessage(
  deps: AppDeps,
  fromUserId: string,
  input: DirectMessageInput,
): Promise<DirectMessage> {
  const refs = userRefsOf(deps);
  return deps.transactor.commit((tx) => storeDirectMessage(tx, refs, fromUserId, input));
}

/** A group message in a transaction of its own: for REST (attachments) and scripts. Refusals reject. */
export function sendGroupMessage(
  deps: AppDeps,
  fromUserId: string,
  input: GroupMessageInput,
): Promise<GroupMessage> {
  const refs = userRefsOf(deps);
  return deps.transactor.commit((tx) => storeGroupMessage(tx, refs, fromUserId, input));
}
