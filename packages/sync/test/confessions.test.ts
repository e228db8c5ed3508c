import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFESSION_SERVER_MSG, type MessageErrorFrame } from '@campus/protocol';
import type { CampusSyncClient } from '../src';
import { FakeServer, waitFor } from './support/fake-server';
import { ME, confession, makeClient, notification } from './support/fixtures';

let client: CampusSyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

const REFUSAL = CONFESSION_SERVER_MSG.confessionNotFound;

async function online(server: FakeServer): Promise<CampusSyncClient> {
  const c = makeClient(server);
  client = c;
  c.start();
  await waitFor(() => c.getState().status === 'online');
  return c;
}

const drained = async (c: CampusSyncClient) => waitFor(async () => expect(await c.db.outbox.count()).toBe(0));

describe('confession reactions', () => {
  it('shows a reaction at once and keeps it once the server acknowledged it', async () => {
    const server = new FakeServer(ME);
    const c = await online(server);
    const card = confession();
    await c.db.confessions.put(card);

    await c.reactConfession(card.id, 'relatable', true);
    const shown = await c.db.confessions.get(card.id);
    expect(shown?.reactions.relatable).toBe(4);
    expect(shown?.myReactions).toEqual(['feelYou', 'relatable']);

    await drained(c);
    expect(server.applied).toMatchObject([
      { type: 'confession_react', confessionId: card.id, reactionType: 'relatable', on: true },
    ]);
    expect((await c.db.confessions.get(card.id))?.reactions.relatable).toBe(4);
  });

  it('puts back exactly the viewer’s state for each type when the server refuses', async () => {
    const server = new FakeServer(ME);
    server.refuse = () => REFUSAL;
    const c = makeClient(server);
    client = c;
    const card = confession();
    await c.db.confessions.put(card);
    // Offline: on then off for one type (each refusal must undo only its own step); off for the one
    // the viewer had.
    await c.reactConfession(card.id, 'relatable', true);
    await c.reactConfession(card.id, 'feelYou', false);
    let shown = await c.db.confessions.get(card.id);
    expect(shown?.reactions).toEqual({ relatable: 4, funny: 0, feelYou: 0, shareWorthy: 0 });
    expect(shown?.myReactions).toEqual(['relatable']);
    await c.reactConfession(card.id, 'relatable', false);
    shown = await c.db.confessions.get(card.id);
    expect(shown?.reactions.relatable).toBe(3);

    c.start();
    await drained(c);
    const after = await c.db.confessions.get(card.id);
    expect(after?.reactions).toEqual(card.reactions);
    expect([...(after?.myReactions ?? [])].sort()).toEqual(['feelYou']);
  });

  it('keeps the acknowledged reaction when only a later one is refused', async () => {
    const server = new FakeServer(ME);
    server.refuse = (f) => (f.type === 'confession_react' && f.on ? REFUSAL : undefined);
    const c = makeClient(server);
    client = c;
    const card = confession();
    await c.db.confessions.put(card);
    await c.reactConfession(card.id, 'feelYou', false); // acknowledged
    await c.reactConfession(card.id, 'feelYou', true); // refused
    c.start();
    await drained(c);
    const after = await c.db.confessions.get(card.id);
    expect(after?.myReactions).toEqual([]);
    expect(after?.reactions.feelYou).toBe(0);
  });
});

