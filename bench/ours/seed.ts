/**
 * Prepares our server's SQLite database in DATA_DIR before it starts: migrated by the server's own code,
 * then bench-accounts.ts's users, sessions and groups inserted in one transaction, and the tokens written to
 * DATA_DIR/bench-tokens.json for the generator. Direct inserts, not createGroup: creating 50 groups
 * through the API would put 1,000 group_joined changes in the log that no client of the bench needs.
 */
import path from 'node:path';
import { migrateToLatest, openDatabase } from '../../server/src/lib/db/database';
import { benchAccounts, writeTokens } from './bench-accounts';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR must name the temp data directory of the run');

const { db, sqlite, close } = openDatabase(path.join(dataDir, 'campus-talk.sqlite'));
await migrateToLatest(db);

const accounts = benchAccounts();
const insertUser = sqlite.prepare(
  `INSERT INTO users (id, email, password_hash, first_name, last_name, document_status, created_at)
   VALUES (?, ?, 'not-a-password-hash', ?, 'Bench', 'verified', ?)`,
);
const insertSession = sqlite.prepare(
  'INSERT INTO sessions (id, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)',
);
const insertGroup = sqlite.prepare(
  'INSERT INTO groups (id, name, created_by, created_at) VALUES (?, ?, ?, ?)',
);
const insertMember = sqlite.prepare(
  'INSERT INTO group_members (group_id, user_id, joined_at) VALUES (?, ?, ?)',
);

sqlite.transaction(() => {
  for (const user of accounts.users) insertUser.run(user.id, user.email, user.firstName, accounts.createdAt);
  for (const s of accounts.sessions) insertSession.run(s.id, s.userId, s.expiresAt, s.createdAt);
  for (const group of accounts.groups)
    insertGroup.run(group.id, group.name, group.createdBy, accounts.createdAt);
  for (const member of accounts.members) insertMember.run(member.groupId, member.userId, accounts.createdAt);
})();
await close();

writeTokens(dataDir, accounts.tokens);
