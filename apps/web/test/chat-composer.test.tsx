import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CHAT_SERVER_MSG } from '@campus/protocol';
import { directMessage, FakeSyncClient, ME, minutesAgo, renderChat, SAM, seedPartner } from './chat-kit';
import { mockServer } from './helpers';

const composer = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;

async function openChat(client: FakeSyncClient) {
  mockServer({});
  renderChat(client, `/chat/${SAM.id}`);
  await screen.findByRole('heading', { name: 'Sam Lee' });
}

function rowOf(text: string): HTMLElement {
  return screen.getByText(text).closest('.message') as HTMLElement;
}

describe('the composer', () => {
  it('sends the trimmed text on Enter, keeps Shift+Enter for a new line, and ignores blank text', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await openChat(client);

    fireEvent.change(composer(), { target: { value: '   ' } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    expect(client.callsOf('writeDirectMessage')).toEqual([]);

    fireEvent.change(composer(), { target: { value: 'line one' } });
    // Not cancelled: the browser inserts the new line itself.
    expect(fireEvent.keyDown(composer(), { key: 'Enter', shiftKey: true })).toBe(true);
    expect(client.callsOf('writeDirectMessage')).toEqual([]);

    fireEvent.change(composer(), { target: { value: '  line one\nline two  ' } });
    expect(fireEvent.keyDown(composer(), { key: 'Enter' })).toBe(false);
    expect(client.callsOf('writeDirectMessage')).toEqual([
      [expect.objectContaining({ id: SAM.id }), 'line one\nline two', null],
    ]);
    expect(composer().value).toBe('');
    // The optimistic message shows at once, as sending, and stays enabled for the next one.
    expect(await screen.findByRole('img', { name: 'Sending' })).toBeTruthy();
    expect(composer().disabled).toBe(false);
  });

  it('emits typing on the first keystroke, stop_typing after 2 s idle, and stops on send', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await openChat(client);
    // Real timers: Dexie's live queries keep module-level timers that fake timers would leave stuck.
    const started = Date.now();
    fireEvent.change(composer(), { target: { value: 'h' } });
    fireEvent.change(composer(), { target: { value: 'he' } });
    expect(client.callsOf('typing')).toEqual([[{ roomId: SAM.id }]]);
    expect(client.callsOf('stopTyping')).toEqual([]);
    await waitFor(() => expect(client.callsOf('stopTyping')).toEqual([[{ roomId: SAM.id }]]), {
      timeout: 3000,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);

    fireEvent.change(composer(), { target: { value: 'hey' } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    expect(client.callsOf('typing')).toHaveLength(2);
    expect(client.callsOf('stopTyping')).toHaveLength(2);
  });

  it('refuses a file over the limit before uploading it', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await openChat(client);
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByLabelText('Attachment file'), { target: { files: [big] } });
    expect((await screen.findByRole('alert')).textContent).toBe(CHAT_SERVER_MSG.attachmentTooLarge);
    expect(screen.getByText(/Max 10 MB/)).toBeTruthy();
    expect(screen.queryByText(/Uploading huge.pdf/)).toBeNull();
  });

  it('refuses a page or script file name before uploading it', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await openChat(client);
    const page = new File(['<b>hi</b>'], 'notes.HTML.', { type: 'text/plain' });
    fireEvent.change(screen.getByLabelText('Attachment file'), { target: { files: [page] } });
    expect((await screen.findByRole('alert')).textContent).toBe(CHAT_SERVER_MSG.attachmentNameType);
    expect(screen.queryByText(/Uploading notes/)).toBeNull();
  });
});

describe('replies and reactions', () => {
  it('opens a reply bar with a 40-character preview and sends the reply with it', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    const long = 'This is a fairly long message that goes on past forty characters';
    await client.db.messages.put(directMessage('orig', SAM, ME, long, minutesAgo(2), { seq: 1 }));
    await openChat(client);

    fireEvent.click(within(await waitFor(() => rowOf(long))).getByRole('button', { name: 'Reply' }));
    const bar = screen.getByRole('status');
    expect(within(bar).getByText('Replying to Sam Lee')).toBeTruthy();
    expect(within(bar).getByText('This is a fairly long message that goes ...')).toBeTruthy();

    fireEvent.change(composer(), { target: { value: 'Agreed' } });
    fireEvent.keyDown(composer(), { key: 'Enter' });
    expect(client.callsOf('writeDirectMessage')).toEqual([
      [expect.objectContaining({ id: SAM.id }), 'Agreed', 'orig'],
    ]);
    expect(screen.queryByText('Replying to Sam Lee')).toBeNull();
    // The reply shows a quote of the message it answers.
    const reply = await waitFor(() => rowOf('Agreed'));
    expect(within(reply).getByText('This is a fairly long message that goes ...')).toBeTruthy();

    fireEvent.click(within(rowOf(long)).getByRole('button', { name: 'Reply' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel reply' }));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('keeps one reaction per user: a new one replaces it, the same one takes it back', async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    await client.db.messages.put(
      directMessage('r', SAM, ME, 'react to me', minutesAgo(2), {
        seq: 1,
        reactions: [
          { emoji: '👍', userId: ME.id },
          { emoji: '👍', userId: SAM.id },
        ],
      }),
    );
    await openChat(client);
    const row = await waitFor(() => rowOf('react to me'));
    expect(within(row).getByLabelText('👍 2, including you')).toBeTruthy();

    fireEvent.click(within(row).getByRole('button', { name: 'React 😂' }));
    await waitFor(() => expect(within(row).getByLabelText('😂 1, including you')).toBeTruthy());
    expect(within(row).getByLabelText('👍 1')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'React 😂' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(within(row).getByRole('button', { name: 'React 😂' }));
    const reactions = () => within(row).getByRole('list', { name: 'Reactions' });
    await waitFor(() => expect(within(reactions()).queryByLabelText(/😂/)).toBeNull());
    expect(within(reactions()).getByLabelText('👍 1')).toBeTruthy();
    expect(client.callsOf('writeReaction')).toEqual([
      ['r', '😂', SAM.id],
      ['r', '', SAM.id],
    ]);
  });
});
