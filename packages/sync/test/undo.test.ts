import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { REALTIME_ERRORS } from '@campus/protocol';
import { writeMarkRead, writeReaction, type SyncClient } from '../src';
import { deliver, refuse } from './support/engine';
import { BO, ME, incoming, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

/** A device with one message from Bo; the test plays the server's answers. */
async function setup() {
  const c = makeClient();
  client = c;
  const message = incoming(BO, 'hi');
  await deliver(c, [{ type: 'receive_message', message }]);
  return { c, messageId: message.id };
}

const unknown = REALTIME_ERRORS.unknownMessage;

describe('undo of refused writes', () => {
  it('a refused reaction takes back only my own: the partner’s reaction made meanwhile stays', async () => {
    const { c, messageId } = await setup();
    await c.run(writeReaction, messageId, '🔥', BO.id);
    await deliver(c, [{ type: 'chat-reaction', messageId, emoji: '👍', fromUserId: BO.id, toUserId: ME.id }]);
    expect((await c.db.messages.get(messageId))?.reactions).toHaveLength(2);

    await refuse(c, unknown, undefined, 'unknownMessage');
    expect(await c.db.outbox.count()).toBe(0);
    expect((await c.db.messages.get(messageId))?.reactions).toEqual([{ emoji: '👍', userId: BO.id }]);
  });

  it('a refused reaction leaves my newer queued reaction in place, and restores my previous one otherwise', async () => {
    const { c, messageId } = await setup();
    await c.run(writeReaction, messageId, '🔥', BO.id);
    await c.run(writeReaction, messageId, '😂', BO.id);
    const [first, second] = await c.db.outbox.orderBy('key').toArray();

    await refuse(c, unknown, (row) => row.key === first!.key, 'unknownMessage');
    expect(await c.db.outbox.count()).toBe(1);
    expect((await c.db.messages.get(messageId))?.reactions).toEqual([{ emoji: '😂', userId: ME.id }]);

    // The last one refused too: my reaction before it (🔥, as far as this device knows) comes back.
    await refuse(c, unknown, (row) => row.key === second!.key, 'unknownMessage');
    expect(await c.db.outbox.count()).toBe(0);
    expect((await c.db.messages.get(messageId))?.reactions).toEqual([{ emoji: '🔥', userId: ME.id }]);
  });

  it('a refused read mark adds its messages back to the unread count as it is now', async () => {
    const { c, messageId } = await setup();
    const second = incoming(BO, 'two');
    await deliver(c, [{ type: 'receive_message', message: second }]);
    expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(2);
    await c.run(writeMarkRead, BO.id, [messageId, second.id]);
    expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(0);
    expect(await c.db.outbox.count()).toBe(1);

    await deliver(c, [{ type: 'receive_message', message: incoming(BO, 'three') }]);
    expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(1);
    await refuse(c, unknown, undefined, 'unknownMessage');
    expect(await c.db.outbox.count()).toBe(0);
    expect((await c.db.conversations.get(BO.id))?.unreadCount).toBe(3);
    expect((await c.db.messages.get(messageId))?.status).toBe('sent');
  });
});
