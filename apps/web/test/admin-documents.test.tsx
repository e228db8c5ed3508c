import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN_MSG, UPLOAD_MSG } from '@campus/protocol';
import { admin, mockServer } from './helpers';
import { COUNTS, LIST, decision, item, list, page } from './admin-kit';
import { renderPage } from './upload-kit';

const nia = item('u-nia', 'Nia');
const sari = item('u-sari', 'Sari', 'pending_verification', { academicEmail: null });
const students = () => within(screen.getByRole('list', { name: 'Students' }));
const article = (name: string) => screen.getByRole('article', { name });
const tab = (name: RegExp) => screen.getByRole('tab', { name });

describe('admin documents: the list', () => {
  it('shows the queue first with counts, each student beside what the card says, and the history', async () => {
    const { calls } = mockServer({ [list('pending_verification')]: () => page([nia, sari]) });
    renderPage('/admin/documents', admin);
    const first = await screen.findByRole('article', { name: 'Nia Putri' });
    expect(tab(/^Pending/).getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Pending (2)',
      'Verified (5)',
      'Rejected (1)',
      'Awaiting upload (3)',
      'All (11)',
    ]);
    expect(calls[0]?.authorization).toBe(`Bearer token-${admin.id}`);
    // Oldest first, as the server ordered them.
    const names = students()
      .getAllByRole('article')
      .map((a) => a.querySelector('h2')?.textContent);
    expect(names).toEqual(['Nia Putri', 'Sari Putri']);

    const text = first.textContent ?? '';
    expect(text).toContain('nia@ui.ac.id');
    expect(text).toContain('Universitas Indonesia · Ilmu Komputer · Year 2');
    expect(text).toContain('Academic e-mail (ui.ac.id, Universitas Indonesia)');
    expect(article('Sari Putri').textContent).toContain('Not an academic e-mail address');
    const nim = within(first).getByRole('row', { name: /Student ID/ });
    expect(
      within(nim)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['—', '20210', '2021001234']);
    expect(within(first).getByRole('list', { name: 'Problems the server found' }).textContent).toBe(
      UPLOAD_MSG.nimTooShort,
    );
    expect(within(first).getByText('Some checks failed')).toBeTruthy();
    expect(within(first).getByRole('list', { name: 'History' }).textContent).toContain(
      'Nia Putri submitted a document',
    );
  });

  it("pages with 'Load more' (the server's keyset cursor) until there is no next page", async () => {
    const { calls } = mockServer({
      [list('pending_verification')]: () => page([nia], '2026-01-02|u-nia'),
      [list('pending_verification', '2026-01-02|u-nia')]: () => page([sari]),
    });
    renderPage('/admin/documents', admin);
    await screen.findByRole('article', { name: 'Nia Putri' });
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByRole('article', { name: 'Sari Putri' });
    expect(students().getAllByRole('article')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    // The header's manual-colleges count is a call of its own.
    expect(calls.map((call) => call.path).filter((path) => path.startsWith(LIST))).toEqual([
      '/api/upload/admin/documents?status=pending_verification&limit=20',
      '/api/upload/admin/documents?status=pending_verification&limit=20&after=2026-01-02%7Cu-nia',
    ]);
  });

  it('moves between tabs by click and keyboard, with an empty state per tab', async () => {
    const verified = item('u-vera', 'Vera', 'verified');
    mockServer({
      [list('pending_verification')]: () => page([]),
      [list('verified')]: () => page([verified]),
      [list('all')]: () => page([verified, nia]),
    });
    renderPage('/admin/documents', admin);
    expect(await screen.findByText('No documents are waiting for review.')).toBeTruthy();

    tab(/^Pending/).focus();
    fireEvent.keyDown(tab(/^Pending/), { key: 'ArrowRight' });
    expect(tab(/^Verified/).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab(/^Verified/));
    await screen.findByRole('article', { name: 'Vera Putri' });
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(tab(/^Verified/).id);

    fireEvent.keyDown(tab(/^Verified/), { key: 'End' });
    await screen.findByRole('article', { name: 'Nia Putri' });
    expect(tab(/^All/).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(tab(/^Rejected/));
    // Not served by the mock (404): the load failure, with a way to try again.
    expect((await screen.findByRole('alert')).textContent).toContain(ADMIN_MSG.loadFailed);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it("says 'Failed to load documents' and loads again on Retry", async () => {
    let fail = true;
    mockServer({
      [list('pending_verification')]: () => (fail ? { status: 500 } : page([nia])),
    });
    renderPage('/admin/documents', admin);
    expect((await screen.findByRole('alert')).textContent).toContain(ADMIN_MSG.loadFailed);
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('article', { name: 'Nia Putri' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('admin documents: decisions', () => {
  it('verifies: the item leaves the queue and the counts move', async () => {
    const { calls } = mockServer({
      [list('pending_verification')]: () => page([nia, sari]),
      [decision('u-nia')]: () => ({ status: 200, body: item('u-nia', 'Nia', 'verified') }),
    });
    renderPage('/admin/documents', admin);
    const first = await screen.findByRole('article', { name: 'Nia Putri' });
    fireEvent.click(within(first).getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('status')).textContent).toBe('Verified Nia Putri.');
    expect(screen.queryByRole('article', { name: 'Nia Putri' })).toBeNull();
    expect(tab(/^Pending/).textContent).toBe('Pending (1)');
    expect(tab(/^Verified/).textContent).toBe('Verified (6)');
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      action: 'verify',
      documentId: 'doc-u-nia',
    });
  });

  it('rejects only with a reason, in an accessible dialog, then loads the queue again', async () => {
    let loads = 0;
    const { calls } = mockServer({
      [list('pending_verification')]: () => {
        loads += 1;
        return loads === 1 ? page([nia, sari]) : page([sari], null, { ...COUNTS, pending_verification: 1 });
      },
      [decision('u-nia')]: () => ({ status: 200, body: { ok: true } }),
    });
    renderPage('/admin/documents', admin);
    fireEvent.click(
      within(await screen.findByRole('article', { name: 'Nia Putri' })).getByRole('button', {
        name: 'Reject',
      }),
    );
    const dialog = screen.getByRole('dialog', { name: "Reject Nia Putri's document" });
    const reason = within(dialog).getByLabelText('Reason (the student sees it)');
    expect(document.activeElement).toBe(reason);
    fireEvent.change(reason, { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(ADMIN_MSG.reasonRequired);
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);

    fireEvent.change(reason, { target: { value: ' The photo is blurred. ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      action: 'reject',
      reason: 'The photo is blurred.',
      documentId: expect.stringMatching(/^doc-/),
    });
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Nia Putri' })).toBeNull());
    expect(loads).toBe(2);
    expect(tab(/^Pending/).textContent).toBe('Pending (1)');
  });

  it("a 409 shows the server's message and reloads; other failures say 'Failed to save the decision'", async () => {
    let loads = 0;
    let answer = 409;
    mockServer({
      [list('pending_verification')]: () => {
        loads += 1;
        return page([nia]);
      },
      [decision('u-nia')]: () =>
        answer === 409 ? { status: 409, body: { error: ADMIN_MSG.notPending } } : { status: 500 },
    });
    renderPage('/admin/documents', admin);
    const first = await screen.findByRole('article', { name: 'Nia Putri' });
    fireEvent.click(within(first).getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe(`Nia Putri: ${ADMIN_MSG.notPending}`);
    await waitFor(() => expect(loads).toBe(2));

    answer = 500;
    const again = await screen.findByRole('article', { name: 'Nia Putri' });
    fireEvent.click(within(again).getByRole('button', { name: 'Verify' }));
    expect((await within(again).findByRole('alert')).textContent).toBe(ADMIN_MSG.decisionFailed);
    expect(loads).toBe(2);
  });

  it('offers only Exempt for a student who is not waiting for review, after a confirmation', async () => {
    const waiting = item('u-wes', 'Wes', 'pending_submission', { document: null, history: [] });
    const { calls } = mockServer({
      [list('pending_verification')]: () => page([]),
      [list('pending_submission')]: () => page([waiting]),
      [decision('u-wes')]: () => ({
        status: 200,
        body: { ...waiting, user: { ...waiting.user, documentStatus: 'not_required' } },
      }),
    });
    renderPage('/admin/documents', admin);
    await screen.findByText('No documents are waiting for review.');
    fireEvent.click(tab(/^Awaiting upload/));
    const row = await screen.findByRole('article', { name: 'Wes Putri' });
    expect(within(row).getByRole('button', { name: 'Verify' })).toHaveProperty('disabled', true);
    expect(within(row).getByRole('button', { name: 'Reject' })).toHaveProperty('disabled', true);
    expect(within(row).getByRole('button', { name: 'View document' })).toHaveProperty('disabled', true);
    expect(row.textContent).toContain('No document uploaded.');
    fireEvent.click(within(row).getByRole('button', { name: 'Exempt' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Exempt' }));
    expect((await screen.findByRole('status')).textContent).toBe('Exempted Wes Putri.');
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ action: 'exempt' });
    expect(screen.queryByRole('article', { name: 'Wes Putri' })).toBeNull();
  });
});