describe('confession comments and posts', () => {
  it('appends a comment at once and keeps it once acknowledged', async () => {
    const server = new FakeServer(ME);
    const c = await online(server);
    const card = confession();
    await c.db.confessions.put(card);

    const id = await c.commentConfession(card.id, 'same here', { nickname: 'ana' });
    const shown = await c.db.confessions.get(card.id);
    expect(shown?.commentCount).toBe(1);
    expect(shown?.comments).toMatchObject([
      { id, confessionId: card.id, nickname: 'ana', content: 'same here', isMine: true },
    ]);
    await drained(c);
    expect(server.applied).toMatchObject([{ type: 'confession_comment', id, confessionId: card.id }]);
    expect((await c.db.confessions.get(card.id))?.comments.map((m) => m.id)).toEqual([id]);
  });

  it('removes a refused comment and reports the reason', async () => {
    const server = new FakeServer(ME);
    server.refuse = (f) => (f.type === 'confession_comment' ? REFUSAL : undefined);
    const c = await online(server);
    const errors: MessageErrorFrame[] = [];
    c.onMessageError((e) => errors.push(e));
    const card = confession({
      commentCount: 5,
      comments: [
        {
          id: 'old',
          confessionId: 'x',
          nickname: 'z',
          content: 'first',
          createdAt: '2026-11-01T00:00:00.000Z',
          isMine: false,
        },
      ],
    });
    await c.db.confessions.put(card);

    await c.commentConfession(card.id, 'nope');
    expect((await c.db.confessions.get(card.id))?.commentCount).toBe(6);
    await drained(c);
    const after = await c.db.confessions.get(card.id);
    expect(after?.commentCount).toBe(5);
    expect(after?.comments.map((m) => m.id)).toEqual(['old']);
    expect(errors).toMatchObject([{ error: REFUSAL, context: 'confession_comment' }]);
  });

  it('puts a new confession on top of the cached feed as the viewer’s, and removes it when refused', async () => {
    const server = new FakeServer(ME);
    const c = await online(server);
    await c.db.confessions.bulkPut([confession({ feedOrder: 0 }), confession({ feedOrder: 1 })]);

    const id = await c.postConfession('I miss home', '😢');
    const feed = await c.db.confessions.orderBy('feedOrder').toArray();
    expect(feed[0]).toMatchObject({ id, content: 'I miss home', emotionTag: '😢', nickname: 'Anon' });
    expect(feed[0]).toMatchObject({ isMine: true, commentCount: 0, myReactions: [] });
    await drained(c);
    expect(server.applied).toMatchObject([{ type: 'confession_post', id, content: 'I miss home' }]);
    expect(await c.db.confessions.get(id)).toBeDefined();

    server.refuse = () => CONFESSION_SERVER_MSG.confessionTooLong;
    const errors: MessageErrorFrame[] = [];
    c.onMessageError((e) => errors.push(e));
    const refused = await c.postConfession('x'.repeat(10), '😏', { nickname: 'ana', college: 'North' });
    expect((await c.db.confessions.orderBy('feedOrder').first())?.nickname).toBe('ana');
    await drained(c);
    expect(await c.db.confessions.get(refused)).toBeUndefined();
    expect((await c.db.confessions.orderBy('feedOrder').first())?.id).toBe(id);
    expect(errors).toMatchObject([{ context: 'confession_post' }]);
  });
});

describe('feed reloads', () => {
  it('keeps queued reactions and comments over a reloaded card until the server has them', async () => {
    const server = new FakeServer(ME);
    const c = makeClient(server);
    client = c;
    const card = confession();
    await c.db.confessions.put(card);
    await c.reactConfession(card.id, 'funny', true);
    const commentId = await c.commentConfession(card.id, 'me too', { nickname: 'ana' });

    await c.cacheConfessions([{ ...card, feedOrder: 3 }]); // the server's row, without them
    const shown = await c.db.confessions.get(card.id);
    expect(shown).toMatchObject({ feedOrder: 3, commentCount: 1, myReactions: ['feelYou', 'funny'] });
    expect(shown?.reactions.funny).toBe(1);
    expect(shown?.comments).toMatchObject([{ id: commentId, nickname: 'ana', content: 'me too' }]);

    c.start();
    await drained(c);
    await c.cacheConfessions([card]); // delivered: the server's row is the truth again
    expect(await c.db.confessions.get(card.id)).toEqual(card);
  });
});

describe('exactly once', () => {
  it('resends every confession and notification write after a reconnect; the server applies each once', async () => {
    const server = new FakeServer(ME);
    const c = await online(server);
    const card = confession();
    const note = notification();
    await c.db.confessions.put(card);
    await c.db.notifications.put({ ...note, unread: 1 });

    server.dropAcks = true; // applied, but the acks are lost
    await c.reactConfession(card.id, 'funny', true);
    const commentId = await c.commentConfession(card.id, 'hugs');
    const postId = await c.postConfession('new here', '😊');
    await c.markNotificationRead(note.id);
    await waitFor(() => expect(server.applied).toHaveLength(4));
    const sent = server.received.filter((f) => 'mid' in f).map((f) => [f.type, f.deviceId, f.mid]);

    server.dropAcks = false;
    server.cutAll();
    await drained(c);
    const all = server.received.filter((f) => 'mid' in f).map((f) => [f.type, f.deviceId, f.mid]);
    expect(all).toEqual([...sent, ...sent]);
    expect(server.applied.map((f) => f.type)).toEqual([
      'confession_react',
      'confession_comment',
      'confession_post',
      'mark_notification_read',
    ]);
    // The optimistic state stood through it all.
    const after = await c.db.confessions.get(card.id);
    expect(after?.reactions.funny).toBe(1);
    expect(after?.comments.map((m) => m.id)).toEqual([commentId]);
    expect(await c.db.confessions.get(postId)).toBeDefined();
    expect((await c.db.notifications.get(note.id))?.isRead).toBe(true);
  });
});
