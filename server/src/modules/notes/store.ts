import type SQLite from 'better-sqlite3';
import type { DocumentStatus } from '@campus/protocol';
import type { SqliteAppDeps } from '../../deps';
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

/**
 * The rows of group_notes_updates, through raw better-sqlite3 statements: y-websocket-server opens a document
 * synchronously (bindState returns void), so loading it must not await. Every statement uses `.run()` or
 * `.all()`, never `.get()` on a writing statement, so none stays open and blocks WAL checkpoints.
 * These run only from socket events, Redis messages and timers (each its own macrotask), never after an
 * `await`, while the engine's commits finish within one turn: so they cannot land inside another commit's
 * open transaction.
 * That is why this file is the one place in modules/ allowed raw statements (eslint.config.js).
 */
export class NotesStore {
  private readonly selectRows: SQLite.Statement<[string, number], { id: number; update_data: Buffer }>;
  private readonly insertRow: SQLite.Statement<[string, Buffer, number]>;
  private readonly deleteRows: SQLite.Statement<[string]>;
  private readonly memberRow: SQLite.Statement<[string, string], { one: number }>;
  private readonly statusRow: SQLite.Statement<[string], { document_status: DocumentStatus }>;
  private readonly compactTx: SQLite.Transaction<
    (groupId: string, seenId: number, snapshotWith: (unseen: Uint8Array[]) => Uint8Array) => Compacted
  >;

  private readonly sqlite: SQLite.Database;
  private readonly now: () => number;

  constructor(deps: Pick<SqliteAppDeps, 'sqlite' | 'now'>) {
    const sqlite = (this.sqlite = deps.sqlite);
    this.now = deps.now;
    this.selectRows = sqlite.prepare(
      'SELECT id, update_data FROM group_notes_updates WHERE group_id = ? AND id > ? ORDER BY id',
    );
    this.insertRow = sqlite.prepare(
      'INSERT INTO group_notes_updates (group_id, update_data, created_ms) VALUES (?, ?, ?)',
    );
    this.deleteRows = sqlite.prepare('DELETE FROM group_notes_updates WHERE group_id = ?');
    this.memberRow = sqlite.prepare(memberSql);
    this.statusRow = sqlite.prepare('SELECT document_status FROM users WHERE id = ?');
    this.compactTx = sqlite.transaction(
      (groupId: string, seenId: number, snapshotWith: (unseen: Uint8Array[]) => Uint8Array) => {
        // Rows another node stored since this one last read are folded in, or deleting them would lose them.
        const unseen = this.load(groupId, seenId).map((row) => row.update);
        const snapshot = snapshotWith(unseen);
        this.deleteRows.run(groupId);
        const id = Number(this.insertRow.run(groupId, Buffer.from(snapshot), this.now()).lastInsertRowid);
        return { snapshot, id, unseen: unseen.length };
      },
    );
  }

  /** False once the server has closed the database: late close handlers then have nothing to write. */
  get isOpen(): boolean {
    return this.sqlite.open;
  }

  /** Per frame, synchronously (the frame guard cannot await); from the upgrade route use `isNotesMember`. */
  isMember(groupId: string, userId: string): boolean {
    return this.memberRow.all(groupId, userId).length > 0;
  }

  /** The user's document status now, for the access policy (per edit, by primary key); null: no such user. */
  documentStatus(userId: string): DocumentStatus | null {
    return this.statusRow.all(userId)[0]?.document_status ?? null;
  }

  /** The group's rows after row `afterId` (0: all of them), in order. */
  load(groupId: string, afterId = 0): StoredUpdate[] {
    return this.selectRows
      .all(groupId, afterId)
      .map((row) => ({ id: row.id, update: new Uint8Array(row.update_data) }));
  }

  /** Stores one update; returns its row id. */
  append(groupId: string, update: Uint8Array): number {
    return Number(this.insertRow.run(groupId, Buffer.from(update), this.now()).lastInsertRowid);
  }

  /**
   * Replaces every row of the group with one snapshot, atomically: `snapshotWith` gets the rows after
   * `seenId` and returns the snapshot. IMMEDIATE, so no other node (another connection to the same file)
   * can store a row between the read and the delete.
   */
  compact(groupId: string, seenId: number, snapshotWith: (unseen: Uint8Array[]) => Uint8Array): Compacted {
    return this.compactTx.immediate(groupId, seenId, snapshotWith);
  }
}
