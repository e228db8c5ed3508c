import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CHAT_MSG } from '@campus/protocol';
import {
  directMessage,
  FakeSyncClient,
  ME,
  minutesAgo,
  renderChat,
  SAM,
  seedPartner,
  yesterdayNoon,
} from './chat-kit';
import { mockServer } from './helpers';

// Noon today, moving on as real time does (only Date is faked; timers stay real): the day separators and the
// 'Active 30 minutes ago' text need 'a few minutes ago' to be today, which it is not just after midnight
// (the fresh-clone CI at 00:06 saw 'Active yesterday at 11:36 PM', as the spec says it should).
beforeEach(() => {
  const noon = new Date();
  noon.setHours(12, 0, 0, 0);
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: noon });
});
afterEach(() => {
  vi.useRealTimers();
});

const log = () => screen.getByRole('log');
const texts = () => Array.from(log().querySelectorAll('.message__text')).map((node) => node.textContent);

async function openChat(client: FakeSyncClient) {
  mockServer({});
  renderChat(client, `/chat/${SAM.id}`);
  await screen.findByRole('heading', { name: 'Sam Lee' });
}

describe('direct chat messages', () => {
  it('shows messages in server order with date separators and the ticks of own messages', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await client.db.messages.bulkPut([
      directMessage('m4', ME, SAM, 'fourth (read)', minutesAgo(3), { seq: 40, status: 'read' }),
      directMessage('m1', SAM, ME, 'first, yesterday', yesterdayNoon(0), { seq: 10 }),
      directMessage('m3', ME, SAM, 'third (delivered)', minutesAgo(4), { seq: 30, status: 'delivered' }),
      directMessage('m2', ME, SAM, 'second, yesterday', yesterdayNoon(5), { seq: 20, status: 'sent' }),
      directMessage('m5', ME, SAM, 'fifth (sending)', minutesAgo(1), { status: 'sending' }),
    ]);
    await openChat(client);

    await waitFor(() =>
      expect(texts()).toEqual([
        'first, yesterday',
        'second, yesterday',
        'third (delivered)',
        'fourth (read)',
        'fifth (sending)',
      ]),
    );
    const separators = Array.from(log().querySelectorAll('.date-separator')).map((node) => node.textContent);
    expect(separators).toEqual(['Yesterday', 'Today']);
    expect(within(log()).getAllByRole('img', { name: 'Sent' })).toHaveLength(1);
    expect(within(log()).getAllByRole('img', { name: 'Delivered' })).toHaveLength(1);
    expect(within(log()).getAllByRole('img', { name: 'Read' })).toHaveLength(1);
    expect(within(log()).getAllByRole('img', { name: 'Sending' })).toHaveLength(1);
    // The partner's message carries no ticks.
    const partnerRow = screen.getByText('first, yesterday').closest('.message');
    expect(partnerRow?.querySelector('.ticks')).toBeNull();
    await waitFor(() => expect(client.callsOf('joinChat')).toEqual([[SAM.id]]));
  });

  it('asks to mark the partner’s unread messages read, once each', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await client.db.messages.bulkPut([
      directMessage('a', SAM, ME, 'hi', minutesAgo(5), { seq: 1, status: 'delivered' }),
      directMessage('b', SAM, ME, 'there', minutesAgo(4), { seq: 2, status: 'sent' }),
      directMessage('c', SAM, ME, 'old', minutesAgo(6), { seq: 0, status: 'read' }),
      directMessage('d', ME, SAM, 'mine', minutesAgo(3), { seq: 3, status: 'delivered' }),
    ]);
    await openChat(client);
    await waitFor(() => expect(client.callsOf('writeMarkRead')).toEqual([[SAM.id, ['a', 'b']]]));
    await client.db.messages.put(directMessage('e', SAM, ME, 'new one', minutesAgo(0), { seq: 4 }));
    await waitFor(() =>
      expect(client.callsOf('writeMarkRead')).toEqual([
        [SAM.id, ['a', 'b']],
        [SAM.id, ['e']],
      ]),
    );
  });

  it('renders links as safe anchors and markup as plain text', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    const text =
      'see https://example.com/a?b=1. <script>alert(1)</script> <img src=x onerror=alert(2)> javascript:alert(3)';
    await client.db.messages.put(directMessage('x', SAM, ME, text, minutesAgo(1), { seq: 1 }));
    await openChat(client);

    const link = await screen.findByRole('link', { name: 'https://example.com/a?b=1' });
    expect(link.getAttribute('href')).toBe('https://example.com/a?b=1');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(within(log()).getAllByRole('link')).toHaveLength(1);
    expect(document.querySelector('script, .message img')).toBeNull();
    expect(log().textContent).toContain('<script>alert(1)</script>');
    expect(log().textContent).toContain('javascript:alert(3)');
  });

  it('shows a failed message with its reason, Retry and Discard', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await client.db.messages.put(
      directMessage('f', ME, SAM, 'too much', minutesAgo(1), {
        status: 'failed',
        error: 'Message is too long.',
      }),
    );
    await openChat(client);
    const alert = await screen.findByText('Message is too long.');
    const failure = alert.closest('.message__failure') as HTMLElement;
    fireEvent.click(within(failure).getByRole('button', { name: 'Retry' }));
    fireEvent.click(within(failure).getByRole('button', { name: 'Discard' }));
    expect(client.callsOf('writeRetry')).toEqual([['f']]);
    expect(client.callsOf('writeDiscard')).toEqual([['f']]);
  });

  it('shows message_error frames that are not rejected writes inline, in red text', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await openChat(client);
    await client.emitError({
      type: 'message_error',
      code: 'unknownUser',
      error: 'That user does not exist.',
      context: 'join_chat',
    });
    await client.emitError({
      type: 'message_error',
      code: 'invalid',
      error: 'Rejected write',
      context: 'send_message',
      deviceId: 'd',
      mid: 3,
    });
    await client.emitError({
      type: 'message_error',
      code: 'invalid',
      error: 'Other group',
      context: 'group',
      groupId: 'g-1',
    });
    expect((await screen.findByRole('alert')).textContent).toBe('That user does not exist.');
    expect(screen.queryByText('Rejected write')).toBeNull();
    expect(screen.queryByText('Other group')).toBeNull();
  });

  it('shows the reason of a refused reaction or read mark inline (nothing else shows them failed)', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await openChat(client);
    await client.emitError({
      type: 'message_error',
      code: 'unknownMessage',
      error: 'Message not found.',
      context: 'chat-reaction',
      deviceId: 'd',
      mid: 4,
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Message not found.');
    await client.emitError({
      type: 'message_error',
      code: 'rateLimited',
      error: 'Too many requests.',
      context: 'mark_messages_as_read',
      deviceId: 'd',
      mid: 5,
    });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Too many requests.'));
  });
});

