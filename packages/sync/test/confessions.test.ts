import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFESSION_SERVER_MSG } from '@campus/protocol';
import {
  writeConfessionComment,
  writeConfessionDelete,
  writeConfessionPost,
  writeConfessionReaction,
  type SyncClient,
} from '../src';
import { ack, deliver, queued, refuse } from './support/engine';
import { confession, makeClient } from './support/fixtures';

let client: SyncClient | undefined;
afterEach(async () => {
  await client?.stop();
  client = undefined;
});

const REFUSAL = CONFESSION_SERVER_MSG.confessionNotFound;

function device(): SyncClient {
  client = makeClient();
  return client;
}

describe('confession reactions', () => {
  it('shows a reaction at once and keeps it once the server acknowledged it', async () => {
    const c = device();
    const card = confession();
    await c.db.confessions.put(card);

    await c.run(writeConfessionReaction, card.id, 'relatable', true);
    const shown = await c.db.confessions.get(card.id);
    expect(shown?.reactions.relatable).toBe(4);
    expect(shown?.myReactions).toEqual(['feelYou', 'relatable']);

    expect(await queued(c)).toMatchObject([
      { type: 'confession_react', confessionId: card.id, reactionType: 'relatable', on: true },
    ]);
    await ack(c);
    expect(await c.db.outbox.count()).toBe(0);
    expect((await c.db.confessions.get(card.id))?.reactions.relatable).toBe(4);
  });

  it('puts back exactly the viewer’s state for each type when the server refuses', async () => {
    const c = device();
    const card = confession();
    await c.db.confessions.put(card);
    // Offline: on then off for one type (each refusal must undo only its own step); off for the one
    // the viewer had.
    await c.run(writeConfessionReaction, card.id, 'relatable', true);
    await c.run(writeConfessionReaction, card.id, 'feelYou', false);
    let shown = await c.db.confessions.get(card.id);
    expect(shown?.reactions).toEqual({ relatable: 4, funny: 0, feelYou: 0, shareWorthy: 0 });
    expect(shown?.myReactions).toEqual(['relatable']);
    await c.run(writeConfessionReaction, card.id, 'relatable', false);
    shown = await c.db.confessions.get(card.id);
    expect(shown?.reactions.relatable).toBe(3);

    await refuse(c, REFUSAL);
    expect(await c.db.outbox.count()).toBe(0);
    const after = await c.db.confessions.get(card.id);
    expect(after?.reactions).toEqual(card.reactions);
    expect([...(after?.myReactions ?? [])].sort()).toEqual(['feelYou']);
  });

  it('keeps the acknowledged reaction when only a later one is refused', async () => {
    const c = device();
    const card = confession();
    await c.db.confessions.put(card);
    await c.run(writeConfessionReaction, card.id, 'feelYou', false); // acknowledged
    await c.run(writeConfessionReaction, card.id, 'feelYou', true); // refused
    await ack(c, (row) => row.frame.type === 'confession_react' && !row.frame.on);
    await refuse(c, REFUSAL);
    const after = await c.db.confessions.get(card.id);
    expect(after?.myReactions).toEqual([]);
    expect(after?.reactions.feelYou).toBe(0);
  });
});

describe('confession comments, posts and deletions', () => {
  it('appends a comment at once and keeps it once acknowledged', async () => {
    const c = device();
    const card = confession();
    await c.db.confessions.put(card);

    const id = await c.run(writeConfessionComment, card.id, 'same here', { nickname: 'ana' });
    const shown = await c.db.confessions.get(card.id);
    expect(shown?.commentCount).toBe(1);
    expect(shown?.comments).toMatchObject([
      { id, confessionId: card.id, nickname: 'ana', content: 'same here', isMine: true },
    ]);
    expect(await queued(c)).toMatchObject([{ type: 'confession_comment', id, confessionId: card.id }]);
    await ack(c);
    expect((await c.db.confessions.get(card.id))?.comments.map((m) => m.id)).toEqual([id]);
  });

  it('removes a refused comment', async () => {
    const c = device();
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

    await c.run(writeConfessionComment, card.id, 'nope');
    expect((await c.db.confessions.get(card.id))?.commentCount).toBe(6);
    await refuse(c, REFUSAL);
    const after = await c.db.confessions.get(card.id);
    expect(after?.commentCount).toBe(5);
    expect(after?.comments.map((m) => m.id)).toEqual(['old']);
  });

  it('puts a new confession on top of the cached feed as the viewer’s, pending until acknowledged, and removes it when refused', async () => {
    const c = device();
    await c.db.confessions.bulkPut([confession({ feedOrder: 0 }), confession({ feedOrder: 1 })]);

    const id = await c.run(writeConfessionPost, 'I miss home', '😢');
    const feed = await c.db.confessions.orderBy('feedOrder').toArray();
    expect(feed[0]).toMatchObject({ id, content: 'I miss home', emotionTag: '😢', nickname: 'Anon' });
    expect(feed[0]).toMatchObject({ isMine: true, commentCount: 0, myReactions: [], pending: true });
    expect(await queued(c)).toMatchObject([{ type: 'confession_post', id, content: 'I miss home' }]);
    await ack(c);
    const delivered = await c.db.confessions.get(id);
    expect(delivered).toBeDefined();
    expect(delivered?.pending).toBeUndefined();

    const refused = await c.run(writeConfessionPost, 'x'.repeat(10), '😏', {
      nickname: 'ana',
      college: 'North',
    });
    expect((await c.db.confessions.orderBy('feedOrder').first())?.nickname).toBe('ana');
    await refuse(c, CONFESSION_SERVER_MSG.confessionTooLong);
    expect(await c.db.confessions.get(refused)).toBeUndefined();
    expect((await c.db.confessions.orderBy('feedOrder').first())?.id).toBe(id);
  });

  it('removes a deleted confession at once and puts it back exactly when the server refuses', async () => {
    const c = device();
    const card = confession({ isMine: true, feedOrder: 4 });
    await c.db.confessions.put(card);
    await c.run(writeConfessionDelete, card.id);
    expect(await c.db.confessions.get(card.id)).toBeUndefined();
    expect(await queued(c)).toMatchObject([{ type: 'confession_delete', confessionId: card.id }]);
    // A reload meanwhile does not bring back a card whose deletion is still queued.
    await c.cacheConfessions([card]);
    expect(await c.db.confessions.get(card.id)).toBeUndefined();
    await refuse(c, REFUSAL, undefined, 'forbidden');
    expect(await c.db.confessions.get(card.id)).toEqual(card);
  });
});

