import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CALL_MSG, type CallLog } from '@campus/protocol';
import { callLog, callWorld, ME, renderCalls, SAM } from './calls-kit';

const KIM = { id: 'u-kim', firstName: 'Kim', lastName: 'Park', profilePictureUrl: null };

const rows = () => screen.getAllByTestId('call-log-row');
const rowOf = (log: CallLog) => rows().find((row) => row.querySelector('time')?.dateTime === log.startedAt)!;

describe('call history', () => {
  it('lists calls newest first: Missed and --:-- for missed, unanswered and rejected calls, else the duration', async () => {
    const completed = callLog({ duration: 65 });
    const missed = callLog({ status: 'missed', caller: SAM, callee: ME, duration: 0, callType: 'video' });
    const noAnswer = callLog({ status: 'no_answer', duration: 0, callee: KIM });
    const rejected = callLog({ status: 'rejected', duration: 0 });
    const cancelled = callLog({ status: 'cancelled', duration: 0 });
    const world = callWorld();
    world.client.callLogPages = async () => {
      await world.client.db.callLogs.bulkPut([completed, missed, noAnswer, rejected, cancelled]);
      return { nextBefore: null };
    };
    renderCalls(world, ['/call-history']);

    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(rows()[0]).toBe(rowOf(cancelled));
    expect(rows()[4]).toBe(rowOf(completed));
    expect(world.client.callsOf('loadCallLogs')).toEqual([[undefined]]);

    for (const log of [missed, noAnswer, rejected]) {
      expect(within(rowOf(log)).getByText(CALL_MSG.missed)).toBeTruthy();
      expect(within(rowOf(log)).getByTestId('call-log-duration').textContent).toBe(CALL_MSG.noDuration);
    }
    expect(within(rowOf(completed)).queryByText(CALL_MSG.missed)).toBeNull();
    expect(within(rowOf(completed)).getByTestId('call-log-duration').textContent).toBe('01:05');
    expect(within(rowOf(cancelled)).getByTestId('call-log-duration').textContent).toBe('00:00');

    // The other person, which way, what kind.
    expect(within(rowOf(missed)).getByText('Sam Lee')).toBeTruthy();
    expect(within(rowOf(missed)).getByText('Incoming video call')).toBeTruthy();
    expect(within(rowOf(noAnswer)).getByText('Kim Park')).toBeTruthy();
    expect(within(rowOf(noAnswer)).getByText('Outgoing audio call')).toBeTruthy();
  });

  it('calls back with the same kind of call', async () => {
    const missed = callLog({ status: 'missed', caller: SAM, callee: ME, duration: 0, callType: 'video' });
    const world = callWorld();
    await world.client.db.callLogs.put(missed);
    renderCalls(world, ['/call-history']);
    fireEvent.click(await screen.findByRole('button', { name: 'Call back Sam Lee (video)' }));
    const overlay = await screen.findByRole('dialog', { name: 'Calling Sam Lee…' });
    expect(within(overlay).getByText('Video Call')).toBeTruthy();
    await waitFor(() => expect(world.getUserMedia).toHaveBeenCalledWith({ audio: true, video: true }));
  });

  it("says 'No calls yet' when there are none", async () => {
    renderCalls(callWorld(), ['/call-history']);
    expect(await screen.findByText(CALL_MSG.noCalls)).toBeTruthy();
    expect(screen.queryByTestId('call-log-skeletons')).toBeNull();
  });

  it('shows skeletons while the first load runs, then the failure with Retry', async () => {
    const world = callWorld();
    let fail: (error: Error) => void = () => undefined;
    world.client.callLogPages = () =>
      new Promise((_, reject) => {
        fail = reject;
      });
    renderCalls(world, ['/call-history']);
    expect(await screen.findByTestId('call-log-skeletons')).toBeTruthy();
    fail(new Error(CALL_MSG.fetchLogsFailed));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(CALL_MSG.fetchLogsFailed);

    const log = callLog();
    world.client.callLogPages = async () => {
      await world.client.db.callLogs.put(log);
      return { nextBefore: null };
    };
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps showing the cached calls when the server cannot be reached (offline)', async () => {
    const log = callLog();
    const world = callWorld();
    await world.client.db.callLogs.put(log);
    world.client.callLogPages = () => Promise.reject(new Error(CALL_MSG.fetchLogsFailed));
    renderCalls(world, ['/call-history']);
    expect((await screen.findByRole('alert')).textContent).toContain(CALL_MSG.fetchLogsFailed);
    expect(rows()).toHaveLength(1);
  });

  it('loads older pages with Load more until the server says there are no more', async () => {
    const newer = callLog();
    const older = callLog({ startedAt: '2020-01-01T10:00:00.000Z' });
    const world = callWorld();
    world.client.callLogPages = async (before) => {
      await world.client.db.callLogs.put(before === 'page-2' ? older : newer);
      return { nextBefore: before === 'page-2' ? null : 'page-2' };
    };
    renderCalls(world, ['/call-history']);
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[1]).toBe(rowOf(older));
    expect(world.client.callsOf('loadCallLogs')).toEqual([[undefined], ['page-2']]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());
  });
});
