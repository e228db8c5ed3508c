import type SQLite from 'better-sqlite3';

/**
 * The rows of group_notes_updates, through raw better-sqlite3 statements: y-websocket-server opens a document
 * synchronously (bindState returns void), so loading it must not await. Every statement uses `.run()` or
 * `.all()`, never `.get()` on a writing statement, so none stays open and blocks WAL checkpoints.
 */
export class NotesStore {
  private readonly selectRows: SQLite.Statement<[string], { update_data: Buffer }>;
  private readonly insertRow: SQLite.Statement<[string, Buffer, number]>;
  private readonly deleteRows: SQLite.Statement<[string]>;
  private readonly memberRow: SQLite.Statement<[string, string], { one: number }>;
  private readonly compactTx: (groupId: string, snapshot: Uint8Array, now: number) => void;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly now: () => number,
  ) {
    this.selectRows = sqlite.prepare(
      'SELECT update_data FROM group_notes_updates WHERE group_id = ? ORDER BY id',
    );
    this.insertRow = sqlite.prepare(
      'INSERT INTO group_notes_updates (group_id, update_data, created_ms) VALUES (?, ?, ?)',
    );
    this.deleteRows = sqlite.prepare('DELETE FROM group_notes_updates WHERE group_id = ?');
    // The primary key (group_id, user_id) answers this with one index probe.
    this.memberRow = sqlite.prepare('SELECT 1 AS one FROM group_members WHERE group_id = ? AND user_id = ?');
    this.compactTx = sqlite.transaction((groupId: string, snapshot: Uint8Array, now: number) => {
      this.deleteRows.run(groupId);
      this.insertRow.run(groupId, Buffer.from(snapshot), now);
    });
  }

  /** False once the server has closed the database: late close handlers then have nothing to write. */
  get isOpen(): boolean {
    return this.sqlite.open;
  }

  isMember(groupId: string, userId: string): boolean {
    return this.memberRow.all(groupId, userId).length > 0;
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
