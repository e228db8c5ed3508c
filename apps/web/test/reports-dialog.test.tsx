import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { REPORT, REPORT_MSG, REPORT_REASON_LABELS } from '@campus/protocol';
import { ApiError } from '../src/lib/api';
import { ReportDialog, type ReportInput } from '../src/features/safety/ReportDialog';
import { FakeSyncClient, renderChat, SAM, seedPartner } from './chat-kit';
import { mockServer, storeSessionFor, student } from './helpers';
import { friendsSync, sam, SLOW } from './friends-kit';
import { renderWithSync, resetDatabase, userDatabase } from './sync-provider-fake';
import { callLog, callWorld, renderCalls } from './calls-kit';

afterEach(async () => {
  cleanup();
  await resetDatabase(student.id);
});

const SENT = { status: 201, body: { id: 'rep-1', message: REPORT_MSG.sent } };

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function renderDialog(onSubmit: (input: ReportInput) => Promise<void>) {
  const onClose = vi.fn();
  render(<ReportDialog name="Sam Lee" onSubmit={onSubmit} onClose={onClose} />);
  return { onClose, dialog: screen.getByRole('dialog', { name: 'Report Sam Lee' }) };
}

const reasons = () => screen.getByRole('group', { name: REPORT_MSG.question('Sam Lee') });

