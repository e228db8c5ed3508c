import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { NotificationsPanel } from '../src/features/notifications/NotificationsPanel';
import { cacheRows, mockServer, notification, renderBell, testPlatform } from './notifications-kit';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const NOW = new Date('2026-11-23T12:00:00.000Z').getTime();

function ago(ms: number) {
  return new Date(NOW - ms).toISOString();
}

describe("the panel's relative time", () => {
  it('reads now, m, h, d, w, mo, y and refreshes every 60 seconds', () => {
    vi.useFakeTimers({ now: NOW });
    const items = [
      notification({ id: 'a', title: 'Item A', createdAt: ago(30_000) }),
      notification({ id: 'b', title: 'Item B', createdAt: ago(5 * MINUTE) }),
      notification({ id: 'c', title: 'Item C', createdAt: ago(3 * 60 * MINUTE) }),
      notification({ id: 'd', title: 'Item D', createdAt: ago(2 * DAY) }),
      notification({ id: 'e', title: 'Item E', createdAt: ago(15 * DAY) }),
      notification({ id: 'f', title: 'Item F', createdAt: '2026-09-10T12:00:00.000Z' }),
      notification({ id: 'g', title: 'Item G', createdAt: '2024-10-01T12:00:00.000Z' }),
    ];
    render(
      <NotificationsPanel
        id="panel"
        items={items}
        status="ready"
        anchorRef={createRef<HTMLElement>()}
        onSelect={() => undefined}
        onClose={() => undefined}
      />,
    );
    const time = (title: string) =>
      screen.getByRole('button', { name: new RegExp(`^Item ${title}`) }).querySelector('time');
    expect(['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((t) => time(t)?.textContent)).toEqual([
      'now',
      '5m',
      '3h',
      '2d',
      '2w',
      '2mo',
      '2y',
    ]);
    act(() => {
      vi.advanceTimersByTime(59_000);
    });
    expect(time('A')?.textContent).toBe('now');
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(time('A')?.textContent).toBe('1m');
    expect(time('B')?.textContent).toBe('6m');
  });
});

describe('new notifications while the window is not focused', () => {
  it('are shown by the platform with their route; the backlog and a focused window stay silent', async () => {
    const notify = vi.fn(async () => undefined);
    mockServer({});
    const focused = vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    const db = renderBell({ platform: testPlatform(notify) });
    // The backlog: created long before the app started (a pull or REST load brings it).
    await cacheRows(db, [
      notification({ id: 'old', createdAt: new Date(Date.now() - 3 * DAY).toISOString() }),
    ]);
    await cacheRows(db, [
      notification({
        id: 'new',
        type: 'confession_comment',
        title: 'New comment',
        body: 'Same here',
        createdAt: new Date().toISOString(),
        data: { confessionId: 'c-7' },
      }),
    ]);
    await waitFor(() => expect(notify).toHaveBeenCalledTimes(1));
    expect(notify).toHaveBeenCalledWith({
      title: 'New comment',
      body: 'Same here',
      route: '/confessions?confessionId=c-7',
    });

    focused.mockReturnValue(true);
    await cacheRows(db, [notification({ id: 'seen', createdAt: new Date().toISOString() })]);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Notifications' }).textContent).toBe('3 unread'),
    );
    expect(notify).toHaveBeenCalledTimes(1);
  });
});
