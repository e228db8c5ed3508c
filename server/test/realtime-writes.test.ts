import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { REALTIME_ERRORS } from '@campus/protocol';
import { insertUser } from '../src/modules/users/repo';
import { Refusal } from '../src/lib/refusal';
import { sendDirectMessage, sendGroupMessage } from '../src/modules/chat';
import { startTestServer, type TestServer } from './support/test-server';
import { rowsOf } from './support/sql';

let server: TestServer;
let a: string;
let b: string;
let c: string;

async function user(name: string): Promise<string> {
  const row = await insertUser(
    server.deps.db,
    {
      email: `${name}@uni.test`,
      passwordHash: 'x',
      firstName: name,
      lastName: 'T',
      phoneNumber: '1',
      role: 'user',
    },
    Date.now(),
  );
  return row.id;
}

beforeAll(async () => {
  server = await startTestServer();
  a = await user('ann');
  b = await user('bob');
  c = await user('cid');
});
afterAll(() => server.close());

describe('chat writes', () => {
  it('stores a direct message once, with its change-log seq, conversations and unread count', async () => {
    const id = randomUUID();
    const first = await sendDirectMessage(server.deps, a, { id, to: b, content: 'hi' });
    const again = await sendDirectMessage(server.deps, a, { id, to: b, content: 'hi' });
    expect(again.seq).toBe(first.seq);
    const log = await rowsOf<{ seq: number; payload: string }>(server, 'SELECT seq, payload FROM change_log');
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0]!.payload)).toMatchObject({
      type: 'receive_message',
      seq: first.seq,
      message: { id, seq: first.seq },
    });
    const audiences = (await rowsOf<{ audience: string }>(server, 'SELECT audience FROM change_audience'))
      .map((row) => row.audience)
      .sort();
    expect(audiences).toEqual([`u:${a}`, `u:${b}`].sort());
    const unread = await rowsOf(
      server,
      'SELECT user_id, unread_count FROM direct_conversations ORDER BY unread_count',
    );
    expect(unread).toEqual([
      { user_id: a, unread_count: 0 },
      { user_id: b, unread_count: 1 },
    ]);
  });

  it('refuses replies to another pair, self messages, unknown users and non-members', async () => {
    const other = await sendDirectMessage(server.deps, a, { id: randomUUID(), to: c, content: 'x' });
    await expect(
      sendDirectMessage(server.deps, b, { id: randomUUID(), to: a, content: 'r', replyTo: other.id }),
    ).rejects.toThrow(REALTIME_ERRORS.unknownMessage);
    await expect(
      sendDirectMessage(server.deps, a, { id: randomUUID(), to: a, content: 'r' }),
    ).rejects.toThrow(Refusal);
    await expect(
      sendDirectMessage(server.deps, a, { id: randomUUID(), to: 'nobody', content: 'r' }),
    ).rejects.toThrow(REALTIME_ERRORS.unknownUser);
    await expect(
      sendGroupMessage(server.deps, a, { id: randomUUID(), groupId: 'nope', content: 'r' }),
    ).rejects.toThrow(REALTIME_ERRORS.notGroupMember);
  });
});
