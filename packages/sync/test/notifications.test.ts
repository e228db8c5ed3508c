import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFESSION_SERVER_MSG, type AppNotification } from '@campus/protocol';
import { writeNotificationRead, type SyncClient } from '../src';
import { ack, deliver, queued, refuse } from './support/engine';
import { makeClient, notification } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

const unreadCount = (c: SyncClient) => c.db.notifications.where('unread').equals(1).count();

describe('notifications', () => {
  it('stores a live notification once however often it arrives, and a read from another device', async () => {
    const c = (client = makeClient());
    const a = notification();
    const b = notification({ type: 'confession_comment', title: 'New comment' });
    await deliver(c, [
      { type: 'notification_created', notification: a },
      { type: 'notification_created', notification: b },
      { type: 'notification_created', notification: a }, // a duplicate push
    ]);
    expect(await c.db.notifications.count()).toBe(2);
    expect(await unreadCount(c)).toBe(2);
    const newest = await c.db.notifications.orderBy('createdAt').reverse().first();
    expect(newest).toMatchObject({ id: b.id, title: 'New comment', isRead: false });

    await deliver(c, [{ type: 'notification_read', notificationId: a.id }]);
    expect(await unreadCount(c)).toBe(1);
    expect((await c.db.notifications.get(a.id))?.isRead).toBe(true);
    // A late copy of the creation never makes a read notification unread again.
    await deliver(c, [
      { type: 'notification_created', notification: a },
      { type: 'notification_read', notificationId: 'unknown' },
    ]);
    expect(await c.db.meta.get('sync.cursor')).toMatchObject({ value: 6 });
    expect(await unreadCount(c)).toBe(1);
    expect(await c.db.notifications.count()).toBe(2);
  });

  it('drops notifications whose confession was deleted, and the unread count with them', async () => {
    const c = (client = makeClient());
    const gone = notification();
    const kept = notification({ type: 'confession_comment', title: 'New comment' });
    await deliver(c, [
      { type: 'notification_created', notification: gone },
      { type: 'notification_created', notification: kept },
    ]);
    expect(await unreadCount(c)).toBe(2);
    await deliver(c, [{ type: 'notifications_deleted', notificationIds: [gone.id, 'never-seen'] }]);
    expect(await unreadCount(c)).toBe(1);
    expect((await c.db.notifications.toArray()).map((n) => n.id)).toEqual([kept.id]);
  });

  it('marks read at once and puts it back when the server refuses', async () => {
    const c = (client = makeClient());
    const a = notification();
    const b = notification();
    await c.db.notifications.bulkPut([
      { ...a, unread: 1 },
      { ...b, unread: 1 },
    ]);
    await c.run(writeNotificationRead, a.id);
    expect(await c.db.notifications.get(a.id)).toMatchObject({ isRead: true, unread: 0 });
    expect(await queued(c)).toMatchObject([{ type: 'mark_notification_read', notificationId: a.id }]);
    await ack(c);
    await c.run(writeNotificationRead, a.id); // already read: nothing more to tell the server
    expect(await c.db.outbox.count()).toBe(0);

    await c.run(writeNotificationRead, b.id);
    expect(await unreadCount(c)).toBe(0);
    await refuse(c, CONFESSION_SERVER_MSG.notificationNotFound, undefined, 'notFound');
    expect(await c.db.outbox.count()).toBe(0);
    expect(await c.db.notifications.get(b.id)).toMatchObject({ isRead: false, unread: 1 });
    expect((await c.db.notifications.get(a.id))?.isRead).toBe(true);
  });

  it('loads the list through REST, keeping a read whose mark is still queued, and fails with the spec text', async () => {
    let answer: { notifications: AppNotification[]; unreadCount: number } | number = 500;
    const requests: string[] = [];
    const c = (client = makeClient(undefined, async (input) => {
      requests.push(new URL(String(input)).pathname);
      return typeof answer === 'number'
        ? new Response('{}', { status: answer })
        : new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
    }));
    const a = notification();
    const b = notification();
    await c.db.notifications.put({ ...a, unread: 1 });
    await c.run(writeNotificationRead, a.id); // offline: queued
    answer = { notifications: [a, b], unreadCount: 5 };
    expect(await c.loadNotifications()).toBe(4);
    expect(await c.db.notifications.get(a.id)).toMatchObject({ isRead: true, unread: 0 });
    expect(await c.db.notifications.get(b.id)).toMatchObject({ isRead: false, unread: 1 });
    expect(requests).toEqual(['/api/notifications']);

    answer = 500;
    await expect(c.loadNotifications()).rejects.toThrow('Failed to load notifications');
  });

  it('a REST answer that left before a live read or deletion does not undo them', async () => {
    const [a, b, d] = [notification(), notification(), notification()];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const c = (client = makeClient(undefined, async () => {
      await held;
      // As the server answered before the read and the deletion below: all three unread.
      const body = { notifications: [a, b, d], unreadCount: 3 };
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    }));
    await deliver(
      c,
      [a, b, d].map((n) => ({ type: 'notification_created' as const, notification: n })),
    );
    const loading = c.loadNotifications();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Read on another device, and one deleted with its confession, while the answer is on its way.
    await deliver(c, [
      { type: 'notification_read', notificationId: a.id },
      { type: 'notifications_deleted', notificationIds: [b.id] },
    ]);
    release();
    expect(await loading).toBe(1);
    expect(await c.db.notifications.get(a.id)).toMatchObject({ isRead: true, unread: 0 });
    expect(await c.db.notifications.get(b.id)).toBeUndefined();
    expect(await c.db.notifications.get(d.id)).toMatchObject({ isRead: false, unread: 1 });
    expect(await unreadCount(c)).toBe(1);
  });
});
