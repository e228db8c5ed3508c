import { sql } from 'kysely';
import type { DocumentStatus } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import type { NotesAccess } from './store';

/** Pairs read by one query at most; more wait for the next one. */
const MAX_BATCH = 500;

interface Asked {
  groupId: string;
  userId: string;
  answer: (access: NotesAccess) => void;
  fail: (err: unknown) => void;
}

interface AccessRow {
  i: number;
  member: boolean;
  status: DocumentStatus | null;
}

/**
 * Membership and document status for the frames of every notes connection of this node, on PostgreSQL.
 * A frame waits for a read that starts after it arrived (so a member removed, or an account limited, is
 * refused at its very next frame, as on SQLite); every connection that asks while a read is running is
 * answered by the next one, so the node runs at most one of these queries at a time, whatever the number
 * of sockets.
 */
export class PgNotesAccess {
  private asked: Asked[] = [];
  private reading = false;

  constructor(private readonly deps: Pick<AppDeps, 'db'>) {}

  check(groupId: string, userId: string): Promise<NotesAccess> {
    return new Promise((answer, fail) => {
      this.asked.push({ groupId, userId, answer, fail });
      if (!this.reading) void this.readAll();
    });
  }

  private async readAll(): Promise<void> {
    this.reading = true;
    try {
      while (this.asked.length > 0) {
        const batch = this.asked.splice(0, MAX_BATCH);
        try {
          const answers = await this.read(batch);
          batch.forEach((asked, i) => asked.answer(answers[i]!));
        } catch (err) {
          for (const asked of batch) asked.fail(err);
        }
      }
    } finally {
      this.reading = false;
    }
  }

  /** One answer per pair, in order: a left join from the pairs, so a missing row reads as "no". */
  private async read(batch: Asked[]): Promise<NotesAccess[]> {
    // deps.db is read at each query: tests swap it for a failing one to play a broken database.
    const { rows } = await sql<AccessRow>`
      SELECT p.i, m.user_id IS NOT NULL AS member, u.document_status AS status
        FROM unnest(${batch.map((a) => a.groupId)}::text[], ${batch.map((a) => a.userId)}::text[])
             WITH ORDINALITY AS p(group_id, user_id, i)
        LEFT JOIN group_members m ON m.group_id = p.group_id AND m.user_id = p.user_id
        LEFT JOIN users u ON u.id = p.user_id`.execute(this.deps.db);
    const answers: NotesAccess[] = batch.map(() => ({ member: false, status: null }));
    for (const row of rows) answers[Number(row.i) - 1] = { member: row.member, status: row.status };
    return answers;
  }
}
