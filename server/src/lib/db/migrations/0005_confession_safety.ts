import { sql, type Kysely } from 'kysely';
import { ddl, dialectOf } from './dialect';

/**
 * Safety and scale for confessions, found in review:
 * - `confession_reaction_notices`: a reaction notifies the author once per reactor, confession and type,
 *   so toggling a reaction off and on cannot flood someone's notifications and pushes.
 * - `confession_totals`: the feed's tab counts kept as counters by triggers (a count(*) per feed request
 *   scanned the whole table). Scope '*' is every confession, 'c:<college>' one college's.
 * - `nickname_claims`: a nickname that signed a confession or comment stays its user's after a rename, so
 *   nobody else can take it and pass as the author of what it signed.
 * Keys are recomputed with NFKC (full-width and other compatibility forms fold to one name).
 */
const UP = [
  `CREATE TABLE confession_reaction_notices (
     confession_id TEXT NOT NULL REFERENCES confessions(id) ON DELETE CASCADE,
     user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     reaction_type TEXT NOT NULL,
     PRIMARY KEY (confession_id, user_id, reaction_type)
   ) WITHOUT ROWID`,
  // Deleting an account removes its notices without a scan.
  `CREATE INDEX confession_reaction_notices_user_idx ON confession_reaction_notices (user_id)`,
  // Reactions made before this migration were notified already.
  `INSERT INTO confession_reaction_notices (confession_id, user_id, reaction_type)
     SELECT confession_id, user_id, reaction_type FROM confession_reactions`,

  `CREATE TABLE confession_totals (
     scope TEXT PRIMARY KEY,
     n INTEGER NOT NULL
   ) WITHOUT ROWID`,
  `INSERT INTO confession_totals (scope, n)
     SELECT '*', count(*) FROM confessions WHERE deleted_at IS NULL`,
  `INSERT INTO confession_totals (scope, n)
     SELECT 'c:' || college, count(*) FROM confessions WHERE deleted_at IS NULL AND college IS NOT NULL
      GROUP BY college`,
];

/** After the triggers, which are written per dialect. */
const CLAIMS = [
  `CREATE TABLE nickname_claims (
     nickname_key TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE
   ) WITHOUT ROWID`,
  `CREATE INDEX nickname_claims_user_idx ON nickname_claims (user_id)`,
];

// Triggers keep the counts whatever removes a confession (the author, a cascade from a deleted account).
const SQLITE_TRIGGERS = [
  `CREATE TRIGGER confession_totals_insert AFTER INSERT ON confessions WHEN NEW.deleted_at IS NULL
   BEGIN
     INSERT INTO confession_totals (scope, n) VALUES ('*', 1) ON CONFLICT (scope) DO UPDATE SET n = n + 1;
     INSERT INTO confession_totals (scope, n) SELECT 'c:' || NEW.college, 1 WHERE NEW.college IS NOT NULL
       ON CONFLICT (scope) DO UPDATE SET n = n + 1;
   END`,
  `CREATE TRIGGER confession_totals_soft_delete AFTER UPDATE OF deleted_at ON confessions
     WHEN OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL
   BEGIN
     UPDATE confession_totals SET n = max(0, n - 1) WHERE scope IN ('*', 'c:' || OLD.college);
   END`,
  `CREATE TRIGGER confession_totals_delete AFTER DELETE ON confessions WHEN OLD.deleted_at IS NULL
   BEGIN
     UPDATE confession_totals SET n = max(0, n - 1) WHERE scope IN ('*', 'c:' || OLD.college);
   END`,
];

/**
 * The same three triggers on PostgreSQL, where a trigger runs a function. `n` is qualified in ON CONFLICT's
 * SET (PostgreSQL finds a bare `n` ambiguous between the row and EXCLUDED); greatest() is SQLite's
 * two-argument max(). Each function is named after its trigger.
 */
