import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushPayloadSchema, type NotificationType } from '@campus/protocol';
import { pino } from 'pino';
import { startServer } from '../src/server';
import { createPushService } from '../src/lib/push/sender';
import { loadOrCreateVapidKeys } from '../src/lib/push/vapid';
import { notify, PUSH_REGISTER_RATE } from '../src/modules/notifications';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';
import { browserKeys, decryptPush, startPushService, vapidClaims, vapidSignatureValid } from './push-helpers';
import { rowsOf } from './support/sql';

let server: TestServer;
let push: Awaited<ReturnType<typeof startPushService>>;
const open: WsClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  push = await startPushService();
});
afterAll(async () => {
  for (const c of open) c.close();
  await server.close();
  await push.close();
});

let endpoints = 0;
/** Registers a fresh browser subscription for the user, pointing at the local push service. */
async function subscribe(user: TestUser) {
  const browser = browserKeys();
  const endpoint = `${push.base}/push/${++endpoints}-${user.id}`;
  const res = await server.post(
    '/api/users/register-push-token',
    { endpoint, keys: browser.keys },
    user.token,
  );
  expect(res.status).toBe(201);
  return { browser, endpoint, path: new URL(endpoint).pathname };
}

function notifyUser(user: TestUser, type: NotificationType = 'confession_comment') {
  return server.deps.transactor.commit((tx) =>
    notify(tx, server.deps, {
      userId: user.id,
      type,
      title: 'New comment',
      body: 'Someone commented on your confession',
      data: type === 'friend_request' ? {} : { confessionId: 'conf-42' },
    }),
  );
}

const storedEndpoints = async (user: TestUser) =>
  (
    await rowsOf<{ endpoint: string }>(
      server,
      'SELECT endpoint FROM push_subscriptions WHERE user_id = ?',
      user.id,
    )
  ).map((r) => r.endpoint);

