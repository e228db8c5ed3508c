import type SQLite from 'better-sqlite3';
import type { DocumentStatus } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { sql, type ReadTx } from '../../realtime/transaction';

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

/**
 * The rows of group_notes_updates, through raw better-sqlite3 statements: y-websocket-server opens a document
 * synchronously (bindState returns void), so loading it must not await. Every statement uses `.run()` or
 * `.all()`, never `.get()` on a writing statement, so none stays open and blocks WAL checkpoints.
 * These run only from socket events and timers (each its own macrotask), never after an `await`, while the
 * engine's commits finish within one turn: so they cannot land inside another commit's open transaction.
 * That is why this file is the one place in modules/ allowed raw statements (eslint.config.js).
 */
export class NotesStore {
  private readonly selectRows: SQLite.Statement<[string], { update_data: Buffer }>;
  private readonly insertRow: SQLite.Statement<[string, Buffer, number]>;
  private readonly deleteRows: SQLite.Statement<[string]>;
  private readonly memberRow: SQLite.Statement<[string, string], { one: number }>;
  private readonly statusRow: SQLite.Statement<[string], { document_status: DocumentStatus }>;
  private readonly compactTx: (groupId: string, snapshot: Uint8Array, now: number) => void;

  private readonly sqlite: SQLite.Database;
  private readonly now: () => number;

  constructor(deps: Pick<AppDeps, 'sqlite' | 'now'>) {
    const sqlite = (this.sqlite = deps.sqlite);
    this.now = deps.now;
    this.selectRows = sqlite.prepare(
      'SELECT update_data FROM group_notes_updates WHERE group_id = ? ORDER BY id',
    );
    this.insertRow = sqlite.prepare(
      'INSERT INTO group_notes_updates (group_id, update_data, created_ms) VALUES (?, ?, ?)',
    );
    this.deleteRows = sqlite.prepare('DELETE FROM group_notes_updates WHERE group_id = ?');
    this.memberRow = sqlite.prepare(memberSql);
    this.statusRow = sqlite.prepare('SELECT document_status FROM users WHERE id = ?');
    this.compactTx = sqlite.transaction((groupId: string, snapshot: Uint8Array, now: number) => {
      this.deleteRows.run(groupId);
      this.insertRow.run(groupId, Buffer.from(snapshot), now);
    });
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

  load(groupId: string): Uint8Array[] {
    return this.selectRows.all(groupId).map((row) => new Uint8Array(row.update_data));
  }

  append(groupId: string, update: Uint8Array): void {
    this.insertRow.run(groupId, Buffer.from(update), this.now());
  }

  /** Replaces every row of the group with one snapshot, atomically. */
  compact(groupId: string, snapshot: Uint8Array): void {
    this.compactTx(groupId, snapshot, this.now());
  }
}
