import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DirectMessage, UserRef } from '@campus/protocol';
import type { SyncClient } from '../src';
import { FakeServer, waitFor } from './support/fake-server';
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
    return await c.sendDirectMessage(to, text);
  } finally {
    vi.useRealTimers();
  }
}

const top = async (c: SyncClient) =>
  (await c.db.conversations.orderBy('lastMessageTimestamp').reverse().first())?.id;

describe('conversation list with a skewed device clock', () => {
  it('follows server order when the clock is fast: replies become the snippet and move the chat up', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    client.start();
    await waitFor(() => client!.getState().status === 'online');

    const mine = await sendSkewed(client, BO, 'mine, 3 min in the future', 3 * 60_000);
    expect((await client.db.conversations.get(BO.id))?.lastMessageSnippet).toBe('mine, 3 min in the future');
    await waitFor(async () => expect((await client!.db.messages.get(mine))?.status).toBe('sent'));

    server.emit({ type: 'receive_message', seq: 0, message: fromServer(CY, 'from cy') });
    await waitFor(async () => expect(await top(client!)).toBe(CY.id));
    server.emit({ type: 'receive_message', seq: 0, message: fromServer(BO, 'bo replies') });
    await waitFor(async () =>
      expect((await client!.db.conversations.get(BO.id))?.lastMessageSnippet).toBe('bo replies'),
    );
    expect(await top(client)).toBe(BO.id);
  });

  it('a message written with a slow clock is the snippet and moves its chat to the top while pending', async () => {
    const server = new FakeServer(ME);
    client = makeClient(server);
    client.start();
    await waitFor(() => client!.getState().status === 'online');
    server.emit({ type: 'receive_message', seq: 0, message: fromServer(BO, 'from bo') });
    server.emit({ type: 'receive_message', seq: 0, message: fromServer(CY, 'from cy') });
    await waitFor(async () => expect(await top(client!)).toBe(CY.id));

    server.answering = false; // stays pending
    await sendSkewed(client, BO, 'written offline', -10 * 60_000);
    expect((await client.db.conversations.get(BO.id))?.lastMessageSnippet).toBe('written offline');
    expect(await top(client)).toBe(BO.id);
  });
});
