import { sql, type Kysely } from 'kysely';
import { ddl } from './dialect';

/**
 * Confessions: nicknames, confessions with their reaction and comment counts, reactions and comments.
 * Raw SQL like 0002 (WITHOUT ROWID, partial indexes). Every list query has its index named beside it.
 * Author ids are stored for ownership checks only; no route ever sends them.
 */
const UP = [
  // One nickname per user. `nickname_key` is the nickname lower-cased (Unicode-aware, by the server), so
  // uniqueness is case-insensitive whatever the script.
  `CREATE TABLE nicknames (
     user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
     nickname TEXT NOT NULL,
     nickname_key TEXT NOT NULL UNIQUE,
     updated_at TEXT NOT NULL
   ) WITHOUT ROWID`,

  // `content` is the censored text. `nickname` and `college` are the author's at post time. A deleted
  // confession keeps its row (so a retried post with the same id does not bring it back) but loses its text.
  `CREATE TABLE confessions (
     id TEXT PRIMARY KEY,
     author_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     nickname TEXT NOT NULL,
     content TEXT NOT NULL,
     emotion_tag TEXT NOT NULL,
     college TEXT,
     created_at TEXT NOT NULL,
     deleted_at TEXT,
     relatable_count INTEGER NOT NULL DEFAULT 0,
     funny_count INTEGER NOT NULL DEFAULT 0,
     feel_you_count INTEGER NOT NULL DEFAULT 0,
     share_worthy_count INTEGER NOT NULL DEFAULT 0,
     comment_count INTEGER NOT NULL DEFAULT 0
   )`,
  // The 'Top (All)' feed, newest first, and its total.
  `CREATE INDEX confessions_feed_idx ON confessions (created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  // The 'Your College' feed and its total.
  `CREATE INDEX confessions_college_feed_idx ON confessions (college, created_at DESC, id DESC)
     WHERE deleted_at IS NULL`,
  // Deleting an account removes its confessions without a table scan.
  `CREATE INDEX confessions_author_idx ON confessions (author_id)`,

  // One row per user, confession and reaction type: the primary key makes a reaction at most once.
  `CREATE TABLE confession_reactions (
     confession_id TEXT NOT NULL REFERENCES confessions(id) ON DELETE CASCADE,
     user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     reaction_type TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (confession_id, user_id, reaction_type)
   ) WITHOUT ROWID`,
  `CREATE INDEX confession_reactions_user_idx ON confession_reactions (user_id)`,

  // `nickname` is the commenter's at the time: a comment shows it, never an id.
  `CREATE TABLE confession_comments (
     id TEXT PRIMARY KEY,
     confession_id TEXT NOT NULL REFERENCES confessions(id) ON DELETE CASCADE,
     author_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     nickname TEXT NOT NULL,
     content TEXT NOT NULL,
     created_at TEXT NOT NULL
   )`,
  // A card's newest comments and the comments panel's pages.
  `CREATE INDEX confession_comments_confession_idx ON confession_comments (confession_id, created_at, id)`,
  `CREATE INDEX confession_comments_author_idx ON confession_comments (author_id)`,
];

const DOWN = ['confession_comments', 'confession_reactions', 'confessions', 'nicknames'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await ddl(db, statement);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of DOWN) await sql.raw(`DROP TABLE ${table}`).execute(db);
}