describe('ReportDialog', () => {
  it('asks why with every reason, counts the note, ticks Also block, and sends what was chosen', async () => {
    const sending = deferred();
    const onSubmit = vi.fn(() => sending.promise);
    renderDialog(onSubmit);
    expect(
      within(reasons())
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(Object.values(REPORT_REASON_LABELS));
    const block = screen.getByRole('checkbox', { name: REPORT_MSG.alsoBlock('Sam Lee') }) as HTMLInputElement;
    expect(block.checked).toBe(true);

    // No reason yet: said, and nothing sent.
    fireEvent.click(screen.getByRole('button', { name: REPORT_MSG.submit }));
    expect(screen.getByRole('alert').textContent).toBe(REPORT_MSG.reasonRequired);
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('radio', { name: REPORT_REASON_LABELS.hate }));
    expect(screen.queryByRole('alert')).toBeNull();
    const note = screen.getByRole('textbox', { name: REPORT_MSG.noteLabel });
    fireEvent.change(note, { target: { value: '  Slurs in chat  ' } });
    expect(screen.getByText(`17/${REPORT.noteMax}`)).toBeTruthy();
    expect(note.getAttribute('maxLength')).toBe(String(REPORT.noteMax));
    fireEvent.click(block);
    fireEvent.click(screen.getByRole('button', { name: REPORT_MSG.submit }));

    expect(onSubmit).toHaveBeenCalledWith({ reason: 'hate', note: 'Slurs in chat', block: false });
    const busy = await screen.findByRole('button', { name: REPORT_MSG.submitting });
    expect(busy).toHaveProperty('disabled', true);
    // A second press while sending sends nothing more.
    fireEvent.click(busy);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    sending.resolve();
    expect((await screen.findByRole('status')).textContent).toBe(REPORT_MSG.sent);
    expect(screen.queryByRole('radio')).toBeNull();
  });

  it("shows the server's refusal and lets the student try again; Cancel closes", async () => {
    const onSubmit = vi
      .fn<(input: ReportInput) => Promise<void>>()
      .mockRejectedValueOnce(new ApiError('http', 429, REPORT_MSG.tooMany, { error: REPORT_MSG.tooMany }))
      .mockRejectedValueOnce(new ApiError('network', 0, undefined, undefined))
      .mockResolvedValueOnce(undefined);
    const { onClose } = renderDialog(onSubmit);
    fireEvent.click(screen.getByRole('radio', { name: REPORT_REASON_LABELS.spam }));
    fireEvent.click(screen.getByRole('button', { name: REPORT_MSG.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(REPORT_MSG.tooMany);
    fireEvent.click(screen.getByRole('button', { name: REPORT_MSG.submit }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(REPORT_MSG.network));
    // The choices are kept for the retry.
    expect((screen.getByRole('radio', { name: REPORT_REASON_LABELS.spam }) as HTMLInputElement).checked).toBe(
      true,
    );
    fireEvent.click(screen.getByRole('button', { name: REPORT_MSG.cancel }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('Report from the app', () => {
  it("the chat header's menu reports the chat partner over REST, blocking by default", async () => {
    const client = new FakeSyncClient();
    await seedPartner(client);
    const server = mockServer({ 'POST /api/reports': () => SENT });
    renderChat(client, `/chat/${SAM.id}`);

    fireEvent.click(await screen.findByRole('button', { name: 'More chat actions' }, SLOW));
    fireEvent.click(screen.getByRole('button', { name: REPORT_MSG.report }));
    const dialog = screen.getByRole('dialog', { name: 'Report Sam Lee' });
    fireEvent.click(within(dialog).getByRole('radio', { name: REPORT_REASON_LABELS.harassment }));
    fireEvent.click(within(dialog).getByRole('button', { name: REPORT_MSG.submit }));
    expect((await screen.findByRole('status', {}, SLOW)).textContent).toContain(REPORT_MSG.sent);
    expect(server.calls.filter((c) => c.path === '/api/reports')).toMatchObject([
      {
        method: 'POST',
        body: { context: { kind: 'chat', userId: SAM.id }, reason: 'harassment', block: true },
      },
    ]);
    fireEvent.click(screen.getByRole('button', { name: REPORT_MSG.done }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("a friend row's menu reports the friend, here without blocking, and shows the server's refusal", async () => {
    await userDatabase(student.id).friends.bulkPut([sam]);
    const sync = friendsSync(() => Promise.resolve());
    let refuse = true;
    const server = mockServer({
      ...storeSessionFor(student),
      'POST /api/reports': () =>
        refuse ? ((refuse = false), { status: 404, body: { error: REPORT_MSG.notFound } }) : SENT,
    });
    renderWithSync('/friends', sync.factory);

    fireEvent.click(await screen.findByRole('button', { name: 'More actions for Sam Lee' }, SLOW));
    fireEvent.click(screen.getByRole('button', { name: REPORT_MSG.report }));
    const dialog = screen.getByRole('dialog', { name: 'Report Sam Lee' });
    fireEvent.click(within(dialog).getByRole('radio', { name: REPORT_REASON_LABELS.spam }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: REPORT_MSG.alsoBlock('Sam Lee') }));
    fireEvent.click(within(dialog).getByRole('button', { name: REPORT_MSG.submit }));
    expect((await within(dialog).findByRole('alert', {}, SLOW)).textContent).toBe(REPORT_MSG.notFound);
    fireEvent.click(within(dialog).getByRole('button', { name: REPORT_MSG.submit }));
    expect((await screen.findByText(REPORT_MSG.sent, {}, SLOW)).getAttribute('role')).toBe('status');
    const bodies = server.calls.filter((c) => c.path === '/api/reports').map((c) => c.body);
    expect(bodies).toEqual([
      { context: { kind: 'friend', userId: sam.id }, reason: 'spam', block: false },
      { context: { kind: 'friend', userId: sam.id }, reason: 'spam', block: false },
    ]);
  });

  it('a call history row opens the report dialog for the other person', async () => {
    const log = callLog();
    const world = callWorld();
    await world.client.db.callLogs.put(log);
    renderCalls(world, ['/call-history']);
    fireEvent.click(await screen.findByRole('button', { name: 'Report Sam Lee' }, SLOW));
    const dialog = screen.getByRole('dialog', { name: 'Report Sam Lee' });
    expect(within(dialog).getByRole('group', { name: REPORT_MSG.question('Sam Lee') })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: REPORT_MSG.cancel }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
