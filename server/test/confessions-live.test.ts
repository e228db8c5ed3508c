import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeSchema, type Change, type ChangeOf } from '@campus/protocol';
import { CONFESSION_COUNTS_WINDOW_MS } from '../src/modules/confessions/counts';
import { closeConfessions, confessionEnv } from '../src/modules/confessions/env';
import { startTestServer, type TestServer } from './support/test-server';
import { WsClient, type Frame } from './support/ws-client';
import {
  announcePosts,
  changesAbout,
  createStudent,
  postAs,
  student,
  withNickname,
  type Student,
  postUnannounced,
} from './confessions-helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const socketOf = (s: Student, pull?: number) =>
  WsClient.connect(server, { id: s.id, token: s.token, name: s.name }, pull === undefined ? {} : { pull });

/** Every change a client received (live frames and pulled pages), parsed by the protocol's schema. */
function changesIn(frames: readonly Frame[]): Change[] {
  return frames.flatMap((f) =>
    f.type === 'changes' ? (f.changes as unknown[]).map((c) => changeSchema.parse(c)) : [],
  );
}
/** Whether a frame or change is about this confession (its card, or its id). */
const about = (id: string) => (f: object) =>
  ('confessionId' in f && f.confessionId === id) ||
  ('confession' in f && (f.confession as { id?: string }).id === id);

/** Students with nicknames who like the card (`funny`) over REST, all at once. */
async function fans(count: number): Promise<Student[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) =>
      withNickname(server, await createStudent(server, `Fan${i}`), `live-fan-${i}`),
    ),
  );
}

