import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Confession, ConfessionComment, FeedResponse } from '@campus/protocol';
import { createGroup } from '../src/modules/groups/service';
import { confessionEnv } from '../src/modules/confessions/env';
import { CONFESSION_PUBLISH_DELAY_MS } from '../src/modules/confessions/publisher';
import { startTestServer, testClock, type TestServer } from './support/test-server';
import { WsClient } from './support/ws-client';
import { announcePosts, changesAbout, postAs, student } from './confessions-helpers';
import { rowOf } from './support/sql';

/** Starts 37.123 s into a minute, so a time that was not cut to the minute shows. */
const clock = testClock();
clock.advance(60_000 - (clock.now() % 60_000) + 37_123);
let server: TestServer;
/** Shortened for the test; the real one is CONFESSION_PUBLISH_DELAY_MS. */
const DELAY = { min: 300, max: 600 };

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  confessionEnv(server.deps).publisher.delayMs = DELAY;
  confessionEnv(server.deps).notices.delayMs = DELAY;
});
afterAll(() => server.close());

const onTheMinute = (iso: string) => expect(iso, iso).toMatch(/T\d\d:\d\d:00\.000Z$/);

describe('what the timing of a confession tells about its author', () => {
  it('announces a post seconds later in a commit of its own, not beside the author’s other writes', async () => {
    expect(CONFESSION_PUBLISH_DELAY_MS.min).toBeGreaterThanOrEqual(1000);
    expect(CONFESSION_PUBLISH_DELAY_MS.max).toBeGreaterThan(CONFESSION_PUBLISH_DELAY_MS.min);
    const x = await student(server, 'Xauthor');
    const m = await student(server, 'Mmember');
    const other = await student(server, 'Bystander');
    const group = await createGroup(server.deps, x.id, { name: 'lab', memberIds: [m.id, other.id] });
    const xs = await WsClient.connect(server, x);
    const ms = await WsClient.connect(server, m);

    // X's outbox flushes a group message and a confession together, after a reconnect.
    const postId = randomUUID();
    xs.mutate({ type: 'send_group_message', id: randomUUID(), groupId: group.id, content: 'see you at 5' });
    const postMid = xs.mutate({
      type: 'confession_post',
      id: postId,
      content: 'I have a crush on my lab partner',
      emotionTag: '😊',
    });
    await xs.waitFor((f) => f.type === 'ack' && f.mid === postMid);
    const acked = Date.now();
    const message = await ms.waitFor((f) => f.type === 'receive_group_message');
    // The post's own commit announced nothing, and the feed does not show it yet either: polled, it would
    // tie the card to X's message as surely as adjacent seqs. Its author sees it.
    expect(await changesAbout(server, postId)).toEqual([]);
    const polled = (await server.get('/api/confessions/feed?limit=50', m.token))
      .body as unknown as FeedResponse;
    expect(polled.confessions.map((c) => c.id)).not.toContain(postId);
    const own = (await server.get('/api/confessions/feed?limit=50', x.token)).body as unknown as FeedResponse;
    expect(own.confessions.map((c) => c.id)).toContain(postId);
    expect(own.total).toBe(polled.total);

    // Someone else writes meanwhile, as students do.
    const bs = await WsClient.connect(server, other);
    const otherMid = bs.mutate({
      type: 'send_group_message',
      id: randomUUID(),
      groupId: group.id,
      content: 'ok',
    });
    await bs.waitFor((f) => f.type === 'ack' && f.mid === otherMid);

    const posted = await ms.waitFor((f) => f.type === 'confession_posted');
    const after = (await server.get('/api/confessions/feed?limit=50', m.token))
      .body as unknown as FeedResponse;
    expect(after.confessions.map((c) => c.id)).toContain(postId);
    expect(after.total).toBe(polled.total + 1);
    expect(Date.now() - acked).toBeGreaterThanOrEqual(DELAY.min - 50);
    expect(posted.seq as number).toBeGreaterThan((message.seq as number) + 1);
    const card = posted.confession as Confession;
    expect(card.id).toBe(postId);
    const timestamp = (message.message as { timestamp: string }).timestamp;
    expect(card.createdAt).not.toBe(timestamp);
    onTheMinute(card.createdAt);
    // Only X's devices hear it is theirs, in the same commit as the announcement.
    const mine = await xs.waitFor((f) => f.type === 'confession_mine' && f.confessionId === postId);
    expect(mine.seq).toBe((posted.seq as number) + 1);
    await WsClient.settle();
    expect(ms.of('confession_mine')).toHaveLength(0);
    for (const ws of [xs, ms, bs]) ws.close();
  });

  it('tells an author of a reaction or comment, and everyone of a deletion, seconds later, not beside the other writes', async () => {
    const x = await student(server, 'Xreactor');
    const a = await student(server, 'Aauthor');
    const other = await student(server, 'Onlooker');
    const group = await createGroup(server.deps, x.id, { name: 'study', memberIds: [a.id, other.id] });
    const confessionId = await postAs(server, a, 'I sleep in the library');
    await announcePosts(server);
    const xs = await WsClient.connect(server, x);
    const as = await WsClient.connect(server, a);
    const bs = await WsClient.connect(server, other);
    const bystander = async () => {
      const mid = bs.mutate({
        type: 'send_group_message',
        id: randomUUID(),
        groupId: group.id,
        content: 'ok',
      });
      await bs.waitFor((f) => f.type === 'ack' && f.mid === mid);
    };

    // X's outbox flushes a group message, a reaction and a comment on A's confession together.
    xs.mutate({ type: 'send_group_message', id: randomUUID(), groupId: group.id, content: 'lunch?' });
    xs.mutate({ type: 'confession_react', confessionId, reactionType: 'funny', on: true });
    const commentMid = xs.mutate({
      type: 'confession_comment',
      id: randomUUID(),
      confessionId,
      content: 'same',
    });
    await xs.waitFor((f) => f.type === 'ack' && f.mid === commentMid);
    const acked = Date.now();
    const message = await as.waitFor((f) => f.type === 'receive_group_message');
    await bystander();
    const firstNotice = await as.waitFor((f) => f.type === 'notification_created');
    const notices = [
      firstNotice,
      await as.waitFor((f) => f.type === 'notification_created' && f !== firstNotice),
    ];
    expect(Date.now() - acked).toBeGreaterThanOrEqual(DELAY.min - 50);
    for (const notice of notices) expect(notice.seq as number).toBeGreaterThan((message.seq as number) + 1);

    // A deletes the confession in the same flush as a group message: every student hears of the deletion
    // later, in a commit of its own.
    const from = bs.frames.length;
    as.mutate({ type: 'send_group_message', id: randomUUID(), groupId: group.id, content: 'brb' });
    const deleteMid = as.mutate({ type: 'confession_delete', confessionId });
    await as.waitFor((f) => f.type === 'ack' && f.mid === deleteMid);
    const second = await bs.waitFor((f) => f.type === 'receive_group_message' && f.seq !== undefined, from);
    await bystander();
    const deleted = await bs.waitFor((f) => f.type === 'confession_deleted', from);
    expect(deleted.seq as number).toBeGreaterThan((second.seq as number) + 1);
    for (const ws of [xs, as, bs]) ws.close();
  });

  it('sends confession and comment times cut to the minute, and still orders the feed by the precise time', async () => {
    const author = await student(server, 'Minute');
    const reader = await student(server, 'MinuteReader');
    const res = await server.post(
      '/api/confessions/post',
      { content: 'first', emotionTag: '😊' },
      author.token,
    );
    onTheMinute(res.body.createdAt as string);
    clock.advance(1000);
    const second = await postAs(server, author, 'second, a second later');
    const comment = await server.post(`/api/confessions/${second}/comment`, { content: 'hi' }, reader.token);
    onTheMinute(comment.body.createdAt as string);

    // Other tests' cards share this server: keep this test's two, in the feed's order.
    const feed = await server.get('/api/confessions/feed?limit=10', reader.token);
    const cards = (feed.body.confessions as Confession[]).filter((c) =>
      ['first', 'second, a second later'].includes(c.content),
    );
    expect(cards.map((c) => c.content)).toEqual(['second, a second later', 'first']);
    expect(cards[0]!.createdAt).toBe(cards[1]!.createdAt);
    cards.forEach((c) => onTheMinute(c.createdAt));
    cards[0]!.comments.forEach((c) => onTheMinute(c.createdAt));
    const comments = await server.get(`/api/confessions/${second}/comments`, reader.token);
    (comments.body.comments as ConfessionComment[]).forEach((c) => onTheMinute(c.createdAt));

    await confessionEnv(server.deps).publisher.flush();
    for (const change of (await changesAbout(server, second)).filter((c) => c.type === 'confession_posted'))
      onTheMinute((JSON.parse(change.payload) as { confession: Confession }).confession.createdAt);
    // Stored precisely.
    const stored = (await rowOf<{ created_at: string }>(
      server,
      'SELECT created_at FROM confessions WHERE id = ?',
      second,
    ))!;
    expect(stored.created_at).toMatch(/:38\.123Z$/);
  });
});
