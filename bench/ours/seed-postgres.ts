/**
 * seed.ts for PostgreSQL (the ours-pg2 target): migrates the database at DATABASE_URL with the server's
 * own code (so the two nodes, started after, find it migrated rather than racing to migrate it), inserts
 * bench-accounts.ts's rows in one transaction, one statement per table (unnest of arrays: 3,000 single
 * inserts would each be a round trip), and writes the tokens to DATA_DIR/bench-tokens.json.
 */
import { migrateToLatest } from '../../server/src/lib/db/database';
import { openPostgres } from '../../server/src/lib/db/postgres';
import { benchAccounts, writeTokens } from './bench-accounts';

const dataDir = process.env.DATA_DIR;
const url = process.env.DATABASE_URL;
if (!dataDir || !url)
  throw new Error('DATA_DIR and DATABASE_URL must name the run’s data directory and database');

const { db, pool, close } = openPostgres(url, { max: 1 });
try {
  await migrateToLatest(db);
  const accounts = benchAccounts();
  const { users, sessions, groups, members, createdAt } = accounts;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO users (id, email, password_hash, first_name, last_name, document_status, created_at)
       SELECT id, email, 'not-a-password-hash', first_name, 'Bench', 'verified', $4
         FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, email, first_name)`,
      [users.map((u) => u.id), users.map((u) => u.email), users.map((u) => u.firstName), createdAt],
    );
    await client.query(
      `INSERT INTO sessions (id, user_id, expires_at, created_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[])`,
      [
        sessions.map((s) => s.id),
        sessions.map((s) => s.userId),
        sessions.map((s) => s.expiresAt),
        sessions.map((s) => s.createdAt),
      ],
    );
    await client.query(
      `INSERT INTO groups (id, name, created_by, created_at)
       SELECT id, name, created_by, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS g(id, name, created_by)`,
      [groups.map((g) => g.id), groups.map((g) => g.name), groups.map((g) => g.createdBy), createdAt],
    );
    await client.query(
      `INSERT INTO group_members (group_id, user_id, joined_at)
       SELECT group_id, user_id, $3 FROM unnest($1::text[], $2::text[]) AS m(group_id, user_id)`,
      [members.map((m) => m.groupId), members.map((m) => m.userId), createdAt],
    );
    await client.query('COMMIT');
    // Statistics for the tables the seed filled, rather than autovacuum's analyze arriving mid-run. Only
    // those: analyzed empty, the message tables, the change log and device_mutations were planned as
    // empty, and the nodes' prepared statements kept sequential scans for their primary-key lookups all
    // run long (auto_explain: 0.3-1.3 ms each over 5,500 messages, the commit lock held meanwhile). Never
    // analyzed, they are planned as tables of unknown size, as a deployment's full ones are by their stats.
    await client.query('ANALYZE users, sessions, groups, group_members');
  } finally {
    client.release();
  }
  writeTokens(dataDir, accounts.tokens);
} finally {
  await close();
}
