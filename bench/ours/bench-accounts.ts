import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SESSION_TTL_MS } from '@campus/protocol';
import { generateSessionToken, sessionIdFromToken } from '../../server/src/lib/auth/session-token';
import { CLIENT_COUNT, firstName, GROUP_SIZE, groupId, userId } from '../shared/population';

/**
 * The rows the benchmark's database starts with, whichever database it is (seed.ts for SQLite,
 * seed-postgres.ts): verified users with one session each, and groups of 20. Sessions are stored as the
 * server stores them (the SHA-256 of the token); the tokens themselves go to the generator.
 */
export interface BenchAccounts {
  createdAt: string;
  users: { id: string; email: string; firstName: string }[];
  sessions: { id: string; userId: string; expiresAt: number; createdAt: number }[];
  groups: { id: string; name: string; createdBy: string }[];
  members: { groupId: string; userId: string }[];
  /** Session tokens by user index. */
  tokens: string[];
}

// BENCH_CLIENT_COUNT: more users (a multiple of 20) for reconnect-storm.ts; the benchmark's 1,000 otherwise.
export function benchAccounts(
  clientCount = Number(process.env.BENCH_CLIENT_COUNT ?? CLIENT_COUNT),
): BenchAccounts {
  const now = Date.now();
  const accounts: BenchAccounts = {
    createdAt: new Date(now).toISOString(),
    users: [],
    sessions: [],
    groups: [],
    members: [],
    tokens: [],
  };
  for (let i = 0; i < clientCount; i++) {
    accounts.users.push({
      id: userId(i),
      email: `${userId(i)}@bench.campustalk.local`,
      firstName: firstName(i),
    });
    const token = generateSessionToken();
    accounts.sessions.push({
      id: sessionIdFromToken(token),
      userId: userId(i),
      expiresAt: now + SESSION_TTL_MS,
      createdAt: now,
    });
    accounts.tokens.push(token);
  }
  for (let g = 0; g < Math.ceil(clientCount / GROUP_SIZE); g++) {
    accounts.groups.push({ id: groupId(g), name: `Study group ${g}`, createdBy: userId(g * GROUP_SIZE) });
    for (let m = 0; m < GROUP_SIZE; m++)
      accounts.members.push({ groupId: groupId(g), userId: userId(g * GROUP_SIZE + m) });
  }
  return accounts;
}

/** DATA_DIR/bench-tokens.json, which run.ts hands the generator. */
export function writeTokens(dataDir: string, tokens: readonly string[]): string {
  const file = path.join(dataDir, 'bench-tokens.json');
  writeFileSync(file, JSON.stringify(tokens));
  return file;
}
