export {
  openUserDatabase,
  deleteUserDatabase,
  databaseName,
  type CampusDatabase,
  type LocalDirectMessage,
  type LocalGroupMessage,
  type OutboxRow,
  type MetaRow,
} from './database';
export type {
  ConnectionStatus,
  EphemeralState,
  SyncClient,
  SyncClientOptions,
  TypingTarget,
} from './client-api';
