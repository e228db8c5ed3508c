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
  type OutboxRow,
  type OutboxUndo,
  type MetaRow,
} from './database';
export type {
  CampusSyncClient,
  ConnectionStatus,
  EphemeralState,
  SyncClient,
  SyncClientOptions,
  TypingTarget,
} from './client-api';
export { createSyncClient } from './sync-client';
export type { ConfessionAuthor } from './confession-writes';
export { toLocalNotification } from './notifications';
export { reconnectDelay } from './backoff';
export { directTypingKey, groupTypingKey } from './ephemeral-state';
export type { NetworkSignal, RealtimeTiming } from './realtime-connection';
