import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DirectMessage, UserRef } from '@campus/protocol';
import { writeDirectMessage, type SyncClient } from '../src';
import { ack, deliver } from './support/engine';
import { BO, CY, ME, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await client?.stop();
  client = undefined;
});

/** A message stamped by the server's (correct) clock. */
function fromServer(from: UserRef, content: string): DirectMessage {
  return {
    id: crypto.randomUUID(),
    from,
    to: ME,
    content,
    timestamp: new Date().toISOString(),
    status: 'sent',
    attachmentUrl: null,
    attachmentType: null,
    replyTo: null,
    reactions: [],
  };
}

/** Sends with the device clock `offsetMs` off, as a phone with a wrong clock would. */
async function sendSkewed(c: SyncClient, to: UserRef, text: string, offsetMs: number): Promise<string> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + offsetMs });
  try {
    return await c.run(writeDirectMessage, to, text);
  } finally {
    vi.useRealTimers();
  }
}

const top = async (c: SyncClient) =>
  (await c.db.conversations.orderBy('lastMessageTimestamp').reverse().first())?.id;

describe('conversation list with a skewed device clock', () => {
  it('follows server order when the clock is fast: replies become the snippet and move the chat up', async () => {
    client = makeClient();

    const mine = await sendSkewed(client, BO, 'mine, 3 min in the future', 3 * 60_000);
    expect((await client.db.conversations.get(BO.id))?.lastMessageSnippet).toBe('mine, 3 min in the future');
    // The server stores it (its own clock, its seq) and acknowledges it.
    const stored = await client.db.messages.get(mine);
    await deliver(client, [
      {
        type: 'receive_message',
        message: { ...stored!, timestamp: new Date().toISOString(), status: 'sent' },
      },
    ]);
    await ack(client);
    expect((await client.db.messages.get(mine))?.status).toBe('sent');

    await deliver(client, [{ type: 'receive_message', message: fromServer(CY, 'from cy') }]);
    expect(await top(client)).toBe(CY.id);
    await deliver(client, [{ type: 'receive_message', message: fromServer(BO, 'bo replies') }]);
    expect((await client.db.conversations.get(BO.id))?.lastMessageSnippet).toBe('bo replies');
    expect(await top(client)).toBe(BO.id);
  });

  it('a message written with a slow clock is the snippet and moves its chat to the top while pending', async () => {
    client = makeClient();
    await deliver(client, [{ type: 'receive_message', message: fromServer(BO, 'from bo') }]);
    await deliver(client, [{ type: 'receive_message', message: fromServer(CY, 'from cy') }]);
    expect(await top(client)).toBe(CY.id);

    // Never acknowledged: it stays pending.
    await sendSkewed(client, BO, 'written offline', -10 * 60_000);
    expect((await client.db.conversations.get(BO.id))?.lastMessageSnippet).toBe('written offline');
    expect(await top(client)).toBe(BO.id);
  });
});
