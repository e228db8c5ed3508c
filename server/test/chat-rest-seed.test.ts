import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ConversationItem, DirectMessage, FeedResponse, GroupMessage } from '@campus/protocol';
import { rowsOf } from './support/sql';
import { cliEnvFor, startTestServer } from './support/test-server';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-seed-chat-'));
const serverDir = fileURLToPath(new URL('..', import.meta.url));
/** DATA_DIR, and under TEST_DATABASE=postgres the DATABASE_URL of the schema servers on it use. */
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  env = { ...process.env, ...(await cliEnvFor(dataDir)), NODE_ENV: 'test' };
});
const seed = () =>
  execFileSync(path.join(serverDir, 'node_modules/.bin/tsx'), ['src/cli/seed.ts'], {
    cwd: serverDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
    encoding: 'utf8',
  });

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

it('pnpm seed adds a demo chat, a demo group and demo confessions once, readable through the API', async () => {
  expect(seed()).toContain('Demo chat added');
  expect(seed()).not.toContain('Demo chat added');

  const server = await startTestServer({ config: { dataDir } });
  try {
    const login = await server.post('/api/auth/login', {
      email: 'alex@campustalk.test',
      password: 'student-demo-123',
    });
    const token = login.body.token as string;
    const conversations = (await server.get('/api/conversations', token))
      .body as unknown as ConversationItem[];
    expect(conversations.map((c) => c.name)).toEqual(['Hackathon Team', 'Priya Sharma']);
    expect(conversations[0]).toMatchObject({ isGroup: true, unreadCount: 2 });
    expect(conversations[1]).toMatchObject({
      unreadCount: 2,
      lastMessageSnippet: 'Deal. Sharing my notes here: h...',
    });

    const priya = conversations[1]!.id;
    const chat = (await server.get(`/api/chat/${priya}`, token)).body as unknown as DirectMessage[];
    expect(chat).toHaveLength(4);
    expect(chat[3]!.content).toMatch(/^Hey Priya!/);
    const times = chat.map((m) => Date.parse(m.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const group = (await server.get(`/api/groups/${conversations[0]!.id}/messages`, token))
      .body as unknown as GroupMessage[];
    expect(group.map((m) => m.from.firstName)).toEqual(['Priya', 'Sam', 'Alex']);
    const log = await rowsOf<{ type: string; n: number }>(
      server,
      'SELECT type, count(*) AS n FROM change_log GROUP BY type',
    );
    // Sorted here: the database's collation may order text otherwise.
    expect(log.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0))).toEqual([
      // Each demo confession's counts after its reaction or comment (coalesced, flushed before the seed exits).
      { type: 'confession_counts', n: 2 },
      // Two demo confessions: each told to everyone, and to its author that it is theirs.
      { type: 'confession_mine', n: 2 },
      { type: 'confession_posted', n: 2 },
      { type: 'group_joined', n: 1 },
      // Alex's reaction to Priya's confession and Priya's comment on Alex's.
      { type: 'notification_created', n: 2 },
      { type: 'receive_group_message', n: 3 },
      { type: 'receive_message', n: 4 },
    ]);
    const feed = (await server.get('/api/confessions/feed', token)).body as unknown as FeedResponse;
    expect(feed.confessions.map((c) => c.nickname)).toEqual(['night_owl', 'chai_and_charts']);
    expect(feed.confessions.map((c) => c.isMine)).toEqual([true, false]);
    expect(feed.confessions[0]!.comments.map((c) => c.content)).toEqual(['Same energy every semester 😅']);
  } finally {
    await server.stop();
  }
}, 60_000);
