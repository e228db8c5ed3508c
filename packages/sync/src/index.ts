export {
  openUserDatabase,
  deleteUserDatabase,
  databaseName,
  type CampusDatabase,
  type LocalDirectMessage,
  type LocalGroupMessage,
  type LocalConversation,
  type LocalConfession,
  type LocalNotification,
  type LocalBlock,
  type OutboxRow,
  type MetaRow,
} from './database';
export type {
  CallSignalsApi,
  ConnectionStatus,
  EphemeralState,
  FeatureLoaders,
  RandomSignalsApi,
  SyncClient,
  SyncClientOptions,
  TypingTarget,
} from './client-api';
export { createSyncClient } from './create-client';
export type { ClientWrite, Writer } from './writer';
// The features' writes: `client.run(writeDirectMessage, to, text)`.
export {
  writeDirectMessage,
  writeGroupMessage,
  writeMarkRead,
  writeReaction,
  writeRetry,
  writeDiscard,
} from './features/chat/writes';
export {
  writeConfessionReaction,
  writeConfessionComment,
  writeConfessionPost,
  writeConfessionDelete,
  type ConfessionAuthor,
} from './features/confessions/writes';
export { writeNotificationRead } from './features/notifications/writes';
export { writeDecideFriendRequest, writeBlockUser, writeUnblockUser } from './features/friends/writes';
// The signed-in user's own profile row (`me_updated`), which the web session follows.
export { SELF_META_KEY } from './features/users/changes';
export { toLocalNotification } from './features/notifications/store';
export { reconnectDelay } from './backoff';
export { directTypingKey, groupTypingKey } from './ephemeral-state';
export type { NetworkSignal, RealtimeTiming } from './realtime-connection';