const POSTGRES_TRIGGERS = [
  `CREATE FUNCTION confession_totals_insert() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO confession_totals (scope, n) VALUES ('*', 1)
       ON CONFLICT (scope) DO UPDATE SET n = confession_totals.n + 1;
     IF NEW.college IS NOT NULL THEN
       INSERT INTO confession_totals (scope, n) VALUES ('c:' || NEW.college, 1)
         ON CONFLICT (scope) DO UPDATE SET n = confession_totals.n + 1;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER confession_totals_insert AFTER INSERT ON confessions
     FOR EACH ROW WHEN (NEW.deleted_at IS NULL) EXECUTE FUNCTION confession_totals_insert()`,
  `CREATE FUNCTION confession_totals_soft_delete() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE confession_totals SET n = greatest(0, n - 1) WHERE scope IN ('*', 'c:' || OLD.college);
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER confession_totals_soft_delete AFTER UPDATE OF deleted_at ON confessions
     FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL)
     EXECUTE FUNCTION confession_totals_soft_delete()`,
  `CREATE FUNCTION confession_totals_delete() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE confession_totals SET n = greatest(0, n - 1) WHERE scope IN ('*', 'c:' || OLD.college);
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER confession_totals_delete AFTER DELETE ON confessions
     FOR EACH ROW WHEN (OLD.deleted_at IS NULL) EXECUTE FUNCTION confession_totals_delete()`,
];

/** The same fold as the server's `nicknameKey` (mappers.ts), which this migration must not import. */
const keyOf = (nickname: string) => nickname.normalize('NFKC').toLowerCase();

interface Signed {
  user_id: string;
  nickname: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  for (const statement of UP) await ddl(db, statement);
  for (const trigger of postgres ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) await sql.raw(trigger).execute(db);
  for (const statement of CLAIMS) await ddl(db, statement);

  const current = await sql<Signed>`SELECT user_id, nickname FROM nicknames`.execute(db);
  for (const row of current.rows) {
    // Two names that only NFKC folds together keep their old keys (one was taken first). PostgreSQL has
    // no UPDATE OR IGNORE: the update skips a key another user holds.
    const key = keyOf(row.nickname);
    if (postgres)
      await sql`UPDATE nicknames SET nickname_key = ${key} WHERE user_id = ${row.user_id}
                 AND NOT EXISTS (SELECT 1 FROM nicknames o WHERE o.nickname_key = ${key} AND o.user_id <> ${row.user_id})`.execute(
        db,
      );
    else
      await sql`UPDATE OR IGNORE nicknames SET nickname_key = ${key} WHERE user_id = ${row.user_id}`.execute(
        db,
      );
  }
  // Oldest first: where two users signed with one name, the first keeps it. (PostgreSQL 15 wants the
  // subquery named.)
  const signed = await sql<Signed>`
    SELECT author_id AS user_id, nickname FROM (
      SELECT author_id, nickname, min(created_at) AS first FROM confessions GROUP BY author_id, nickname
      UNION ALL
      SELECT author_id, nickname, min(created_at) AS first FROM confession_comments GROUP BY author_id, nickname
    )${sql.raw(postgres ? ' AS signed' : '')} ORDER BY first`.execute(db);
  for (const row of signed.rows) {
    if (postgres)
      await sql`INSERT INTO nickname_claims (nickname_key, user_id) VALUES (${keyOf(row.nickname)}, ${row.user_id})
                 ON CONFLICT DO NOTHING`.execute(db);
    else
      await sql`INSERT OR IGNORE INTO nickname_claims (nickname_key, user_id) VALUES (${keyOf(row.nickname)}, ${row.user_id})`.execute(
        db,
      );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  for (const trigger of ['insert', 'soft_delete', 'delete']) {
    if (!postgres) await sql.raw(`DROP TRIGGER confession_totals_${trigger}`).execute(db);
    else {
      await sql.raw(`DROP TRIGGER confession_totals_${trigger} ON confessions`).execute(db);
      await sql.raw(`DROP FUNCTION confession_totals_${trigger}()`).execute(db);
    }
  }
  for (const table of ['nickname_claims', 'confession_totals', 'confession_reaction_notices'])
    await sql.raw(`DROP TABLE ${table}`).execute(db);
}
