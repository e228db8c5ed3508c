import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import {
  PERMANENT_SUSPENSION_UNTIL,
  REPORT_MSG,
  REPORT_REASON_LABELS,
  STORAGE_KEYS,
  type AdminReportDetail,
  type AdminReportItem,
} from '@campus/protocol';
import { AdminReportsPage } from '../src/features/admin/reports/AdminReportsPage';
import { createApiClient } from '../src/lib/api';
import { ApiProvider } from '../src/lib/ApiContext';
import { PlatformProvider } from '../src/platform';
import { admin, fakePlatform, mockServer, renderApp, storeSessionFor, student } from './helpers';

const person = (id: string, firstName: string) => ({
  id,
  firstName,
  lastName: 'Putri',
  profilePictureUrl: null,
});
const NIA = person('u-nia', 'Nia');
const RIO = person('u-rio', 'Rio');
const SARI = person('u-sari', 'Sari');

function report(id: string, overrides: Partial<AdminReportItem> = {}): AdminReportItem {
  return {
    id,
    status: 'open',
    reason: 'harassment',
    note: 'Kept insulting me after I asked him to stop',
    context: { kind: 'random_room', roomId: 'room-7' },
    createdAt: '2026-03-01T10:00:00.000Z',
    reporter: NIA,
    reported: RIO,
    reportedHistory: { reports: 3, upheld: 1 },
    reportedRestriction: { randomSuspendedUntil: null, randomReviewHold: false, accountSuspendedUntil: null },
    evidenceCount: 2,
    decision: null,
    ...overrides,
  };
}

const COUNTS = { open: 2, upheld: 4, dismissed: 1 };
const page = (reports: AdminReportItem[], next: string | null = null, counts = COUNTS) => ({
  status: 200,
  body: { reports, next, counts },
});
const list = (status: string, before?: string) =>
  `GET /api/admin/reports?status=${status}&limit=20${before ? `&before=${encodeURIComponent(before)}` : ''}`;
const decisionPath = (id: string) => `POST /api/admin/reports/${id}/decision`;

function renderReports() {
  localStorage.setItem(
    STORAGE_KEYS.session,
    JSON.stringify({ token: `token-${admin.id}`, userId: admin.id }),
  );
  const api = createApiClient({ baseUrl: '', getToken: () => `token-${admin.id}` });
  render(
    <MemoryRouter initialEntries={['/admin/reports']}>
      <PlatformProvider platform={fakePlatform()}>
        <ApiProvider api={api}>
          <Routes>
            <Route path="/admin/reports" element={<AdminReportsPage />} />
            <Route path="*" element={<p>Elsewhere</p>} />
          </Routes>
        </ApiProvider>
      </PlatformProvider>
    </MemoryRouter>,
  );
}

const article = (name: string) => screen.getByRole('article', { name });

