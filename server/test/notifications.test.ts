import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFESSION_SERVER_MSG, notificationsResponseSchema, type NotificationType } from '@campus/protocol';
import { notify } from '../src/modules/notifications';
import { countUnread } from '../src/modules/notifications/repo';
import { notificationMutationHandlers } from '../src/modules/notifications/sync';
import { selectPlansOf } from './support/query-plans';
import { itOnSqlite, startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';

let server: TestServer;
const open: WsClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const c of open) c.close();
  await server.close();
});

async function connect(user: TestUser) {
  const client = await WsClient.connect(server, user);
  open.push(client);
  return client;
}

function notifyUser(user: TestUser, title: string, type: NotificationType = 'confession_reaction') {
  return server.deps.transactor.commit((tx) =>
    notify(tx, server.deps, {
      userId: user.id,
      type,
      title,
      body: `${title} body`,
      data: { confessionId: 'c-1' },
    }),
  );
}

const put = (path: string, token: string) => server.call('PUT', path, undefined, token);

describe('notifications REST', () => {
  it('lists only my notifications, newest first, with the unread count, and pages them', async () => {
    const ann = await createUser(server, 'Ann');
    const bob = await createUser(server, 'Bob');
    await notifyUser(ann, 'first');
    await notifyUser(bob, 'for bob');
    await notifyUser(ann, 'second', 'friend_request');

    const res = await server.get('/api/notifications', ann.token);
    expect(res.status).toBe(200);
    const body = notificationsResponseSchema.parse(res.body);
    expect(body.unreadCount).toBe(2);
    expect(body.notifications.map((n) => n.title)).toEqual(['second', 'first']);
    expect(body.notifications[1]).toMatchObject({
      type: 'confession_reaction',
      body: 'first body',
      isRead: false,
      data: { confessionId: 'c-1' },
    });

    const page2 = await server.get('/api/notifications?page=2&limit=1', ann.token);
    expect((page2.body.notifications as { title: string }[]).map((n) => n.title)).toEqual(['first']);
    expect((await server.get('/api/notifications?limit=0', ann.token)).status).toBe(400);
    expect((await server.get('/api/notifications/unread-count', bob.token)).body).toEqual({ unreadCount: 1 });
    expect((await server.get('/api/notifications')).status).toBe(401);
  });

  it('marks read for the owner only; the count never goes below zero', async () => {
    const ann = await createUser(server, 'Ann');
    const eve = await createUser(server, 'Eve');
    const { id } = await notifyUser(ann, 'hello');

    const foreign = await put(`/api/notifications/${id}/read`, eve.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: CONFESSION_SERVER_MSG.notificationNotFound });
    expect((await server.get('/api/notifications/unread-count', ann.token)).body).toEqual({ unreadCount: 1 });

    for (let i = 0; i < 3; i++) {
      const res = await put(`/api/notifications/${id}/read`, ann.token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ unreadCount: 0 });
    }
    const list = notificationsResponseSchema.parse((await server.get('/api/notifications', ann.token)).body);
    expect(list.unreadCount).toBe(0);
    expect(list.notifications[0]!.isRead).toBe(true);
    expect((await put('/api/notifications/no-such-id/read', ann.token)).status).toBe(404);
    expect((await put('/api/notifications/bad%20id!/read', ann.token)).status).toBe(404);
  });

  // SQLite's planner only: its parameters are opaque (lib/db/opaque-parameters.ts), so the partial index
  // is taken only because the query writes its condition (is_read = 0) rather than binding it.
  itOnSqlite('counts unread on the partial index notifications_unread_idx', async () => {
    const user = await createUser(server, 'Una');
    await notifyUser(user, 'One');
    let count = -1;
    const plans = await selectPlansOf(server.deps.sqlite, async () => {
      count = await countUnread(server.deps.db, user.id);
    });
    expect(count).toBe(1);
    expect(plans).toEqual([expect.stringContaining('USING COVERING INDEX notifications_unread_idx')]);
  });
});

