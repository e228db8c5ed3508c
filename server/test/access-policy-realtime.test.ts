import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RANDOM_MSG, type DocumentStatus, type MutationType } from '@campus/protocol';
import { createFeatures } from '../src/features';
import { sendDirectMessage } from '../src/modules/chat';
import { createGroup } from '../src/modules/groups/service';
import type { MutationAccess } from '../src/realtime/registry';
import { FULL, LIMITED, REFUSAL_TEXT, STATUSES } from './access-policy-helpers';
import { startTestServer, type TestServer } from './support/test-server';
import { execSql } from './support/sql';
import { setDocumentStatus } from './support/verify-student';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

/**
 * The access policy at the realtime door (issue 11): every mutation declares its access; the gated ones
 * are refused with `message_error` verificationRequired for the limited statuses, the status is read fresh
 * per mutation (an admin's decision counts on an open socket), and a limited account may answer someone
 * who wrote to it first but not start a chat. Adding a gated mutation is one line in GATED_MUTATIONS.
 */

/** Each mutation's declared access: the engine's table must match it exactly. */
const DECLARED: Record<MutationType, MutationAccess> = {
  send_message: 'handler',
  send_group_message: 'participation',
  mark_messages_as_read: 'open',
  'chat-reaction': 'participation',
  confession_react: 'participation',
  confession_comment: 'participation',
  confession_post: 'participation',
  confession_delete: 'open',
  mark_notification_read: 'open',
  // Answering a request and blocking: open (answering someone; a limited account may protect itself).
  decide_friend_request: 'open',
  block_user: 'open',
  unblock_user: 'open',
};

interface Ctx {
  actor: TestUser;
  ws: WsClient;
  /** Verified; wrote `peerMessageId` to the actor and shares `groupId` with them. */
  peer: TestUser;
  /** Verified; never wrote to the actor. */
  stranger: TestUser;
  groupId: string;
  peerMessageId: string;
  confessionId: string;
}

const GATED_MUTATIONS: { name: string; frame: (c: Ctx) => Frame }[] = [
  {
    name: 'send_message starting a chat',
    frame: (c) => ({ type: 'send_message', id: randomUUID(), to: c.stranger.id, content: 'hello' }),
  },
  {
    name: 'send_group_message',
    frame: (c) => ({ type: 'send_group_message', id: randomUUID(), groupId: c.groupId, content: 'hi all' }),
  },
  {
    name: 'chat-reaction',
    frame: (c) => ({ type: 'chat-reaction', messageId: c.peerMessageId, emoji: '👍', toUserId: c.peer.id }),
  },
  {
    name: 'confession_react',
    frame: (c) => ({
      type: 'confession_react',
      confessionId: c.confessionId,
      reactionType: 'funny',
      on: true,
    }),
  },
  {
    name: 'confession_comment',
    frame: (c) => ({
      type: 'confession_comment',
      id: randomUUID(),
      confessionId: c.confessionId,
      content: 'Yes',
    }),
  },
  {
    name: 'confession_post',
    frame: () => ({
      type: 'confession_post',
      id: randomUUID(),
      content: 'Cafeteria samosas rule.',
      emotionTag: '😐',
    }),
  },
];

/** Sends a mutation and waits for its answer (ack or message_error). */
async function send(ws: WsClient, frame: Frame): Promise<Frame> {
  const mid = ws.mutate(frame);
  return ws.waitFor((f) => (f.type === 'ack' || f.type === 'message_error') && f.mid === mid);
}

function expectRefused(answer: Frame, status: (typeof LIMITED)[number], label: string) {
  expect(answer, `${label} as ${status}`).toMatchObject({
    type: 'message_error',
    code: 'verificationRequired',
    error: REFUSAL_TEXT[status],
  });
}

const sockets: WsClient[] = [];
let server: TestServer;
let ctxOf: Map<DocumentStatus, Ctx>;

async function nickname(user: TestUser) {
  const body = { nickname: `nick ${randomUUID().slice(0, 8)}` };
  expect((await server.post('/api/confessions/nickname/set', body, user.token)).status).toBe(200);
}

async function connect(user: TestUser) {
  const ws = await WsClient.connect(server, user);
  sockets.push(ws);
  return ws;
}

