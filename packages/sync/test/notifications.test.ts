import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFESSION_SERVER_MSG } from '@campus/protocol';
import type { CampusSyncClient } from '../src';
import { FakeServer, waitFor } from './support/fake-server';
import { ME, confession, makeClient, notification } from './support/fixtures';

let client: CampusSyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

async function online(server: FakeServer): Promise<CampusSyncClient> {
  const c = makeClient(server);
  client = c;
  c.start();
  await waitFor(() => c.getState().status === 'online');
  return c;
}

const unreadCount = (c: CampusSyncClient) => c.db.notifications.where('unread').equals(1).count();

describe('notifications', () => {
  it('stores a live notification once however often it arrives, and a read from another device', async () => {
    const server = new FakeServer(ME);
    const c = await online(server);
    const a = notification();
    const b = notification({ type: 'confession_comment', title: 'New comment' });
    server.emit({ type: 'notification_created', seq: 0, notification: a });
    server.emit({ type: 'notification_created', seq: 0, notification: b });
    server.emit({ type: 'notification_created', seq: 0, notification: a }); // a duplicate push
    await waitFor(async () => expect(await c.db.notifications.count()).toBe(2));
    expect(await unreadCount(c)).toBe(2);
    const newest = await c.db.notifications.orderBy('createdAt').reverse().first();
    expect(newest).toMatchObject({ id: b.id, title: 'New comment', isRead: false });

    server.emit({ type: 'notification_read', seq: 0, notificationId: a.id });
    await waitFor(async () => expect(await unreadCount(c)).toBe(1));
    expect((await c.db.notifications.get(a.id))?.isRead).toBe(true);
    // A late copy of the creation never makes a read notification unread again.
    server.emit({ type: 'notification_created', seq: 0, notification: a });
    server.emit({ type: 'notification_read', seq: 0, notificationId: 'unknown' });
    await waitFor(async () => expect(await c.db.meta.get('sync.cursor')).toMatchObject({ value: 6 }));
    expect(await unreadCount(c)).toBe(1);
    expect(await c.db.notifications.count()).toBe(2);
  });

  it('drops notifications whose confession was deleted, and the unread count with them', async () => {
    const server = new FakeServer(ME);
    const c = await online(server);
    const gone = notification();
    const kept = notification({ type: 'confession_comment', title: 'New comment' });
    server.emit({ type: 'notification_created', seq: 0, notification: gone });
    server.emit({ type: 'notification_created', seq: 0, notification: kept });
    await waitFor(async () => expect(await unreadCount(c)).toBe(2));
    server.emit({ type: 'notifications_deleted', seq: 0, notificationIds: [gone.id, 'never-seen'] });
    await waitFor(async () => expect(await unreadCount(c)).toBe(1));
    expect((await c.db.notifications.toArray()).map((n) => n.id)).toEqual([kept.id]);
  });

  it('catches up on notifications made while offline through the pull, each once', async () => {
    const server = new FakeServer(ME);
    const c = await online(server);
    const first = notification();
    server.emit({ type: 'notification_created', seq: 0, notification: first });
    await waitFor(async () => expect(await c.db.notifications.count()).toBe(1));
    server.silent = true;
    server.cutAll();
    await waitFor(() => c.getState().status !== 'online');
    const later = notification({ type: 'friend_request', title: 'Friend request', data: {} });
    server.emit({ type: 'notification_created', seq: 0, notification: later });
    server.emit({ type: 'notification_read', seq: 0, notificationId: first.id });
    server.silent = false;
    await waitFor(async () => expect(await c.db.notifications.count()).toBe(2));
    await waitFor(async () => expect((await c.db.notifications.get(first.id))?.isRead).toBe(true));
    expect((await c.db.notifications.get(later.id))?.unread).toBe(1);
  });

  it('marks read at once and puts it back when the server refuses', async () => {
    const server = new FakeServer(ME);
    const c = await online(server);
    const a = notification();
    const b = notification();
    await c.db.notifications.bulkPut([
      { ...a, unread: 1 },
      { ...b, unread: 1 },
    ]);
    await c.markNotificationRead(a.id);
    expect(await c.db.notifications.get(a.id)).toMatchObject({ isRead: true, unread: 0 });
    await waitFor(async () => expect(await c.db.outbox.count()).toBe(0));
    expect(server.applied).toMatchObject([{ type: 'mark_notification_read', notificationId: a.id }]);
    await c.markNotificationRead(a.id); // already read: nothing more to tell the server
    expect(await c.db.outbox.count()).toBe(0);

    server.refuse = () => CONFESSION_SERVER_MSG.notificationNotFound;
    await c.markNotificationRead(b.id);
    expect(await unreadCount(c)).toBe(0);
    await waitFor(async () => expect(await c.db.outbox.count()).toBe(0));
    expect(await c.db.notifications.get(b.id)).toMatchObject({ isRead: false, unread: 1 });
    expect((await c.db.notifications.get(a.id))?.isRead).toBe(true);
  });

  it('keeps cached notifications and confessions through a sync_reset, which does not carry them', async () => {
    const server = new FakeServer(ME);
    server.snapshot = { conversations: [], groups: [], messages: [], groupMessages: [], users: [] };
    const c = makeClient(server);
    client = c;
    const note = notification();
    const card = confession();
    await c.db.notifications.put({ ...note, unread: 1 });
    await c.db.confessions.put(card);
    const missed = notification({ title: 'Made while this device was away' });
    server.notifications = { notifications: [missed], unreadCount: 1 };
    server.emit({ type: 'notification_read', seq: 0, notificationId: 'elsewhere' }); // the reset's cursor is 1
    c.start();
    await waitFor(() => c.getState().status === 'online');
    await waitFor(async () => expect(server.framesOfType('pull')).toHaveLength(1));
    await waitFor(async () => expect((await c.db.meta.get('sync.cursor'))?.value).toBe(1));
    expect(await c.db.notifications.get(note.id)).toMatchObject({ id: note.id, unread: 1 });
    expect(await c.db.confessions.get(card.id)).toEqual(card);
    // What the snapshot could not carry is fetched through REST.
    await waitFor(async () => expect(await c.db.notifications.get(missed.id)).toMatchObject(missed));
    expect(await unreadCount(c)).toBe(2);
  });

  it('loads the list through REST, keeping a read whose mark is still queued, and fails with the spec text', async () => {
    const server = new FakeServer(ME);
    const c = makeClient(server);
    client = c;
    const a = notification();
    const b = notification();
    await c.db.notifications.put({ ...a, unread: 1 });
    await c.markNotificationRead(a.id); // offline: queued
    server.notifications = { notifications: [a, b], unreadCount: 5 };
    expect(await c.loadNotifications()).toBe(4);
    expect(await c.db.notifications.get(a.id)).toMatchObject({ isRead: true, unread: 0 });
    expect(await c.db.notifications.get(b.id)).toMatchObject({ isRead: false, unread: 1 });
    expect(server.requests).toEqual(['/api/notifications']);

    server.notifications = 500;
    await expect(c.loadNotifications()).rejects.toThrow('Failed to load notifications');
  });
});