describe('confessions live through the change log', () => {
  it('a post, a burst of likes and a deletion reach an online student live and an offline one in one pull', async () => {
    const author = await student(server, 'LiveAuthor', 'Live College');
    const reader = await student(server, 'LiveReader');
    const away = await student(server, 'LiveAway');
    const likers = await fans(19);

    // The offline student was here before: a cursor > 0 to catch up from.
    await postAs(server, author, 'first day nerves');
    await announcePosts(server);
    const before = await socketOf(away, 0);
    const reset = before.frames.find((f) => f.type === 'sync_reset' || f.type === 'changes')!;
    const cursor = reset.cursor as number;
    expect(cursor).toBeGreaterThan(0);
    before.close();

    const authorWs = await socketOf(author);
    const readerWs = await socketOf(reader);
    const shown = readerWs.frames.length;

    // 1. A post appears live (announced a few seconds later, now here), as a stranger sees it; only the
    // author's devices hear it is theirs.
    const id = await postAs(server, author, 'the vending machine ate my coin', '😢');
    await announcePosts(server);
    const doomed = await postAs(server, author, 'I will regret this one');
    await announcePosts(server);
    const posted = await readerWs.waitFor((f) => f.type === 'confession_posted' && about(id)(f), shown);
    expect(posted.confession).toMatchObject({
      id,
      content: 'the vending machine ate my coin',
      emotionTag: '😢',
      college: 'Live College',
      nickname: 'LiveAuthor-nick',
      isMine: false,
      myReactions: [],
      comments: [],
      commentCount: 0,
      reactions: { relatable: 0, funny: 0, feelYou: 0, shareWorthy: 0 },
    });
    expect(JSON.stringify(posted)).not.toContain(author.id);
    const mine = await authorWs.waitFor((f) => f.type === 'confession_mine' && f.confessionId === id);
    expect(mine.confessionId).toBe(id);
    await WsClient.settle();
    expect(readerWs.of('confession_mine')).toHaveLength(0);

    // 2. Twenty likes in a burst (one through the reader's outbox, nineteen over REST) become ONE counts
    // change, sent a window after the first, with the counts of that moment.
    const firstLike = Date.now();
    const mid = readerWs.mutate({
      type: 'confession_react',
      confessionId: id,
      reactionType: 'funny',
      on: true,
    });
    await readerWs.waitFor((f) => f.type === 'ack' && f.mid === mid);
    await Promise.all(
      likers.map((fan) => server.post(`/api/confessions/${id}/react`, { reactionType: 'funny' }, fan.token)),
    );
    const counts = await readerWs.waitFor(
      (f) => f.type === 'confession_counts' && f.confessionId === id,
      shown,
      CONFESSION_COUNTS_WINDOW_MS + 3000,
    );
    expect(Date.now() - firstLike).toBeGreaterThanOrEqual(CONFESSION_COUNTS_WINDOW_MS - 50);
    expect(counts).toMatchObject({
      reactions: { relatable: 0, funny: 20, feelYou: 0, shareWorthy: 0 },
      commentCount: 0,
    });
    await WsClient.settle(300);
    expect(readerWs.of('confession_counts').filter(about(id))).toHaveLength(1);

    // 3. A deletion removes the card live (no counts of it follow).
    const deleted = await server.call('DELETE', `/api/confessions/${doomed}`, undefined, author.token);
    expect(deleted.status).toBe(200);
    await readerWs.waitFor((f) => f.type === 'confession_deleted' && f.confessionId === doomed, shown);

    // 4. The student who was away during all of it catches up with one pull from their cursor. The deleted
    // card's announcement was redacted into its deletion: its text is nowhere in the pull.
    const back = await socketOf(away, cursor);
    const caught = changesIn(back.frames).filter((c) => about(id)(c) || about(doomed)(c));
    expect(caught.map((c) => c.type)).toEqual([
      'confession_posted',
      'confession_deleted',
      'confession_counts',
      'confession_deleted',
    ]);
    const [first, redacted, countsChange, gone] = caught as [
      ChangeOf<'confession_posted'>,
      ChangeOf<'confession_deleted'>,
      ChangeOf<'confession_counts'>,
      ChangeOf<'confession_deleted'>,
    ];
    expect(first.confession.id).toBe(id);
    expect(redacted.confessionId).toBe(doomed);
    expect(JSON.stringify(back.frames)).not.toContain('I will regret this one');
    expect(countsChange.reactions.funny).toBe(20);
    expect(gone.confessionId).toBe(doomed);
    expect(back.of('sync_reset')).toHaveLength(0);
    expect(changesIn(back.frames).some((c) => c.type === 'confession_mine')).toBe(false);

    for (const ws of [authorWs, readerWs, back]) ws.close();
  });

  it('a comment updates the count live, coalesced with reactions in the same window', async () => {
    const author = await student(server, 'CountAuthor');
    const reader = await student(server, 'CountReader');
    const id = await postAs(server, author, 'who else is still in the library?');
    const readerWs = await socketOf(reader);
    const shown = readerWs.frames.length;
    const counts = confessionEnv(server.deps).counts;
    await server.post(`/api/confessions/${id}/comment`, { content: 'me' }, reader.token);
    await server.post(`/api/confessions/${id}/react`, { reactionType: 'relatable' }, reader.token);
    await counts.flush();
    const change = await readerWs.waitFor(
      (f) => f.type === 'confession_counts' && f.confessionId === id,
      shown,
    );
    expect(change).toMatchObject({ commentCount: 1, reactions: { relatable: 1 } });
    await WsClient.settle();
    expect(readerWs.of('confession_counts').filter(about(id))).toHaveLength(1);
    readerWs.close();
  });

  it('sends the counts still waiting for their window when the server closes, before the database does', async () => {
    const own = await startTestServer();
    try {
      const author = await student(own, 'CloseAuthor');
      const fan = await student(own, 'CloseFan');
      const id = await postUnannounced(own, author, 'last one out turns off the lights');
      expect(await changesAbout(own, id)).toEqual([]);
      await own.post(`/api/confessions/${id}/react`, { reactionType: 'feelYou' }, fan.token);
      expect((await changesAbout(own, id)).map((c) => c.type)).not.toContain('confession_counts');
      await closeConfessions(own.deps);
      // The card is announced first, then its counts.
      const types = (await changesAbout(own, id)).map((c) => c.type);
      expect(types.filter((type) => type.startsWith('confession_'))).toEqual([
        'confession_posted',
        'confession_mine',
        'confession_counts',
      ]);
      const counts = (await changesAbout(own, id)).filter((c) => c.type === 'confession_counts');
      expect(counts).toHaveLength(1);
      expect(JSON.parse(counts[0]!.payload)).toMatchObject({ reactions: { feelYou: 1 } });
    } finally {
      await own.close();
    }
  });
});
