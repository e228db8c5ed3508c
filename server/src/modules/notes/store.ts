import type { DocumentStatus } from '@campus/protocol';
import { sql, type ReadTx } from '../../realtime/transaction';

/** Group ids are server-made UUIDs; anything else cannot name a group and never reaches a query. */
export const NOTES_GROUP_ID = /^[A-Za-z0-9_-]{1,64}$/;

// The primary key (group_id, user_id) answers this with one index probe.
const memberSql = sql<{ one: number }>(
  'SELECT 1 AS one FROM group_members WHERE group_id = ? AND user_id = ?',
);

/**
 * Membership where the caller may await (the upgrade route, after its session lookup): through the
 * transactor's read, so it never runs inside another commit's open transaction and sees its rows.
 */
export async function isNotesMember(tx: ReadTx, groupId: string, userId: string): Promise<boolean> {
  return (await tx.first(memberSql, groupId, userId)) !== undefined;
}

/** A stored update with its row id: ids grow in commit order, so a node reads what it has not seen by id. */
export interface StoredUpdate {
  id: number;
  update: Uint8Array;
}

/** What compaction wrote: the snapshot, its row id, and how many rows this node had not read before. */
export interface Compacted {
  snapshot: Uint8Array;
  id: number;
  unseen: number;
}

/** What a connection's frames are admitted on: still a member, and the account's document status. */
export interface NotesAccess {
  member: boolean;
  /** null: no such user (any more). */
  status: DocumentStatus | null;
}

/** Builds the snapshot from the rows of the group this node has not read (called inside the compaction). */
export type SnapshotWith = (unseen: Uint8Array[]) => Uint8Array;

/**
 * The rows of group_notes_updates and the per-frame authorization read, on SQLite (sqlite-store.ts) or
 * PostgreSQL (pg-store.ts). Every row of a group is written in commit order of its id: a node that has read
 * every row up to id N has everything stored before N, which is what `seenRowId` (persistence.ts) relies on.
 */
export interface NotesStore {
  /** False once the server has closed the database: late close handlers then have nothing to write. */
  readonly isOpen: boolean;
  /**
   * Membership and document status now, read after the call (never a cached answer), for the frames a
   * connection received before it. SQLite answers in the caller's turn (primary-key probes); PostgreSQL
   * with a query shared by every connection that asked while the previous one ran.
   */
  access(groupId: string, userId: string): NotesAccess | Promise<NotesAccess>;
  /** The group's rows after row `afterId` (0: all of them), in order. */
  load(groupId: string, afterId?: number): Promise<StoredUpdate[]>;
  /** Stores one update; resolves with its row id. */
  append(groupId: string, update: Uint8Array): Promise<number>;
  /**
   * Replaces every row of the group with one snapshot, atomically against every node: `snapshotWith` gets
   * the rows after `seenId` and returns the snapshot; no row can be stored between that read and the delete.
   */
  compact(groupId: string, seenId: number, snapshotWith: SnapshotWith): Promise<Compacted>;
}
