import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDirectMessage, sendGroupMessage, setReaction } from '../src/modules/chat';
import { createGroup } from '../src/modules/groups/service';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type TestUser } from './support/ws-client';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;
let cat: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [ann, bob, cat] = [
    await createUser(server, 'Ann'),
    await createUser(server, 'Bob'),
    await createUser(server, 'Cat'),
  ];
});
afterAll(() => server.close());

describe('sync_reset snapshot', () => {
  it("holds exactly page 1 of every conversation's REST history (reactions included), conversation by conversation", async () => {
    const deps = server.deps;
    const ids: string[] = [];
    for (let i = 0; i < 35; i++) {
      const [from, to] = i % 2 ? [bob, ann] : [ann, bob];
      ids.push(
        (await sendDirectMessage(deps, from.id, { id: randomUUID(), to: to.id, content: `ab ${i}` })).id,
      );
    }
    await sendDirectMessage(deps, cat.id, { id: randomUUID(), to: ann.id, content: 'hi from cat' });
    await deps.transactor.commit((tx) =>
      setReaction(tx, bob.id, { messageId: ids[34]!, emoji: '👍', toUserId: ann.id }),
    );
    await deps.transactor.commit((tx) =>
      setReaction(tx, ann.id, { messageId: ids[34]!, emoji: '😂', toUserId: bob.id }),
    );
    await deps.transactor.commit((tx) =>
      setReaction(tx, ann.id, { messageId: ids[3]!, emoji: '👍', toUserId: bob.id }),
    ); // not in page 1
    const group = await createGroup(deps, ann.id, { name: 'Study', memberIds: [bob.id, cat.id] });
    for (let i = 0; i < 33; i++) {
      await sendGroupMessage(deps, [ann, bob, cat][i % 3]!.id, {
        id: randomUUID(),
        groupId: group.id,
        content: `g ${i}`,
      });
    }
    const empty = await createGroup(deps, bob.id, { name: 'Quiet', memberIds: [ann.id] });

    const client = await WsClient.connect(server, ann);
    const reset = client.of('sync_reset')[0]!;
    const [withCat, withBob] = await Promise.all([
      server.get(`/api/chat/${cat.id}?limit=30`, ann.token),
      server.get(`/api/chat/${bob.id}?limit=30`, ann.token),
    ]);
    const groupPage = await server.get(`/api/groups/${group.id}/messages?limit=30`, ann.token);
    // Conversations are newest first: Cat's message came after Bob's.
    // Status aside: handing the snapshot over marks Ann's incoming messages delivered just after it is built.
    const noStatus = (list: unknown) => (list as { status: string }[]).map(({ status: _status, ...m }) => m);
    expect(noStatus(reset.messages)).toEqual(
      noStatus([...(withCat.body as unknown as unknown[]), ...(withBob.body as unknown as unknown[])]),
    );
    expect((reset.messages as unknown[]).length).toBe(31);
    expect(reset.groupMessages).toEqual(groupPage.body);
    expect((reset.groupMessages as unknown[]).length).toBe(30);
    expect((reset.groups as { id: string }[]).map((g) => g.id).sort()).toEqual([group.id, empty.id].sort());
    client.close();
  });

  it("never carries another student's e-mail address: a stranger's chat or group would otherwise hand it out", async () => {
    const deps = server.deps;
    // Dan reaches Eve only through the directory: one message and a group he adds her to.
    const [dan, eve] = [await createUser(server, 'Dan'), await createUser(server, 'Eve')];
    await sendDirectMessage(deps, dan.id, { id: randomUUID(), to: eve.id, content: 'hello stranger' });
    await createGroup(deps, dan.id, { name: 'Cold call', memberIds: [eve.id] });

    const client = await WsClient.connect(server, dan);
    const reset = client.of('sync_reset')[0]!;
    const users = reset.users as { id: string }[];
    expect(users.map((u) => u.id)).toContain(eve.id);
    expect(JSON.stringify(reset)).not.toContain(eve.email);
    const conversations = await server.get('/api/conversations', dan.token);
    expect(JSON.stringify(conversations.body)).not.toContain(eve.email);
    expect(conversations.body).toContainEqual(expect.objectContaining({ id: eve.id, email: null }));
    client.close();
  });
});