describe('web push', () => {
  it('serves the VAPID public key to signed-in users', async () => {
    const ann = await createUser(server, 'Ann');
    const res = await server.get('/api/push/vapid-public-key', ann.token);
    expect(res.status).toBe(200);
    const key = Buffer.from(res.body.publicKey as string, 'base64url');
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
    expect((await server.get('/api/push/vapid-public-key')).status).toBe(401);
  });

  it('pushes to an offline user’s subscription with web-push’s headers and an encrypted payload', async () => {
    const ann = await createUser(server, 'Ann');
    const sub = await subscribe(ann);
    const before = push.received.length;
    const created = await notifyUser(ann);
    await push.waitFor(before + 1);
    const got = push.received[before]!;
    expect(got.method).toBe('POST');
    expect(got.path).toBe(sub.path);
    expect(got.headers).toMatchObject({
      'content-encoding': 'aes128gcm',
      'content-type': 'application/octet-stream',
      ttl: '86400',
      urgency: 'normal',
    });
    const publicKey = (await server.get('/api/push/vapid-public-key', ann.token)).body.publicKey;
    const { claims, publicKey: signedWith } = vapidClaims(got.headers.authorization);
    expect(signedWith).toBe(publicKey);
    expect(claims.aud).toBe(push.base);
    expect(claims.sub).toMatch(/^mailto:/);
    expect(vapidSignatureValid(got.headers.authorization)).toBe(true);

    const payload = pushPayloadSchema.parse(JSON.parse(decryptPush(got.body, sub.browser)));
    expect(payload).toEqual({
      title: 'New comment',
      body: 'Someone commented on your confession',
      url: '/confessions?confessionId=conf-42',
      type: 'confession_comment',
      notificationId: created.id,
    });
  });

  it('pushes to every subscription of the user (each device)', async () => {
    const gus = await createUser(server, 'Gus');
    const [phone, laptop] = [await subscribe(gus), await subscribe(gus)];
    const before = push.received.length;
    await notifyUser(gus);
    await push.waitFor(before + 2);
    const paths = push.received.slice(before).map((r) => r.path);
    expect(paths.sort()).toEqual([phone.path, laptop.path].sort());
  });

  it('sends nothing while the user has a live connection; a friend request opens the requests modal', async () => {
    const bob = await createUser(server, 'Bob');
    const sub = await subscribe(bob);
    const client = await WsClient.connect(server, bob);
    open.push(client);
    const before = push.received.length;
    await notifyUser(bob);
    await client.waitFor((f) => f.type === 'notification_created');
    await WsClient.settle(300);
    expect(push.received.slice(before).filter((r) => r.path === sub.path)).toHaveLength(0);

    client.close();
    await client.waitClose();
    await WsClient.settle(100);
    await notifyUser(bob, 'friend_request');
    await push.waitFor(before + 1);
    const got = push.received[before]!;
    expect(got.path).toBe(sub.path);
    expect(got.headers.urgency).toBe('high');
    expect(JSON.parse(decryptPush(got.body, sub.browser))).toMatchObject({ url: '/talk?friendRequests=1' });
  });

  it('forgets a subscription the push service calls gone (410)', async () => {
    const cid = await createUser(server, 'Cid');
    const sub = await subscribe(cid);
    expect(await storedEndpoints(cid)).toEqual([sub.endpoint]);
    push.answer(410);
    try {
      const before = push.received.length;
      await notifyUser(cid);
      await push.waitFor(before + 1);
      // Deleted in a commit after the answer (on PostgreSQL a few round trips later).
      await expect.poll(() => storedEndpoints(cid)).toEqual([]);
      await notifyUser(cid);
      await WsClient.settle(300);
      expect(push.received.length).toBe(before + 1);
    } finally {
      push.answer(201);
    }
  });

  it('keeps the newest 10 subscriptions per user, moves a re-registered endpoint, refuses bad ones', async () => {
    const dee = await createUser(server, 'Dee');
    const subs = [];
    for (let i = 0; i < 12; i++) subs.push(await subscribe(dee));
    expect((await storedEndpoints(dee)).sort()).toEqual(
      subs
        .slice(2)
        .map((s) => s.endpoint)
        .sort(),
    );

    // The same browser, now signed in as someone else, belongs to them.
    const eve = await createUser(server, 'Eve');
    const moved = subs[11]!;
    const res = await server.post(
      '/api/users/register-push-token',
      { endpoint: moved.endpoint, keys: moved.browser.keys },
      eve.token,
    );
    expect(res.status).toBe(201);
    expect(await storedEndpoints(eve)).toEqual([moved.endpoint]);
    expect(await storedEndpoints(dee)).not.toContain(moved.endpoint);

    const keys = browserKeys().keys;
    const bad = [
      { endpoint: 'ftp://127.0.0.1/x', keys },
      { endpoint: `${push.base}/x`, keys: { ...keys, p256dh: 'AAAA' } },
      { endpoint: `${push.base}/x`, keys: { ...keys, auth: Buffer.alloc(8).toString('base64url') } },
      { endpoint: 'not a url', keys },
    ];
    for (const body of bad)
      expect((await server.post('/api/users/register-push-token', body, eve.token)).status).toBe(400);
    expect(
      (await server.post('/api/users/register-push-token', { endpoint: `${push.base}/x`, keys })).status,
    ).toBe(401);
  });

  it('rate-limits registrations per user', async () => {
    const fay = await createUser(server, 'Fay');
    const keys = browserKeys().keys;
    const statuses = [];
    for (let i = 0; i <= PUSH_REGISTER_RATE.limit; i++) {
      const body = { endpoint: `${push.base}/rate/${i}`, keys };
      statuses.push((await server.post('/api/users/register-push-token', body, fay.token)).status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('push failures', () => {
  it('are logged with the push service origin and status, never the subscription path or keys', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const service = createPushService({
      vapid: loadOrCreateVapidKeys(server.dataDir),
      subject: 'mailto:ops@campustalk.local',
      log,
      allowLocalEndpoints: true,
    });
    const browser = browserKeys();
    const target = { endpoint: `${push.base}/secret-subscription-token`, keys: browser.keys };
    const payload = {
      title: 't',
      body: 'b',
      url: '/confessions',
      type: 'confession_reaction',
      notificationId: 'n',
    };
    push.answer(500);
    try {
      expect(await service.send(target, payload, { urgency: 'normal' })).toBe('failed');
    } finally {
      push.answer(201);
    }
    expect(
      await service.send({ ...target, endpoint: 'http://127.0.0.1:1/secret-subscription-token' }, payload, {
        urgency: 'normal',
      }),
    ).toBe('failed');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(push.base);
    expect(lines[0]).toContain('500');
    for (const line of lines) {
      expect(line).not.toContain('secret-subscription-token');
      expect(line).not.toContain(browser.keys.auth);
    }
  });
});

describe('push endpoints outside tests', () => {
  it('must be a browser push service on the https port, so a user cannot aim the server inward', () => {
    const service = createPushService({
      vapid: loadOrCreateVapidKeys(server.dataDir),
      subject: 'mailto:ops@campustalk.local',
      log: pino({ level: 'silent' }),
      allowLocalEndpoints: false,
    });
    for (const ok of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/abc',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
    ])
      expect(service.acceptsEndpoint(ok)).toBe(true);
    for (const refused of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://127.0.0.1/x',
      'https://[::1]/x',
      'https://localhost/x',
      'https://localhost./x',
      'https://metadata.internal/x',
      'https://printer.local/x',
      'https://intranet/x',
      'https://user:pw@fcm.googleapis.com/x',
      'https://fcm.googleapis.com:8443/x',
      'https://127.0.0.1.nip.io/x',
      'https://internal-api.corp.example.com/x',
      'https://fcm.googleapis.com.evil.example/x',
      'https://evilfcm.googleapis.com/x',
      'not a url',
    ])
      expect(service.acceptsEndpoint(refused)).toBe(false);
  });
});

describe('VAPID keys', () => {
  it('are made on first start, kept in DATA_DIR (0600) and reused after a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-talk-vapid-'));
    const config = { port: 0, host: '127.0.0.1', dataDir, nodeEnv: 'test' as const, logLevel: 'silent' };
    try {
      const first = await startServer({ config: { ...config, webDist: path.join(dataDir, 'none') } });
      const key = first.deps.push.publicKey;
      await first.stop();
      const file = path.join(dataDir, 'keys', 'vapid.json');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const second = await startServer({ config: { ...config, webDist: path.join(dataDir, 'none') } });
      expect(second.deps.push.publicKey).toBe(key);
      await second.stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
