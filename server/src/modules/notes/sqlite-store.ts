import type SQLite from 'better-sqlite3';
import type { DocumentStatus } from '@campus/protocol';
import type { Compacted, NotesAccess, NotesStore, SnapshotWith, StoredUpdate } from './store';
import { prepareOpaque } from '../../lib/db/opaque-parameters';

const ACCESS_SQL =
  'SELECT EXISTS (SELECT 1 FROM group_members WHERE group_id = ? AND user_id = ?) AS member, ' +
  '(SELECT document_status FROM users WHERE id = ?) AS status';

/**
 * NotesStore on SQLite, through raw better-sqlite3 statements on the server's handle. Each call runs its
 * statements at once, in the caller's turn, and hands back a settled promise: a frame's authorization and
 * the document's writes happen where they happened when all of this was synchronous (socket events, Redis
 * messages, timers). Every statement uses `.run()` or `.all()`, never `.get()`, so none stays open and
 * blocks WAL checkpoints.
 *
 * The realtime engine's commits run on the same handle and finish within the turn that starts them; a
 * notes call that comes after an `await` could still land inside one and read (or write into) rows that
 * then roll back. So a call that finds a transaction open on the handle waits for a later turn instead.
 * This file and store.ts are the places in modules/ allowed the raw handle (eslint.config.js).
 */
export class SqliteNotesStore implements NotesStore {
  private readonly selectRows: SQLite.Statement<[string, number], { id: number; update_data: Buffer }>;
  private readonly insertRow: SQLite.Statement<[string, Buffer, number]>;
  private readonly deleteRows: SQLite.Statement<[string]>;
  private readonly accessRow: SQLite.Statement<
    [string, string, string],
    { member: number; status: DocumentStatus | null }
  >;
  private readonly compactTx: SQLite.Transaction<
    (groupId: string, seenId: number, snapshotWith: SnapshotWith) => Compacted
  >;

  constructor(
    private readonly handle: SQLite.Database,
    private readonly now: () => number,
  ) {
    this.selectRows = prepareOpaque(
      handle,
      'SELECT id, update_data FROM group_notes_updates WHERE group_id = ? AND id > ? ORDER BY id',
    );
    this.insertRow = prepareOpaque(
      handle,
      'INSERT INTO group_notes_updates (group_id, update_data, created_ms) VALUES (?, ?, ?)',
    );
    this.deleteRows = prepareOpaque<[string]>(handle, 'DELETE FROM group_notes_updates WHERE group_id = ?');
    this.accessRow = prepareOpaque(handle, ACCESS_SQL);
    this.compactTx = handle.transaction((groupId: string, seenId: number, snapshotWith: SnapshotWith) => {
      // Rows another node stored since this one last read are folded in, or deleting them would lose them.
      const unseen = this.rows(groupId, seenId).map((row) => row.update);
      const snapshot = snapshotWith(unseen);
      this.deleteRows.run(groupId);
      const id = Number(this.insertRow.run(groupId, Buffer.from(snapshot), this.now()).lastInsertRowid);
      return { snapshot, id, unseen: unseen.length };
    });
  }

  get isOpen(): boolean {
    return this.handle.open;
  }

  access(groupId: string, userId: string): NotesAccess | Promise<NotesAccess> {
    const read = (): NotesAccess => {
      const row = this.accessRow.all(groupId, userId, userId)[0];
      return { member: row?.member === 1, status: row?.status ?? null };
    };
    return this.handle.inTransaction ? this.outsideTransactions(read) : read();
  }

  load(groupId: string, afterId = 0): Promise<StoredUpdate[]> {
    return this.outsideTransactions(() => this.rows(groupId, afterId));
  }

  append(groupId: string, update: Uint8Array): Promise<number> {
    return this.outsideTransactions(() =>
      Number(this.insertRow.run(groupId, Buffer.from(update), this.now()).lastInsertRowid),
    );
  }

  /** IMMEDIATE: no other node (another connection to the file) can store a row between read and delete. */
  compact(groupId: string, seenId: number, snapshotWith: SnapshotWith): Promise<Compacted> {
    return this.outsideTransactions(() => this.compactTx.immediate(groupId, seenId, snapshotWith));
  }

  private rows(groupId: string, afterId: number): StoredUpdate[] {
    return this.selectRows
      .all(groupId, afterId)
      .map((row) => ({ id: row.id, update: new Uint8Array(row.update_data) }));
  }

  /** `work` now if no transaction is open on the handle, else in the first later turn that finds none. */
  private async outsideTransactions<T>(work: () => T): Promise<T> {
    while (this.handle.inTransaction) await new Promise((resolve) => setImmediate(resolve));
    return work();
  }
}
