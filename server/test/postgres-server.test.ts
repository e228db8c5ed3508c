import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

/**
 * The server on PostgreSQL (DATABASE_URL), end to end: in the `server-pg` project only (TEST_DATABASE=
 * postgres gives each server a throwaway schema). Sends, acks, live delivery, the pull's pages and its
 * handoff to live, a reset, Kysely refused inside a commit, and a restart that keeps the data and the seqs.
 */
let server: TestServer;
let ann: TestUser;
let bob: TestUser;

type Msg = { id: string; content: string; seq: number };

beforeAll(async () => {
  server = await startTestServer({
    realtime: { ratePerSecond: 10_000, rateBurst: 10_000, pullPageSize: 10 },
  });
  ann = await createUser(server, 'Ann');
  bob = await createUser(server, 'Bob');
});
afterAll(() => server.close());

const maxSeq = async (s: TestServer) =>
  Number(
    (
      await s.deps.db
        .selectFrom('change_log')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .executeTakeFirst()
    )?.seq ?? 0,
  );

describe('the server on PostgreSQL', () => {
  it('runs on PostgreSQL, not SQLite', async () => {
    expect(server.deps.database).toMatchObject({ kind: 'postgres', open: true });
    expect((await server.get('/readyz')).status).toBe(200);
  });

  it('a message is acknowledged, delivered live, and a pull from a cursor brings the missed ones in pages, once, in order', async () => {
    const a = await WsClient.connect(server, ann);
    const b = await WsClient.connect(server, bob);
    expect(b.of('sync_reset')).toHaveLength(1);
    const first = randomUUID();
    const mid = a.mutate({ type: 'send_message', id: first, to: bob.id, content: 'hello from PG' });
    await a.waitFor((f) => f.type === 'ack' && f.mid === mid);
    const live = await b.waitFor((f) => f.type === 'receive_message' && (f.message as Msg).id === first);
    b.mutate({ type: 'send_message', id: randomUUID(), to: ann.id, content: 'back' });
    const answer = await b.waitFor(
      (f) => f.type === 'receive_message' && (f.message as Msg).content === 'back',
    );
    expect(answer.seq).toBeGreaterThan(live.seq as number);
    const cursor = answer.seq as number;
    b.close();
    await b.waitClose();

    const ids: string[] = [];
    let last = 0;
    for (let i = 0; i < 25; i++) {
      const id = randomUUID();
      ids.push(id);
      last = a.mutate({ type: 'send_message', id, to: bob.id, content: `m${i}` });
    }
    await a.waitFor((f) => f.type === 'ack' && f.mid === last);
    // Read before Bob is back: the pull's delivery receipts commit right after it, past this seq.
    const head = await maxSeq(server);

    const back = await WsClient.connect(server, bob, { pull: cursor });
    const pages = back.of('changes');
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.slice(0, -1).every((p) => p.hasMore === true)).toBe(true);
    const received = pages
      .flatMap((p) => p.changes as Frame[])
      .filter((c) => c.type === 'receive_message')
      .map((c) => c.message as Msg);
    expect(received.map((m) => m.id)).toEqual(ids);
    // The log's end as the pull read it: nothing before the messages' last, nothing past what is stored now
    // (Bob's sign-in and the pull's own delivery receipts may commit around it).
    expect(pages.at(-1)!.cursor).toBeGreaterThanOrEqual(head);
    expect(pages.at(-1)!.cursor).toBeLessThanOrEqual(await maxSeq(server));

    // Live again after the pull: the next message comes once.
    const after = randomUUID();
    a.mutate({ type: 'send_message', id: after, to: bob.id, content: 'after the pull' });
    await back.waitFor((f) => f.type === 'receive_message' && (f.message as Msg).id === after);
    await WsClient.settle(150);
    expect(back.of('receive_message').map((f) => (f.message as Msg).id)).toEqual([after]);
    a.close();
    back.close();
  });

  it('messages sent while a pull is being read go out live after its pages, never twice', async () => {
    const a = await WsClient.connect(server, ann);
    const cursor = await maxSeq(server);
    const sent: string[] = [];
    for (let i = 0; i < 15; i++) {
      const id = randomUUID();
      sent.push(id);
      a.mutate({ type: 'send_message', id, to: bob.id, content: `before ${i}` });
    }
    const b = await WsClient.open(server);
    b.send({ type: 'hello', v: PROTOCOL_VERSION, token: bob.token });
    await b.waitFor((f) => f.type === 'welcome');
    b.send({ type: 'pull', cursor });
    // More while the pull runs: each must arrive exactly once, in the pages or live.
    for (let i = 0; i < 15; i++) {
      const id = randomUUID();
      sent.push(id);
      a.mutate({ type: 'send_message', id, to: bob.id, content: `during ${i}` });
    }
    await b.waitFor((f) => f.type === 'changes' && f.hasMore === false);
    await b
      .waitFor((f) => f.type === 'receive_message' && (f.message as Msg).id === sent.at(-1), 0, 10_000)
      .catch(() => undefined);
    await WsClient.settle(200);
    const got = [
      ...b
        .of('changes')
        .flatMap((p) => p.changes as Frame[])
        .filter((c) => c.type === 'receive_message')
        .map((c) => (c.message as Msg).id),
      ...b.of('receive_message').map((f) => (f.message as Msg).id),
    ];
    expect(got).toEqual(sent);
    a.close();
    b.close();
  });

  it('a cursor from the future is answered with sync_reset at the log end', async () => {
    const head = await maxSeq(server);
    const b = await WsClient.connect(server, bob, { pull: 10_000_000 });
    const reset = b.of('sync_reset')[0]!;
    expect((reset.messages as Msg[]).length).toBeGreaterThan(0);
    // The log's end as the reset read it (a receipt may commit right after it).
    expect(reset.cursor).toBeGreaterThanOrEqual(head);
    expect(reset.cursor).toBeLessThanOrEqual(await maxSeq(server));
    b.close();
  });

  it('refuses deps.db inside a realtime commit (it would wait on the commit’s own locks)', async () => {
    await expect(
      server.deps.transactor.commit(() => server.deps.db.selectFrom('users').select('id').execute()),
    ).rejects.toThrow(/inside a realtime commit/);
    // The transactor goes on.
    expect((await server.deps.db.selectFrom('users').select('id').execute()).length).toBeGreaterThan(1);
  });
});

describe('a restart on PostgreSQL', () => {
  it('keeps the data and continues the seqs', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-talk-pg-restart-'));
    try {
      const one = await startTestServer({ config: { dataDir: dir } });
      const cy = await createUser(one, 'Cy');
      const di = await createUser(one, 'Di');
      const c = await WsClient.connect(one, cy);
      const mid = c.mutate({ type: 'send_message', id: randomUUID(), to: di.id, content: 'before restart' });
      const ack = await c.waitFor((f) => f.type === 'ack' && f.mid === mid);
      const before = await maxSeq(one);
      c.close();
      await one.close();

      const two = await startTestServer({ config: { dataDir: dir } });
      try {
        expect(await maxSeq(two)).toBe(before);
        const d = await WsClient.connect(two, di);
        const reset = d.of('sync_reset')[0]!;
        expect((reset.messages as Msg[]).map((m) => m.content)).toContain('before restart');
        const next = randomUUID();
        d.mutate({ type: 'send_message', id: next, to: cy.id, content: 'after restart' });
        const echo = await d.waitFor((f) => f.type === 'receive_message' && (f.message as Msg).id === next);
        expect(echo.seq).toBe(before + 1);
        expect(ack.type).toBe('ack');
        d.close();
      } finally {
        await two.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
