import { sql, type Kysely } from 'kysely';
import unhomoglyph from 'unhomoglyph';
import { ddl, dialectOf } from './dialect';

/**
 * Look-alike nicknames ('nіght_owl' with a Cyrillic і, 'night_owI' with a capital I) were free while
 * 'night_owl' was taken. Each nickname and each signed-name claim gets the skeleton of how it looks; a name
 * is someone else's when its key (case) or its skeleton (look) is theirs.
 *
 * Not UNIQUE: clashes made before this migration stay. Both users keep their nickname row and may set that
 * exact name again (the older owner loses nothing); nobody else can take the look while either holds it.
 * New clashes cannot happen: the check runs in the IMMEDIATE write transaction of setNickname.
 */
const UP = [
  `ALTER TABLE nicknames ADD COLUMN skeleton TEXT`,
  `ALTER TABLE nickname_claims ADD COLUMN skeleton TEXT`,
];
const INDEXES = [
  `CREATE INDEX nicknames_skeleton_idx ON nicknames (skeleton)`,
  `CREATE INDEX nickname_claims_skeleton_idx ON nickname_claims (skeleton)`,
];

/** The same folds as the server's `nicknameKey` and `nicknameSkeleton`, which a migration must not import. */
const keyOf = (nickname: string) => nickname.normalize('NFKC').toLowerCase();
function skeletonOf(nickname: string): string {
  let folded = nickname.normalize('NFKC');
  for (let round = 0; round < 8; round++) {
    const next = unhomoglyph(folded).toLowerCase();
    if (next === folded) break;
    folded = next;
  }
  return folded.replaceAll('i', 'l');
}

interface Named {
  user_id: string;
  nickname: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of UP) await ddl(db, statement);

  const current = await sql<Named>`SELECT user_id, nickname FROM nicknames`.execute(db);
  for (const row of current.rows) {
    await sql`UPDATE nicknames SET skeleton = ${skeletonOf(row.nickname)} WHERE user_id = ${row.user_id}`.execute(
      db,
    );
  }
  // A claim keeps only the lower-cased key, yet capitals change the look: take it from the first thing the
  // name signed, as 0005 took the claims (oldest first). PostgreSQL 15 wants the subquery named.
  const alias = sql.raw(dialectOf(db) === 'postgres' ? ' AS signed' : '');
  const signed = await sql<Named>`
    SELECT user_id, nickname FROM (
      SELECT author_id AS user_id, nickname, min(created_at) AS first FROM confessions GROUP BY author_id, nickname
      UNION ALL
      SELECT author_id, nickname, min(created_at) FROM confession_comments GROUP BY author_id, nickname
    )${alias} ORDER BY first`.execute(db);
  for (const row of signed.rows) {
    await sql`UPDATE nickname_claims SET skeleton = ${skeletonOf(row.nickname)}
               WHERE nickname_key = ${keyOf(row.nickname)} AND user_id = ${row.user_id} AND skeleton IS NULL`.execute(
      db,
    );
  }
  // Whatever signed it is gone (comments go with a deleted confession): the key is the best there is.
  const rest = await sql<{ nickname_key: string }>`
    SELECT nickname_key FROM nickname_claims WHERE skeleton IS NULL`.execute(db);
  for (const row of rest.rows) {
    await sql`UPDATE nickname_claims SET skeleton = ${skeletonOf(row.nickname_key)}
               WHERE nickname_key = ${row.nickname_key}`.execute(db);
  }

  for (const statement of INDEXES) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('DROP INDEX nickname_claims_skeleton_idx').execute(db);
  await sql.raw('DROP INDEX nicknames_skeleton_idx').execute(db);
  await sql.raw('ALTER TABLE nickname_claims DROP COLUMN skeleton').execute(db);
  await sql.raw('ALTER TABLE nicknames DROP COLUMN skeleton').execute(db);
}
