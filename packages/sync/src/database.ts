import Dexie, { type EntityTable } from 'dexie';
import type { User } from '@campus/protocol';

/** A small key/value table for the sync cursor and similar per-user state. */
export interface MetaRow {
  key: string;
  value: unknown;
}

/**
 * The signed-in user's local cache. One database per user so that two accounts on one machine never see
 * each other's data; deleted on logout. Chat, confession and notification tables arrive with their features.
 */
export type CampusDatabase = Dexie & {
  meta: EntityTable<MetaRow, 'key'>;
  users: EntityTable<User, 'id'>;
};

export function databaseName(userId: string): string {
  return `campus-talk-${userId}`;
}

export function openUserDatabase(userId: string): CampusDatabase {
  const db = new Dexie(databaseName(userId)) as CampusDatabase;
  db.version(1).stores({
    meta: 'key',
    users: 'id',
  });
  return db;
}

export async function deleteUserDatabase(userId: string): Promise<void> {
  await Dexie.delete(databaseName(userId));
}
