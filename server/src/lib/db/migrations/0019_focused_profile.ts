import { sql, type Kysely } from 'kysely';
import { ddl, dialectOf } from './dialect';

/**
 * Focused talk's profile fields (issue 13): what other students' filters match on.
 *
 * - users.interests: a JSON array of the interest options the student chose (at most 10; an empty array
 *   until set). JSON in one column rather than a table: it is read and written whole with the profile, and
 *   matching happens in the server's memory, never by a query over it.
 * - users.skill_level, users.branch: one option each, or NULL.
 *
 * The options themselves are checked by the protocol's schema (and unknown values are dropped on reading),
 * not here, so the lists can grow without rebuilding the table; the column checks only keep the shapes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // PostgreSQL 15 has no json_valid: the cast refuses malformed JSON itself (as an error of its own rather
  // than a check violation), and json_typeof checks the shape.
  if (dialectOf(db) === 'postgres')
    await ddl(
      db,
      `ALTER TABLE users ADD COLUMN interests TEXT NOT NULL DEFAULT '[]'
    CHECK (json_typeof(interests::json) = 'array')`,
    );
  else
    await ddl(
      db,
      `ALTER TABLE users ADD COLUMN interests TEXT NOT NULL DEFAULT '[]'
    CHECK (json_valid(interests) AND json_type(interests) = 'array')`,
    );
  await ddl(
    db,
    `ALTER TABLE users ADD COLUMN skill_level TEXT
    CHECK (skill_level IS NULL OR length(skill_level) BETWEEN 1 AND 40)`,
  );
  await ddl(
    db,
    `ALTER TABLE users ADD COLUMN branch TEXT
    CHECK (branch IS NULL OR length(branch) BETWEEN 1 AND 40)`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN branch`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN skill_level`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN interests`.execute(db);
}