beforeAll(async () => {
  server = await startTestServer();
  const peer = await createUser(server, 'Peer');
  await nickname(peer);
  const posted = await server.post(
    '/api/confessions/post',
    { content: 'Group projects are a trust exercise.', emotionTag: '😐' },
    peer.token,
  );
  const confessionId = (posted.body as { id: string }).id;
  ctxOf = new Map();
  for (const status of STATUSES) {
    const actor = await createUser(server, `Acc${status.replace(/_/g, '')}`, status);
    const stranger = await createUser(server, 'Stranger');
    await nickname(actor);
    const groupId = (await createGroup(server.deps, peer.id, { name: 'Lab', memberIds: [actor.id] })).id;
    const content = 'Are you coming to the lab?';
    const peerMessageId = (
      await sendDirectMessage(server.deps, peer.id, { id: randomUUID(), to: actor.id, content })
    ).id;
    ctxOf.set(status, {
      actor,
      ws: await connect(actor),
      peer,
      stranger,
      groupId,
      peerMessageId,
      confessionId,
    });
  }
});
afterAll(async () => {
  for (const ws of sockets) ws.close();
  await server.close();
});

describe('declared access', () => {
  it('every mutation declares its access, and the engine holds exactly this table', () => {
    const { mutations } = createFeatures(server.deps);
    const declared = Object.fromEntries(Object.entries(mutations).map(([type, h]) => [type, h.access]));
    expect(declared).toEqual(DECLARED);
  });
});

describe.each(GATED_MUTATIONS)('realtime: $name', ({ name, frame }) => {
  it('is refused for pending_submission, pending_verification and rejected, and writes nothing', async () => {
    for (const status of LIMITED) {
      const ctx = ctxOf.get(status)!;
      const sent = frame(ctx);
      expectRefused(await send(ctx.ws, sent), status, name);
      if (typeof sent.id === 'string') {
        await WsClient.settle(50);
        const leaked = ctx.ws.frames.some(
          (f) => f.type !== 'message_error' && JSON.stringify(f).includes(sent.id as string),
        );
        expect(leaked, name).toBe(false);
      }
    }
  });

  it('is applied for verified and not_required', async () => {
    for (const status of FULL) {
      const ctx = ctxOf.get(status)!;
      expect(await send(ctx.ws, frame(ctx)), `${name} as ${status}`).toMatchObject({ type: 'ack' });
    }
  });
});

describe('open mutations', () => {
  it('a limited account marks messages and notifications read and deletes its own confession', async () => {
    for (const status of LIMITED) {
      const ctx = ctxOf.get(status)!;
      const read = {
        type: 'mark_messages_as_read',
        chatPartnerId: ctx.peer.id,
        messageIds: [ctx.peerMessageId],
      };
      expect(await send(ctx.ws, read)).toMatchObject({ type: 'ack' });
      const notification = { type: 'mark_notification_read', notificationId: randomUUID() };
      expect(await send(ctx.ws, notification)).toMatchObject({ type: 'ack' });
      // Posted while verified; the account is limited again before it deletes it.
      await setDocumentStatus(server, ctx.actor.id);
      const post = GATED_MUTATIONS.find((m) => m.name === 'confession_post')!.frame(ctx);
      expect(await send(ctx.ws, post)).toMatchObject({ type: 'ack' });
      await setDocumentStatus(server, ctx.actor.id, status);
      const removal = { type: 'confession_delete', confessionId: post.id };
      expect(await send(ctx.ws, removal)).toMatchObject({ type: 'ack' });
    }
  });
});

describe('direct messages', () => {
  it('a limited account answers someone who wrote first, as often as it likes, but cannot start a chat', async () => {
    for (const status of LIMITED) {
      const ctx = ctxOf.get(status)!;
      for (const content of ['Yes, on my way', 'Save me a seat']) {
        const reply = { type: 'send_message', id: randomUUID(), to: ctx.peer.id, content };
        expect(await send(ctx.ws, reply), `${status} replies`).toMatchObject({ type: 'ack' });
      }
      const start = { type: 'send_message', id: randomUUID(), to: ctx.stranger.id, content: 'hi' };
      expectRefused(await send(ctx.ws, start), status, 'starting a chat');
    }
  });
});

