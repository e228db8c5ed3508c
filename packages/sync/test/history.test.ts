import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncClient } from '../src';
import { BO, ME, incoming, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

const TOKEN = 'session-token-0123456789';

/** A device that never connects: only its REST loads are tested here, against a stubbed fetch. */
function clientWithFetch(fetchImpl: typeof fetch): SyncClient {
  return makeClient(undefined, fetchImpl);
}

describe('history through REST', () => {
  it('asks for a page of 30 with the bearer token and stores it without lowering known statuses', async () => {
    const page = [incoming(BO, 'newest'), incoming(BO, 'older', { status: 'delivered' })];
    const calls: { url: string; auth: string | null }[] = [];
    client = clientWithFetch(async (input, init) => {
      calls.push({ url: String(input), auth: new Headers(init?.headers).get('authorization') });
      return new Response(JSON.stringify(page), { status: 200 });
    });
    await client.db.messages.put({ ...page[1]!, status: 'read', peerId: BO.id });
    expect(await client.loadDirectPage(BO.id, 2)).toBe(2);
    expect(calls).toEqual([
      {
        url: `http://campus.test/api/chat/${BO.id}?page=2&limit=30`,
        auth: `Bearer ${TOKEN}`,
      },
    ]);
    expect((await client.db.messages.get(page[0]!.id))?.peerId).toBe(BO.id);
    expect((await client.db.messages.get(page[1]!.id))?.status).toBe('read');
    // History does not count as new unread messages.
    expect(await client.db.conversations.count()).toBe(0);
  });

  it('does not overwrite what sync already applied: newer reactions stay, only missing messages are added', async () => {
    const known = incoming(BO, 'known', { seq: 5, reactions: [] });
    const fresh = incoming(BO, 'older, not cached', { seq: 3 });
    const group = {
      id: 'gm-1',
      from: BO,
      group: 'g1',
      content: 'group known',
      timestamp: known.timestamp,
      attachmentUrl: null,
      attachmentType: null,
      status: 'sent' as const,
      seq: 7,
    };
    client = clientWithFetch(async (input) => {
      // A page read before the reactions were made.
      const body = String(input).includes('/api/groups/')
        ? [{ ...group, content: 'stale copy' }]
        : [known, fresh];
      return new Response(JSON.stringify(body), { status: 200 });
    });
    const reactions = [
      { emoji: '👍', userId: BO.id },
      { emoji: '🔥', userId: ME.id },
    ];
    await client.db.messages.put({ ...known, reactions, peerId: BO.id });
    await client.db.groupMessages.put({ ...group, content: 'group known' });
    expect(await client.loadDirectPage(BO.id, 1)).toBe(2);
    expect((await client.db.messages.get(known.id))?.reactions).toEqual(reactions);
    expect((await client.db.messages.get(fresh.id))?.content).toBe('older, not cached');
    expect(await client.loadGroupPage('g1', 1)).toBe(1);
    expect((await client.db.groupMessages.get('gm-1'))?.content).toBe('group known');
  });

  it("throws the spec's messages when a page cannot be loaded", async () => {
    client = clientWithFetch(async () => new Response('{}', { status: 500 }));
    await expect(client.loadDirectPage(BO.id, 1)).rejects.toThrow('Failed to fetch initial messages.');
    await expect(client.loadDirectPage(BO.id, 3)).rejects.toThrow('Failed to fetch older messages.');
    await expect(client.loadGroupPage('g1', 1)).rejects.toThrow('Error fetching group chat history.');
    await client.stop();
    client = clientWithFetch(async () => {
      throw new TypeError('network down');
    });
    await expect(client.loadDirectPage(BO.id, 1)).rejects.toThrow('Error loading chat history.');
    await expect(client.loadDirectPage(BO.id, 2)).rejects.toThrow('Error loading older messages.');
  });
});
