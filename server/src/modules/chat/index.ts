/**
 * The chat module's public surface: what other modules, the app and scripts may import. Writes that take
 * `tx` run inside the caller's commit; `send*` commit on their own. The engine's tables come from sync.ts.
 */
export {
  storeDirectMessage,
  storeGroupMessage,
  isGroupMember,
  type AttachmentInput,
  type DirectMessageInput,
  type GroupMessageInput,
} from './writes';
export { sendDirectMessage, sendGroupMessage } from './send';
export { markMessagesRead, markMessagesDelivered, setReaction, undeliveredTo } from './receipts';
export { deliveryReceiptsOf, type DeliveryReceipts } from './delivery-receipts';
export { DIRECT_LIMITS } from './direct-limits';
export { listConversations, listUserGroups, findGroup, directPage, groupPage } from './read-repo';
export {
  fileUrlPath,
  toDirectMessage,
  toGroupMessage,
  toGroup,
  type DirectMessageRow,
  type GroupMessageRow,
  type GroupRow,
} from './mappers';
export { chatRoutes } from './routes';
export { contactAudiences } from './contacts';