describe('admin reports: the queue', () => {
  it('lists open reports with both people, reason, note, context and history, and shows the evidence as a transcript', async () => {
    const first = report('rep-1');
    const second = report('rep-2', {
      reporter: null,
      reported: SARI,
      reason: 'spam',
      note: null,
      context: { kind: 'chat', userId: SARI.id },
      evidenceCount: 0,
      reportedHistory: { reports: 1, upheld: 0 },
      reportedRestriction: {
        randomSuspendedUntil: null,
        randomReviewHold: true,
        accountSuspendedUntil: null,
      },
    });
    const detail: AdminReportDetail = {
      ...first,
      evidence: {
        messages: [
          { from: 'reported', text: 'you are an idiot', at: '2026-03-01T09:59:00.000Z' },
          { from: 'reporter', text: 'please stop', at: '2026-03-01T09:59:30.000Z' },
        ],
      },
      history: [
        {
          id: 'h1',
          action: 'warn',
          reportId: 'rep-0',
          until: null,
          note: 'First warning',
          by: { id: admin.id, firstName: 'Ada', lastName: 'Admin' },
          at: '2026-02-01T10:00:00.000Z',
        },
      ],
    };
    const { calls } = mockServer({
      [list('open')]: () => page([first, second]),
      'GET /api/admin/reports/rep-1': () => ({ status: 200, body: detail }),
    });
    renderReports();
    const item = await screen.findByRole('article', { name: 'Report about Rio Putri' });
    expect(calls[0]?.authorization).toBe(`Bearer token-${admin.id}`);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Open (2)',
      'Upheld (4)',
      'Dismissed (1)',
    ]);
    const text = item.textContent ?? '';
    for (const part of [
      'Reported byNia Putri',
      'ReportedRio Putri',
      REPORT_REASON_LABELS.harassment,
      'Random talk room (room-7)',
      '3 reports about Rio, 1 upheld',
      'Kept insulting me after I asked him to stop',
    ])
      expect(text).toContain(part);
    const other = article('Report about Sari Putri');
    expect(other.textContent).toContain('Reported byDeleted account');
    expect(other.textContent).toContain('Direct chat');
    expect(within(other).getByRole('list', { name: 'Current restrictions' }).textContent).toBe(
      'Random talk on hold until reviewed',
    );

    fireEvent.click(within(item).getByRole('button', { name: 'View evidence (2 messages)' }));
    const transcript = await within(item).findByRole('list', { name: 'Evidence transcript' });
    const lines = within(transcript).getAllByRole('listitem');
    expect(lines.map((l) => l.querySelector('.report-transcript__who')?.textContent)).toEqual([
      'Rio Putri (reported)',
      'Nia Putri (reporter)',
    ]);
    expect(lines[0]?.textContent).toContain('you are an idiot');
    expect(within(item).getByRole('list', { name: 'Moderation history' }).textContent).toContain(
      'Warned by Ada Admin · First warning',
    );
  });

  it("pages with 'Load more', moves between tabs, and has empty and error states", async () => {
    let fail = true;
    mockServer({
      [list('open')]: () => page([report('rep-1')], '2026-03-01T10:00:00.000Z|rep-1'),
      [list('open', '2026-03-01T10:00:00.000Z|rep-1')]: () =>
        fail
          ? ((fail = false), { status: 500, body: { error: 'boom' } })
          : page([report('rep-2', { reported: SARI })]),
      [list('upheld')]: () => page([]),
    });
    renderReports();
    await screen.findByRole('article', { name: 'Report about Rio Putri' });
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect((await screen.findByRole('alert')).textContent).toContain(REPORT_MSG.loadFailed);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('article', { name: 'Report about Sari Putri' });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: /^Upheld/ }));
    expect(await screen.findByText('No upheld reports yet.')).toBeTruthy();
    expect(screen.getByRole('tab', { name: /^Upheld/ }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('admin reports: decisions', () => {
  it('warns with a note: the report leaves the open tab and the counts follow', async () => {
    const { calls } = mockServer({
      [list('open')]: () => page([report('rep-1'), report('rep-2', { reported: SARI })]),
      [decisionPath('rep-1')]: () => ({
        status: 200,
        body: report('rep-1', {
          status: 'upheld',
          decision: {
            decision: 'warn',
            days: null,
            until: null,
            note: 'Be kind',
            by: { id: admin.id, firstName: 'Ada', lastName: 'Admin' },
            at: '2026-03-02T10:00:00.000Z',
          },
        }),
      }),
    });
    renderReports();
    const item = await screen.findByRole('article', { name: 'Report about Rio Putri' });
    fireEvent.click(within(item).getByRole('button', { name: 'Warn' }));
    const dialog = screen.getByRole('dialog', { name: 'Warn: Rio Putri' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Note for the record/ }), {
      target: { value: ' Be kind ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Warn' }));
    expect((await screen.findByRole('status')).textContent).toBe('Warned: Rio Putri.');
    expect(screen.queryByRole('article', { name: 'Report about Rio Putri' })).toBeNull();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Open (1)',
      'Upheld (5)',
      'Dismissed (1)',
    ]);
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/admin/reports/rep-1/decision',
      body: { decision: 'warn', note: 'Be kind' },
    });
  });

  it('suspends random talk for the chosen days, refusing days out of range', async () => {
    const { calls } = mockServer({
      [list('open')]: () => page([report('rep-1')]),
      [decisionPath('rep-1')]: () => ({ status: 200, body: report('rep-1', { status: 'upheld' }) }),
    });
    renderReports();
    const item = await screen.findByRole('article', { name: 'Report about Rio Putri' });
    fireEvent.click(within(item).getByRole('button', { name: 'Suspend random talk' }));
    const dialog = screen.getByRole('dialog', { name: 'Suspend random talk: Rio Putri' });
    const days = within(dialog).getByRole('spinbutton', { name: 'Days' });
    fireEvent.change(days, { target: { value: '91' } });
    expect(within(dialog).getByRole('button', { name: 'Suspend random talk' })).toHaveProperty(
      'disabled',
      true,
    );
    fireEvent.change(days, { target: { value: '14' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend random talk' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Report about Rio Putri' })).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ decision: 'suspend_random', days: 14 });
  });

  it('suspends an account permanently only after a confirmation', async () => {
    const { calls } = mockServer({
      [list('open')]: () => page([report('rep-1')]),
      [decisionPath('rep-1')]: () => ({
        status: 200,
        body: report('rep-1', {
          status: 'upheld',
          reportedRestriction: {
            randomSuspendedUntil: null,
            randomReviewHold: false,
            accountSuspendedUntil: PERMANENT_SUSPENSION_UNTIL,
          },
        }),
      }),
    });
    renderReports();
    const item = await screen.findByRole('article', { name: 'Report about Rio Putri' });
    fireEvent.click(within(item).getByRole('button', { name: 'Suspend account' }));
    const dialog = screen.getByRole('dialog', { name: 'Suspend account: Rio Putri' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Permanently' }));
    expect(within(dialog).queryByRole('spinbutton')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend account' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Suspend account' });
    expect(confirm.textContent).toContain("Suspend Rio Putri's account permanently?");
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Suspend account' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        decision: 'suspend_account',
        days: 'permanent',
      }),
    );
  });

  it('dismisses; a report another admin decided first (409) says so and reloads', async () => {
    let decided = false;
    mockServer({
      [list('open')]: () => page(decided ? [] : [report('rep-1')]),
      [decisionPath('rep-1')]: () => {
        decided = true;
        return { status: 409, body: { error: REPORT_MSG.alreadyDecided } };
      },
    });
    renderReports();
    const item = await screen.findByRole('article', { name: 'Report about Rio Putri' });
    fireEvent.click(within(item).getByRole('button', { name: 'Dismiss' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Dismiss report: Rio Putri' })).getByRole('button', {
        name: 'Dismiss',
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(`Rio Putri: ${REPORT_MSG.alreadyDecided}`);
    expect(await screen.findByText('No reports are waiting for review.')).toBeTruthy();
  });

  it('clears a random talk hold', async () => {
    const held = report('rep-1', {
      reportedRestriction: {
        randomSuspendedUntil: null,
        randomReviewHold: true,
        accountSuspendedUntil: null,
      },
    });
    const { calls } = mockServer({
      [list('open')]: () => page([held]),
      [`POST /api/admin/users/${RIO.id}/random-hold/clear`]: () => ({
        status: 200,
        body: { message: REPORT_MSG.holdCleared, cleared: true },
      }),
    });
    renderReports();
    const item = await screen.findByRole('article', { name: 'Report about Rio Putri' });
    fireEvent.click(within(item).getByRole('button', { name: 'Clear random talk hold' }));
    expect((await screen.findByRole('status')).textContent).toBe(`Rio Putri: ${REPORT_MSG.holdCleared}`);
    expect(within(item).queryByRole('list', { name: 'Current restrictions' })).toBeNull();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `/api/admin/users/${RIO.id}/random-hold/clear`,
    ]);
  });
});

describe('admin reports: the route', () => {
  it('is for admins only, and the documents page links to it', async () => {
    mockServer(storeSessionFor(student));
    renderApp('/admin/reports');
    expect(await screen.findByRole('heading', { name: 'Talk', level: 1 })).toBeTruthy();
  });

  it('opens from the documents page for an admin', async () => {
    mockServer({
      ...storeSessionFor(admin),
      'GET /api/upload/admin/documents?status=pending_verification&limit=20': () => ({
        status: 200,
        body: { users: [], next: null, counts: {} },
      }),
      [list('open')]: () => page([report('rep-1')]),
    });
    renderApp('/admin/documents');
    fireEvent.click(await screen.findByRole('link', { name: 'Reports (2 open)' }));
    expect(await screen.findByRole('heading', { name: 'Reports', level: 1 })).toBeTruthy();
    expect(await screen.findByRole('article', { name: 'Report about Rio Putri' })).toBeTruthy();
  });
});