describe('live confession changes', () => {
  it('puts a posted card on top, keeps this device’s own post (no longer pending), marks mine and removes deleted', async () => {
    const c = device();
    await c.db.confessions.bulkPut([confession({ feedOrder: 0 }), confession({ feedOrder: 1 })]);
    const mine = await c.run(writeConfessionPost, 'my own', '😊', { nickname: 'ana' });
    const [stranger] = [confession({ content: 'from someone' })];
    const { feedOrder: _f, ...wire } = stranger!;
    await deliver(c, [{ type: 'confession_posted', confession: wire }]);
    const feed = await c.db.confessions.orderBy('feedOrder').toArray();
    expect(feed[0]).toMatchObject({ id: stranger!.id, content: 'from someone', isMine: false });
    expect(feed[1]).toMatchObject({ id: mine, pending: true });

    // The server's copy of my own post: as strangers see it; mine stays mine, and it is delivered.
    const own = (await c.db.confessions.get(mine))!;
    await deliver(c, [
      {
        type: 'confession_posted',
        confession: {
          ...own,
          nickname: 'ana',
          isMine: false,
          pending: undefined,
          feedOrder: undefined,
        } as never,
      },
    ]);
    const settled = await c.db.confessions.get(mine);
    expect(settled).toMatchObject({ id: mine, isMine: true, feedOrder: own.feedOrder });
    expect(settled?.pending).toBeUndefined();

    await deliver(c, [{ type: 'confession_mine', confessionId: stranger!.id }]);
    expect((await c.db.confessions.get(stranger!.id))?.isMine).toBe(true);
    await deliver(c, [{ type: 'confession_deleted', confessionId: stranger!.id }]);
    expect(await c.db.confessions.get(stranger!.id)).toBeUndefined();
  });

  it('takes absolute counts, keeping this device’s queued reactions and comments on top', async () => {
    const c = device();
    const card = confession(); // relatable 3, feelYou 1 (mine)
    await c.db.confessions.put(card);
    await c.run(writeConfessionReaction, card.id, 'funny', true);
    await c.run(writeConfessionReaction, card.id, 'feelYou', false);
    const commentId = await c.run(writeConfessionComment, card.id, 'me too', { nickname: 'ana' });

    // Others reacted and commented meanwhile; the server has not seen this device's writes.
    await deliver(c, [
      {
        type: 'confession_counts',
        confessionId: card.id,
        reactions: { relatable: 7, funny: 2, feelYou: 4, shareWorthy: 1 },
        commentCount: 3,
      },
    ]);
    const shown = await c.db.confessions.get(card.id);
    expect(shown?.reactions).toEqual({ relatable: 7, funny: 3, feelYou: 3, shareWorthy: 1 });
    expect([...(shown?.myReactions ?? [])].sort()).toEqual(['funny']);
    expect(shown?.commentCount).toBe(4);
    expect(shown?.comments.map((m) => m.id)).toEqual([commentId]);

    // Delivered: the server's next counts include them.
    await ack(c);
    await deliver(c, [
      {
        type: 'confession_counts',
        confessionId: card.id,
        reactions: { relatable: 7, funny: 3, feelYou: 3, shareWorthy: 1 },
        commentCount: 4,
      },
    ]);
    expect(await c.db.confessions.get(card.id)).toMatchObject({
      reactions: { relatable: 7, funny: 3, feelYou: 3, shareWorthy: 1 },
      commentCount: 4,
    });
  });
});

describe('feed reloads', () => {
  it('keeps queued reactions and comments over a reloaded card until the server has them', async () => {
    const c = device();
    const card = confession();
    await c.db.confessions.put(card);
    await c.run(writeConfessionReaction, card.id, 'funny', true);
    const commentId = await c.run(writeConfessionComment, card.id, 'me too', { nickname: 'ana' });

    await c.cacheConfessions([{ ...card, feedOrder: 3 }]); // the server's row, without them
    const shown = await c.db.confessions.get(card.id);
    expect(shown).toMatchObject({ feedOrder: 3, commentCount: 1, myReactions: ['feelYou', 'funny'] });
    expect(shown?.reactions.funny).toBe(1);
    expect(shown?.comments).toMatchObject([{ id: commentId, nickname: 'ana', content: 'me too' }]);

    await ack(c);
    await c.cacheConfessions([card]); // delivered: the server's row is the truth again
    expect(await c.db.confessions.get(card.id)).toEqual(card);
  });
});
