import { sql, type Kysely } from 'kysely';
import { ddl } from './dialect';

/**
 * Student-ID verification (issue 11).
 *
 * - `documents`: every submission a student made, newest wins. `storage_key` is the private file's key under
 *   the storage interface (always `documents/<user id>/<random>`, never a name the student chose). `manual`:
 *   the student asked for a manual review. `client_recognized`: what their recognition call read (JSON of
 *   nama, nim, kampus, jurusan, or NULL); `server_check`: the server's own reading and verdict (JSON).
 * - `document_decisions`: the item's history: each submission (by the student) and each admin decision
 *   (verify, reject with the reason the student sees, exempt), with who, when and the statuses it moved
 *   between. Never updated or deleted while the user exists.
 * - `upload_intents`: a signed upload URL handed out, so a submission can only name a key this server signed
 *   for this user, of a type it was signed for.
 * - users.academic_domain: the sign-up address's domain when it is a known college's e-mail domain (shown to
 *   admins in the review); users.current_document_id: the submission under review.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await ddl(
    db,
    `CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    storage_key TEXT NOT NULL UNIQUE,
    content_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    manual INTEGER NOT NULL DEFAULT 0,
    client_recognized TEXT,
    server_check TEXT NOT NULL,
    submitted_at TEXT NOT NULL
  )`,
  );
  await sql`CREATE INDEX documents_user_idx ON documents (user_id, submitted_at)`.execute(db);
  await ddl(
    db,
    `CREATE TABLE document_decisions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    document_id TEXT REFERENCES documents (id) ON DELETE SET NULL,
    actor_id TEXT REFERENCES users (id) ON DELETE SET NULL,
    action TEXT NOT NULL CHECK (action IN ('submit', 'verify', 'reject', 'exempt')),
    reason TEXT,
    from_status TEXT,
    to_status TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,
  );
  await sql`CREATE INDEX document_decisions_user_idx ON document_decisions (user_id, created_at)`.execute(db);
  await ddl(
    db,
    `CREATE TABLE upload_intents (
    storage_key TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    content_type TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    uploaded_size INTEGER
  )`,
  );
  await sql`CREATE INDEX upload_intents_user_idx ON upload_intents (user_id, expires_at)`.execute(db);
  await sql`CREATE INDEX upload_intents_expiry_idx ON upload_intents (expires_at)`.execute(db);
  await ddl(db, `ALTER TABLE users ADD COLUMN academic_domain TEXT`);
  await ddl(db, `ALTER TABLE users ADD COLUMN current_document_id TEXT`);
  await ddl(db, `ALTER TABLE users ADD COLUMN rejection_reason TEXT`);
  // The admin queue: by status, oldest submission first (keyset on submitted_at, id).
  await sql`CREATE INDEX users_document_queue_idx ON users (document_status, document_submitted_at, id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX users_document_queue_idx`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN rejection_reason`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN current_document_id`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN academic_domain`.execute(db);
  await sql`DROP TABLE upload_intents`.execute(db);
  await sql`DROP TABLE document_decisions`.execute(db);
  await sql`DROP TABLE documents`.execute(db);
}
