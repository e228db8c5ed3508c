import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup } from '../src/modules/groups/service';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;
let gus: TestUser & { email: string };
let eve: TestUser;
const open: WsClient[] = [];

async function connect(user: TestUser, options: { pull?: number } = {}) {
  const client = await WsClient.connect(server, user, options);
  open.push(client);
  return client;
}

async function putPicture(token: string, color: number) {
  const png = await sharp({
    create: { width: 64, height: 64, channels: 3, background: { r: color, g: 10, b: 10 } },
  })
    .png()
    .toBuffer();
  const res = await fetch(`${server.url}/api/users/profile/picture`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
    body: png,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { profilePictureUrl: string };
}

const isUpdateOf = (id: string) => (f: Frame) =>
  f.type === 'user_updated' && (f.user as { id: string }).id === id;

beforeAll(async () => {
  server = await startTestServer();
  ann = await createUser(server, 'Ann');
  bob = await createUser(server, 'Bob');
  gus = await createUser(server, 'Gus');
  eve = await createUser(server, 'Eve');
  // Gus shares only a group with Ann.
  await createGroup(server.deps, ann.id, { name: 'Study', memberIds: [gus.id] });
});
afterAll(async () => {
  for (const c of open) c.close();
  await server.close();
});

describe('user_updated', () => {
  it('a new picture reaches my other devices and my contacts live, not strangers, and a later pull', async () => {
    const a1 = await connect(ann);
    const a2 = await connect(ann);
    const b = await connect(bob);
    // Ann and Bob share a direct chat with a message.
    a1.mutate({ type: 'send_message', id: randomUUID(), to: bob.id, content: 'hi' });
    const first = await b.waitFor((f) => f.type === 'receive_message');
    const cursor = first.seq as number;
    const e = await connect(eve);
    // Gus is offline with his cursor.
    const g0 = await connect(gus);
    const gusCursor = (g0.of('sync_reset')[0]?.cursor ?? g0.of('changes').at(-1)?.cursor) as number;
    g0.close();
    await g0.waitClose();

    const { profilePictureUrl } = await putPicture(ann.token, 200);
    const card = { id: ann.id, firstName: 'Ann', lastName: 'Student', profilePictureUrl };

    for (const client of [a1, a2, b]) {
      const change = await client.waitFor(isUpdateOf(ann.id));
      expect(change).toEqual({ type: 'user_updated', seq: change.seq, user: card });
      expect(change.seq).toBeGreaterThan(cursor);
    }
    await WsClient.settle();
    expect(e.frames.filter(isUpdateOf(ann.id))).toEqual([]);

    // Through the group's audience, pulled after being offline.
    const g = await connect(gus, { pull: gusCursor });
    const pulled = g
      .of('changes')
      .flatMap((p) => p.changes as Frame[])
      .filter(isUpdateOf(ann.id));
    expect(pulled).toHaveLength(1);
    expect(pulled[0]!.user).toEqual(card);
    // Eve's pull from before the change does not carry it either.
    const e2 = await connect(eve, { pull: cursor });
    expect(
      e2
        .of('changes')
        .flatMap((p) => p.changes as Frame[])
        .filter(isUpdateOf(ann.id)),
    ).toEqual([]);

    // The server's user-ref cache was refreshed: a new message carries the new picture.
    a1.mutate({ type: 'send_message', id: randomUUID(), to: bob.id, content: 'new face' });
    const next = await b.waitFor(
      (f) => f.type === 'receive_message' && (f.message as { content: string }).content === 'new face',
    );
    expect((next.message as { from: unknown }).from).toEqual(card);
  });

  it('the same picture again, a removal of no picture and a profile save emit no user_updated', async () => {
    const b = await connect(bob);
    await putPicture(bob.token, 50);
    await b.waitFor(isUpdateOf(bob.id));
    const before = b.frames.length;
    await putPicture(bob.token, 50);
    const saved = await fetch(`${server.url}/api/users/profile`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ course: 'Physics', bio: 'hello' }),
    });
    expect(saved.status).toBe(200);
    const removed = await fetch(`${server.url}/api/users/profile/picture`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${bob.token}` },
    });
    expect(removed.status).toBe(200);
    const cleared = await b.waitFor(isUpdateOf(bob.id), before);
    expect((cleared.user as { profilePictureUrl: unknown }).profilePictureUrl).toBeNull();
    await fetch(`${server.url}/api/users/profile/picture`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${bob.token}` },
    });
    await WsClient.settle();
    expect(b.frames.slice(before).filter(isUpdateOf(bob.id))).toHaveLength(1);
  });
});

describe('me_updated', () => {
  const isMeUpdate = (id: string) => (f: Frame) =>
    f.type === 'me_updated' && (f.user as { id: string }).id === id;

  it('a profile save reaches my own devices with my access level, never a contact', async () => {
    const g1 = await connect(gus);
    const g2 = await connect(gus);
    const a = await connect(ann);
    const saved = await server.call('PUT', '/api/users/profile', { course: 'Maths', year: 4 }, gus.token);
    expect(saved.status).toBe(200);
    for (const client of [g1, g2]) {
      const change = await client.waitFor(isMeUpdate(gus.id));
      expect(change.user).toEqual(saved.body);
      expect(change.user).toMatchObject({ course: 'Maths', year: 4, access: 'full', rejectionReason: null });
    }
    // The picture too: the full profile to my devices, the card to my contacts.
    const { profilePictureUrl } = await putPicture(gus.token, 120);
    expect(
      (
        await g1.waitFor(
          (f) =>
            isMeUpdate(gus.id)(f) &&
            (f.user as { profilePictureUrl: unknown }).profilePictureUrl === profilePictureUrl,
        )
      ).user,
    ).toMatchObject({ email: gus.email });
    await a.waitFor(isUpdateOf(gus.id));
    await WsClient.settle();
    expect(a.frames.filter((f) => f.type === 'me_updated')).toEqual([]);
  });
});