describe('notifications live', () => {
  it('notify() inside a commit reaches the user’s devices and nobody else', async () => {
    const ann = await createUser(server, 'Ann');
    const cid = await createUser(server, 'Cid');
    const [phone, laptop, other] = await Promise.all([connect(ann), connect(ann), connect(cid)]);
    const created = await notifyUser(ann, 'Someone reacted');
    for (const client of [phone, laptop]) {
      const frame = await client.waitFor((f) => f.type === 'notification_created');
      expect(frame.notification).toEqual(created);
      expect(typeof frame.seq).toBe('number');
    }
    await WsClient.settle();
    expect(other.of('notification_created')).toHaveLength(0);
  });

  it('reading on one device tells the others once; the outbox mutation does the same', async () => {
    const ann = await createUser(server, 'Ann');
    const [phone, laptop] = await Promise.all([connect(ann), connect(ann)]);
    const first = await notifyUser(ann, 'one');
    const second = await notifyUser(ann, 'two');
    await put(`/api/notifications/${first.id}/read`, ann.token);
    await put(`/api/notifications/${first.id}/read`, ann.token);
    expect(await laptop.waitFor((f) => f.type === 'notification_read')).toMatchObject({
      notificationId: first.id,
    });

    const eve = await createUser(server, 'Eve');
    const frame = { type: 'mark_notification_read' as const, deviceId: phone.deviceId, mid: 1 };
    const { mark_notification_read: handler } = notificationMutationHandlers(server.deps);
    await server.deps.transactor.commit(async (tx) => {
      await handler.apply(tx, { ...frame, notificationId: second.id }, { userId: eve.id });
      await handler.apply(tx, { ...frame, notificationId: second.id }, { userId: ann.id });
    });
    await laptop.waitFor((f) => f.type === 'notification_read' && f.notificationId === second.id);
    await WsClient.settle();
    expect(laptop.of('notification_read')).toHaveLength(2);
    expect((await server.get('/api/notifications/unread-count', ann.token)).body).toEqual({ unreadCount: 0 });
  });

  it('a notification whose transaction rolls back is neither stored nor sent', async () => {
    const ann = await createUser(server, 'Ann');
    const phone = await connect(ann);
    await expect(
      server.deps.transactor.commit(async (tx) => {
        await notify(tx, server.deps, {
          userId: ann.id,
          type: 'confession_comment',
          title: 't',
          body: 'b',
          data: {},
        });
        throw new Error('the reaction failed');
      }),
    ).rejects.toThrow('the reaction failed');
    await WsClient.settle();
    expect(phone.of('notification_created')).toHaveLength(0);
    expect((await server.get('/api/notifications', ann.token)).body).toEqual({
      notifications: [],
      unreadCount: 0,
    });
  });
});

// SQLite's planner (its rowid, EXPLAIN QUERY PLAN): PostgreSQL plans by table statistics, so on SQLite only.
itOnSqlite(
  'notification queries use their indexes: the page without a sort step, the count on unread rows only',
  () => {
    const plan = (query: string) =>
      (server.deps.sqlite.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as { detail: string }[])
        .map((row) => row.detail)
        .join('; ');
    const page = plan(
      `SELECT id FROM notifications WHERE user_id = 'a' ORDER BY created_at DESC, rowid DESC LIMIT 50`,
    );
    expect(page).toMatch(/notifications_user_created_idx/);
    expect(page).not.toMatch(/TEMP B-TREE/);
    expect(plan(`SELECT count(*) FROM notifications WHERE user_id = 'a' AND is_read = 0`)).toMatch(
      /notifications_unread_idx/,
    );
    expect(plan(`SELECT endpoint FROM push_subscriptions WHERE user_id = 'a'`)).toMatch(
      /push_subscriptions_user_idx/,
    );
  },
);
