import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Group } from '@campus/protocol';
import type { SyncClient } from '../src';
import { deliver } from './support/engine';
import { BO, CY, ME, incoming, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

const NEW_BO = { ...BO, profilePictureUrl: '/files/avatars/user-bo?v=new' };

describe('user_updated', () => {
  it("puts a contact's new card in the users list, their conversation row, groups and cached messages, idempotently", async () => {
    const c = (client = makeClient());
    const group: Group = {
      id: 'g1',
      name: 'Study',
      avatarUrl: null,
      createdBy: ME.id,
      members: [ME, BO, CY],
      createdAt: '2026-11-23T09:00:00.000Z',
    };
    await c.db.users.bulkPut([
      { ...BO, lastActiveAt: '2026-11-23T08:00:00.000Z' },
      { ...CY, lastActiveAt: null },
    ]);
    await c.db.groups.put(group);
    await deliver(c, [
      { type: 'receive_message', message: incoming(BO, 'hi') },
      { type: 'receive_message', message: incoming(CY, 'yo') },
    ]);
    const mine = { ...incoming(ME, 'back'), from: ME, to: BO };
    await deliver(c, [{ type: 'receive_message', message: mine }]);

    for (let i = 0; i < 2; i++) await deliver(c, [{ type: 'user_updated', user: NEW_BO }]);

    expect(await c.db.users.get(BO.id)).toEqual({ ...NEW_BO, lastActiveAt: '2026-11-23T08:00:00.000Z' });
    expect(await c.db.users.get(CY.id)).toEqual({ ...CY, lastActiveAt: null });
    expect(await c.db.conversations.get(BO.id)).toMatchObject({
      name: 'Bo Kim',
      avatarUrl: NEW_BO.profilePictureUrl,
      lastMessageSnippet: 'back',
    });
    expect((await c.db.conversations.get(CY.id))?.avatarUrl).toBeNull();
    expect((await c.db.groups.get('g1'))?.members).toEqual([ME, NEW_BO, CY]);
    const boChat = await c.db.messages.where('peerId').equals(BO.id).toArray();
    expect(boChat).toHaveLength(2);
    for (const m of boChat) {
      expect([m.from, m.to]).toContainEqual(NEW_BO);
      expect([m.from, m.to]).toContainEqual(ME);
    }
    const cyChat = await c.db.messages.where('peerId').equals(CY.id).toArray();
    expect(cyChat.map((m) => m.from)).toEqual([CY]);
  });

  it('a card of someone not cached adds nothing', async () => {
    const c = (client = makeClient());
    await deliver(c, [{ type: 'user_updated', user: NEW_BO }]);
    expect(await c.db.users.count()).toBe(0);
    expect(await c.db.conversations.count()).toBe(0);
    expect(await c.db.meta.get('sync.cursor')).toMatchObject({ value: 1 });
  });
});
