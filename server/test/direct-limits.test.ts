import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awaitingReplyError, REALTIME_ERRORS } from '@campus/protocol';
import { DIRECT_LIMITS } from '../src/modules/chat';
import { upload } from './chat-rest-helpers';
import { valueOf } from './support/sql';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { createUser, WsClient, type Frame, type TestUser } from './support/ws-client';

/**
 * Issue 9, item 13: one account must not be able to spam strangers (149 DMs to one in 3 s were accepted).
 * Until the recipient answers, 10 messages; new conversations, 20 an hour. The refusal is stored with the
 * mutation, so a resend gets the same answer whatever happened since.
 */
const clock = testClock();
let server: TestServer;

const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

beforeAll(async () => {
  // Raised burst limits: these tests send as fast as they can, and the per-second limit is not under test.
  server = await startTestServer({ now: clock.now, realtime: { ratePerSecond: 10_000, rateBurst: 10_000 } });
});
afterAll(() => server.close());

/** The ack or message_error answering mutation `mid` of `client` (from frame index `from`). */
function answer(client: WsClient, mid: number, from = 0): Promise<Frame> {
  return client.waitFor(
    (f) =>
      (f.type === 'ack' || f.type === 'message_error') && f.deviceId === client.deviceId && f.mid === mid,
    from,
  );
}

function send(client: WsClient, to: TestUser, content: string, mid?: number) {
  return client.mutate({ type: 'send_message', id: randomUUID(), to: to.id, content }, mid);
}

const stored = (from: TestUser, to: TestUser) =>
  valueOf(
    server,
    'SELECT count(*) FROM direct_messages WHERE sender_id = ? AND recipient_id = ?',
    from.id,
    to.id,
  );

describe('direct messages to someone who has not replied', () => {
  it('stop at 10 with a message naming them, stay refused on resend, and a reply lifts the cap', async () => {
    const ann = await createUser(server, 'Ann');
    const ben = await createUser(server, 'Ben');
    const a = await WsClient.connect(server, ann);
    const frames: Record<string, unknown>[] = [];
    for (let i = 0; i < 12; i++) {
      const frame = { type: 'send_message', id: randomUUID(), to: ben.id, content: `hi ${i}` };
      frames.push(frame);
      a.mutate(frame);
    }
    const answers = await Promise.all(frames.map((_, i) => answer(a, i + 1)));
    expect(answers.slice(0, DIRECT_LIMITS.unansweredMessages).map((f) => f.type)).toEqual(
      Array(DIRECT_LIMITS.unansweredMessages).fill('ack'),
    );
    const refusal = {
      type: 'message_error',
      code: 'awaitingReply',
      error: "You can't send more messages until Ben replies.",
      context: 'send_message',
      deviceId: a.deviceId,
      mid: 11,
    };
    expect(awaitingReplyError('Ben')).toBe(refusal.error);
    expect(answers[10]).toEqual(refusal);
    expect(answers[11]).toMatchObject({
      type: 'message_error',
      code: 'awaitingReply',
      error: refusal.error,
      mid: 12,
    });
    expect(await stored(ann, ben)).toBe(10);

    // The same attachment route is refused too (403: waiting does not help, only a reply).
    const file = await upload(server, `/api/chat/${ben.id}/attachments`, ann.token, {
      bytes: PNG,
      name: 'me.png',
      type: 'image/png',
    });
    expect(file).toEqual({ status: 403, body: { error: refusal.error } });

    // Ben answers. A resend of the refused mutation is still refused (exactly once); a new one goes through.
    const b = await WsClient.connect(server, ben);
    expect(await answer(b, send(b, ann, 'who is this?'))).toMatchObject({ type: 'ack' });
    let mark = a.frames.length;
    a.mutate(frames[10]!, 11);
    expect(await answer(a, 11, mark)).toEqual(refusal);
    mark = a.frames.length;
    expect(await answer(a, send(a, ben, 'sorry, wrong Ben'), mark)).toMatchObject({ type: 'ack' });
    for (let i = 0; i < 12; i++) send(a, ben, `now we talk ${i}`);
    expect((await answer(a, 25)).type).toBe('ack');
    expect(await stored(ann, ben)).toBe(10 + 1 + 12);
    a.close();
    b.close();
  });
});

describe('new direct conversations', () => {
  it('are limited to 20 an hour per sender; existing chats go on; an hour later new ones go through', async () => {
    const spammer = await createUser(server, 'Spam');
    const targets = await Promise.all(Array.from({ length: 22 }, (_, i) => createUser(server, `T${i}`)));
    const s = await WsClient.connect(server, spammer);
    const limit = DIRECT_LIMITS.newConversationsPerHour;
    for (let i = 0; i <= limit; i++) send(s, targets[i]!, 'hey');
    const answers = await Promise.all(targets.slice(0, limit + 1).map((_, i) => answer(s, i + 1)));
    expect(answers.slice(0, limit).every((f) => f.type === 'ack')).toBe(true);
    const refusal = {
      type: 'message_error',
      code: 'tooManyConversations',
      error: "You're starting too many conversations. Try again later.",
      context: 'send_message',
      deviceId: s.deviceId,
      mid: limit + 1,
    };
    expect(REALTIME_ERRORS.tooManyConversations).toBe(refusal.error);
    expect(answers[limit]).toEqual(refusal);
    expect(await stored(spammer, targets[limit]!)).toBe(0);

    // A chat already started is not a new one.
    expect(await answer(s, send(s, targets[0]!, 'again'))).toMatchObject({ type: 'ack' });
    // Nor is answering someone who wrote first.
    const t = await WsClient.connect(server, targets[21]!);
    expect(await answer(t, send(t, spammer, 'hi spammer'))).toMatchObject({ type: 'ack' });
    expect(await answer(s, send(s, targets[21]!, 'hi back'))).toMatchObject({ type: 'ack' });
    // The attachment route counts the same conversations (429: it is a matter of time).
    const file = await upload(server, `/api/chat/${targets[limit]!.id}/attachments`, spammer.token, {
      bytes: PNG,
      name: 'x.png',
      type: 'image/png',
    });
    expect(file).toEqual({ status: 429, body: { error: refusal.error } });

    clock.advance(60 * 60_000 + 1);
    let mark = s.frames.length;
    expect(await answer(s, send(s, targets[limit]!, 'hey, later'), mark)).toMatchObject({ type: 'ack' });
    // The refused mutation itself stays refused.
    mark = s.frames.length;
    s.send({
      type: 'send_message',
      id: randomUUID(),
      to: targets[limit]!.id,
      content: 'hey',
      deviceId: s.deviceId,
      mid: limit + 1,
    });
    expect(await answer(s, limit + 1, mark)).toEqual(refusal);
    s.close();
    t.close();
  });
});
