/**
 * Prepares our server's database in DATA_DIR before it starts: migrated by the server's own code, then
 * 1,000 verified users with one session each and 50 groups of 20, inserted in one transaction. Sessions
 * are stored as the server stores them (the SHA-256 of the token), and the tokens are written to
 * DATA_DIR/bench-tokens.json for the generator. Direct inserts, not createGroup: creating 50 groups
 * through the API would put 1,000 group_joined changes in the log that no client of the bench needs.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SESSION_TTL_MS } from '@campus/protocol';
import { migrateToLatest, openDatabase } from '../../server/src/lib/db/database';
import { generateSessionToken, sessionIdFromToken } from '../../server/src/lib/auth/session-token';
import { CLIENT_COUNT, firstName, GROUP_SIZE, groupId, userId } from '../shared/population';

const dataDir = process.env.DATA_DIR;
// BENCH_CLIENT_COUNT: more users (a multiple of 20) for reconnect-storm.ts; the benchmark's 1,000 otherwise.
const clientCount = Number(process.env.BENCH_CLIENT_COUNT ?? CLIENT_COUNT);
const groupCount = Math.ceil(clientCount / GROUP_SIZE);
if (!dataDir) throw new Error('DATA_DIR must name the temp data directory of the run');

const { db, sqlite, close } = openDatabase(path.join(dataDir, 'campus-talk.sqlite'));
await migrateToLatest(db);

const now = Date.now();
const createdAt = new Date(now).toISOString();
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

const tokens: string[] = [];
sqlite.transaction(() => {
  for (let i = 0; i < clientCount; i++) {
    insertUser.run(userId(i), `${userId(i)}@bench.campustalk.local`, firstName(i), createdAt);
    const token = generateSessionToken();
    insertSession.run(sessionIdFromToken(token), userId(i), now + SESSION_TTL_MS, now);
    tokens.push(token);
  }
  for (let g = 0; g < groupCount; g++) {
    insertGroup.run(groupId(g), `Study group ${g}`, userId(g * GROUP_SIZE), createdAt);
    for (let m = 0; m < GROUP_SIZE; m++) insertMember.run(groupId(g), userId(g * GROUP_SIZE + m), createdAt);
  }
})();
await close();

writeFileSync(path.join(dataDir, 'bench-tokens.json'), JSON.stringify(tokens));
