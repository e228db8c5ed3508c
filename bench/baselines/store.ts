import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export interface StoredGroupMessage {
  id: string;
  groupId: string;
  senderId: string;
  content: string;
  createdAt: string;
  seq: number;
}

/**
 * The baselines' one write per message: an INSERT into a table with the columns and index of the app's
 * group_messages, WAL and synchronous=NORMAL like the app, through a prepared statement and `.run()` (a
 * `.get()` on `INSERT … RETURNING` would leave the statement open and stall WAL checkpoints).
 */
export function openMessageStore(dataDir: string): { insert(m: StoredGroupMessage): void; close(): void } {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new SQLite(path.join(dataDir, 'baseline.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS group_messages (
     id TEXT PRIMARY KEY,
     group_id TEXT NOT NULL,
     sender_id TEXT NOT NULL,
     content TEXT NOT NULL,
     created_at TEXT NOT NULL,
     attachment_key TEXT,
     attachment_type TEXT,
     seq INTEGER NOT NULL
   );
   CREATE INDEX IF NOT EXISTS group_messages_group_seq_idx ON group_messages (group_id, seq);`);
  const statement = db.prepare(
    `INSERT INTO group_messages (id, group_id, sender_id, content, created_at, seq)
     VALUES (@id, @groupId, @senderId, @content, @createdAt, @seq)`,
  );
  return {
    insert: (m) => void statement.run(m),
    close: () => db.close(),
  };
}

/** The wire message the baselines fan out: the same shape (and so about the same size) as the app's. */
export function groupMessageFrame(m: StoredGroupMessage, firstName: string) {
  return {
    type: 'receive_group_message',
    seq: m.seq,
    message: {
      id: m.id,
      from: { id: m.senderId, firstName, lastName: 'Bench', profilePictureUrl: null },
      group: m.groupId,
      content: m.content,
      timestamp: m.createdAt,
      attachmentUrl: null,
      attachmentType: null,
      seq: m.seq,
    },
  } as const;
}

/** Prints the bound port on stdout: the runner waits for this line. */
export function announcePort(port: number): void {
  process.stdout.write(`listening ${port}\n`);
}