describe('the direct chat header', () => {
  it('shows typing..., otherwise the last-active text', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client, SAM, minutesAgo(30));
    await openChat(client);
    expect(screen.getByText('Active 30 minutes ago')).toBeTruthy();

    client.setState({ online: new Set([SAM.id]) });
    expect(await screen.findByText('Active now')).toBeTruthy();

    client.setState({ typing: new Map([[`u:${SAM.id}`, [SAM.id]]]) });
    expect(await screen.findByText('typing...')).toBeTruthy();
    expect(screen.queryByText('Active now')).toBeNull();

    client.setState({ typing: new Map([['u:someone-else', ['someone-else']]]) });
    expect(await screen.findByText('Active now')).toBeTruthy();
  });

  it('fetches the partner when the cache does not know them', async () => {
    const client = new FakeSyncClient();
    mockServer({
      'GET /api/users/u-sam': () => ({
        status: 200,
        body: {
          ...SAM,
          college: null,
          course: null,
          year: null,
          bio: null,
          lastActiveAt: null,
        },
      }),
    });
    renderChat(client, `/chat/${SAM.id}`);
    expect(await screen.findByRole('heading', { name: 'Sam Lee' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Talk' }).getAttribute('href')).toBe('/talk');
    // A stranger's profile carries no last-active time (server: contacts only): the status line stays empty.
    expect(document.querySelector('.chat-header__status')?.textContent).toBe('');
  });
});

describe('loading history', () => {
  async function seedMany(client: FakeSyncClient, count: number, startSeq = 100) {
    await client.db.messages.bulkPut(
      Array.from({ length: count }, (_, i) =>
        directMessage(
          `h${startSeq + i}`,
          SAM,
          ME,
          `msg ${startSeq + i}`,
          minutesAgo(200 - (startSeq + i - 100)),
          {
            seq: startSeq + i,
            status: 'read',
          },
        ),
      ),
    );
  }

  it('shows a message pending since before the newest 30 (slow device clock) at the bottom, and server order above it', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await seedMany(client, 40);
    // Written offline on a device whose clock is hours behind; and a stored message whose time is off.
    await client.db.messages.bulkPut([
      directMessage('pending', ME, SAM, 'sent from a slow clock', minutesAgo(600), { status: 'sending' }),
      directMessage('failed', ME, SAM, 'refused one', minutesAgo(601), { status: 'failed' }),
      directMessage('skewed', ME, SAM, 'stored, odd time', minutesAgo(900), { seq: 200, status: 'sent' }),
    ]);
    await openChat(client);
    await waitFor(() =>
      expect(texts().slice(-3)).toEqual(['stored, odd time', 'refused one', 'sent from a slow clock']),
    );
    expect(texts()).toHaveLength(32);
    expect(texts()[0]).toBe('msg 111');
  });

  it('fetches page 1 when the cache has fewer than 30 and shows no load-older button', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await seedMany(client, 29);
    client.directPages = async () => 29;
    await openChat(client);
    await waitFor(() => expect(texts()).toHaveLength(29));
    await waitFor(() => expect(client.callsOf('loadDirectPage')).toEqual([[SAM.id, 1]]));
    expect(screen.queryByRole('button', { name: 'Load older messages' })).toBeNull();
  });

  it('shows load-older at 30 messages and loads the next page with it', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await seedMany(client, 30);
    client.directPages = async (_partner, page) => {
      if (page !== 2) return 0;
      await seedMany(client, 5, 90);
      return 5;
    };
    await openChat(client);
    const button = await screen.findByRole('button', { name: 'Load older messages' });
    expect(client.callsOf('loadDirectPage')).toEqual([]);
    fireEvent.click(button);
    await waitFor(() => expect(texts()).toHaveLength(35));
    expect(texts()[0]).toBe('msg 90');
    expect(client.callsOf('loadDirectPage')).toEqual([[SAM.id, 2]]);
    // A page under 30 means there is nothing older.
    expect(screen.queryByRole('button', { name: 'Load older messages' })).toBeNull();
  });

  it('shows the spec’s error when the first page cannot be fetched', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    client.directPages = async () => {
      throw new Error(CHAT_MSG.initialMessagesFailed);
    };
    await openChat(client);
    expect((await screen.findByRole('alert')).textContent).toBe(CHAT_MSG.initialMessagesFailed);
  });
});
