import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { REALTIME_ERRORS } from '@campus/protocol';
import { insertUser } from '../src/modules/users/repo';
import { ChatRefusal, storeDirectMessage, storeGroupMessage } from '../src/modules/chat/writes';
import { startTestServer, type TestServer } from './support/test-server';

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
  it('stores a direct message once, with its change-log seq, conversations and unread count', () => {
    const id = randomUUID();
    const first = storeDirectMessage(server.deps, a, { id, to: b, content: 'hi' });
    const again = storeDirectMessage(server.deps, a, { id, to: b, content: 'hi' });
    expect(again.seq).toBe(first.seq);
    const log = server.deps.sqlite.prepare('SELECT seq, payload FROM change_log').all() as {
      seq: number;
      payload: string;
    }[];
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0]!.payload)).toMatchObject({
      type: 'receive_message',
      seq: first.seq,
      message: { id, seq: first.seq },
    });
    const audiences = server.deps.sqlite
      .prepare('SELECT audience FROM change_audience ORDER BY audience')
      .pluck()
      .all();
    expect(audiences).toEqual([`u:${a}`, `u:${b}`].sort());
    const unread = server.deps.sqlite
      .prepare('SELECT user_id, unread_count FROM direct_conversations ORDER BY unread_count')
      .all();
    expect(unread).toEqual([
      { user_id: a, unread_count: 0 },
      { user_id: b, unread_count: 1 },
    ]);
  });

  it('refuses replies to another pair, self messages, unknown users and non-members', () => {
    const other = storeDirectMessage(server.deps, a, { id: randomUUID(), to: c, content: 'x' });
    expect(() =>
      storeDirectMessage(server.deps, b, { id: randomUUID(), to: a, content: 'r', replyTo: other.id }),
    ).toThrow(REALTIME_ERRORS.unknownMessage);
    expect(() => storeDirectMessage(server.deps, a, { id: randomUUID(), to: a, content: 'r' })).toThrow(
      ChatRefusal,
    );
    expect(() =>
      storeDirectMessage(server.deps, a, { id: randomUUID(), to: 'nobody', content: 'r' }),
    ).toThrow(REALTIME_ERRORS.unknownUser);
    expect(() =>
      storeGroupMessage(server.deps, a, { id: randomUUID(), groupId: 'nope', content: 'r' }),
    ).toThrow(REALTIME_ERRORS.notGroupMember);
  });
});