describe('call signalling (not a mutation)', () => {
  /** Places a call to the peer; the frame that answers it (a refusal), or undefined once it is placed. */
  async function call(ctx: Ctx): Promise<Frame | undefined> {
    const callId = randomUUID();
    const signal = { type: 'offer', sdp: 'v=0\r\n' };
    ctx.ws.send({ type: 'call:offer', callId, to: ctx.peer.id, callType: 'audio', signal });
    // The peer is offline: a placed call rings nowhere, and hanging up logs it as cancelled.
    await WsClient.settle(50);
    ctx.ws.send({ type: 'call:end', callId, to: ctx.peer.id });
    await WsClient.settle(50);
    return ctx.ws.frames.find((f) => f.type === 'call:end' && f.callId === callId);
  }

  it('placing a call is participation: refused for the limited statuses, placed for the others', async () => {
    for (const status of LIMITED) {
      const ctx = ctxOf.get(status)!;
      expect(await call(ctx), status).toMatchObject({ reason: 'refused', error: REFUSAL_TEXT[status] });
    }
    for (const status of FULL) {
      const ctx = ctxOf.get(status)!;
      expect(await call(ctx), status).toBeUndefined();
      const logs = await server.get('/api/users/call-logs', ctx.actor.token);
      expect(logs.body, status).toMatchObject({ logs: [{ status: 'cancelled' }] });
    }
  });
});

describe('random talk (not a mutation)', () => {
  it('queueing is participation: refused for the limited statuses, queued for the others', async () => {
    for (const status of STATUSES) {
      const ctx = ctxOf.get(status)!;
      // A complete profile, so only the status decides.
      await execSql(
        server,
        `UPDATE users SET college = '"Campus"', course = 'CS', year = 2 WHERE id = ?`,
        ctx.actor.id,
      );
      const from = ctx.ws.frames.length;
      ctx.ws.send({ type: 'join-random' });
      const answer = await ctx.ws.waitFor(
        (f) => f.type === 'random-refused' || f.type === 'random-queue',
        from,
      );
      if ((LIMITED as readonly string[]).includes(status))
        expect(answer, status).toEqual({
          type: 'random-refused',
          code: 'verification',
          error: RANDOM_MSG.verificationRequired,
        });
      else expect(answer, status).toMatchObject({ type: 'random-queue', kind: 'chat' });
      ctx.ws.send({ type: 'leave-random-queue' });
    }
  });
});
describe('a decision takes effect on an open socket', () => {
  it('verifying lets the next mutation through and rejecting stops it, without reconnecting', async () => {
    const ctx = ctxOf.get('pending_verification')!;
    const post = GATED_MUTATIONS.find((m) => m.name === 'confession_post')!.frame;
    expectRefused(await send(ctx.ws, post(ctx)), 'pending_verification', 'before the decision');
    await setDocumentStatus(server, ctx.actor.id, 'verified');
    expect(await send(ctx.ws, post(ctx))).toMatchObject({ type: 'ack' });
    const start = { type: 'send_message', id: randomUUID(), to: ctx.stranger.id, content: 'hello' };
    expect(await send(ctx.ws, start)).toMatchObject({ type: 'ack' });
    await setDocumentStatus(server, ctx.actor.id, 'rejected');
    expectRefused(await send(ctx.ws, post(ctx)), 'rejected', 'after a rejection');
    expect(ctx.ws.closeCode).toBeUndefined();
    await setDocumentStatus(server, ctx.actor.id, 'pending_verification');
  });
});

describe('VERIFICATION_POLICY=off', () => {
  it('applies every gated mutation of a pending account', async () => {
    const open = await startTestServer({ config: { verificationPolicy: 'off' } });
    try {
      const peer = await createUser(open, 'Peer');
      const actor = await createUser(open, 'Newcomer', 'pending_submission');
      const stranger = await createUser(open, 'Stranger');
      const nick = { nickname: `nick ${randomUUID().slice(0, 8)}` };
      expect((await open.post('/api/confessions/nickname/set', nick, actor.token)).status).toBe(200);
      const groupId = (await createGroup(open.deps, peer.id, { name: 'Lab', memberIds: [actor.id] })).id;
      const peerMessageId = (
        await sendDirectMessage(open.deps, peer.id, { id: randomUUID(), to: actor.id, content: 'yo' })
      ).id;
      const ws = await WsClient.connect(open, actor);
      sockets.push(ws);
      const post = await send(ws, GATED_MUTATIONS.at(-1)!.frame({} as Ctx));
      expect(post).toMatchObject({ type: 'ack' });
      const confessionId = (await open.get('/api/confessions/feed', actor.token)).body.confessions as {
        id: string;
      }[];
      const ctx: Ctx = {
        actor,
        ws,
        peer,
        stranger,
        groupId,
        peerMessageId,
        confessionId: confessionId[0]!.id,
      };
      for (const { name, frame } of GATED_MUTATIONS)
        expect(await send(ws, frame(ctx)), name).toMatchObject({ type: 'ack' });
    } finally {
      await open.close();
    }
  });
});
