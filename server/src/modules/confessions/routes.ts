import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import {
  commentBodySchema,
  CONFESSION_SERVER_MSG,
  feedQuerySchema,
  nicknameSchema,
  pageQuerySchema,
  postConfessionBodySchema,
  reactBodySchema,
  setNicknameBodySchema,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { fullAccessOnly } from '../../lib/auth/access';
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { readBody } from '../../lib/validate';
import { readId, readQuery } from '../../lib/http/request';
import { confessionEnv } from './env';
import { refusals } from './errors';
import { consumeConfessionRate, type ConfessionAction } from './limits';
import { commentsPage, feedPage } from './feed';
import { collegeName } from './mappers';
import { isNicknameAvailable, nicknameOf, setNickname } from './nicknames';
import { addComment, toggleConfessionReaction } from './reactions';
import { deleteConfession, postConfession } from './writes';

const commentsQuerySchema = pageQuerySchema.pick({ page: true });

/**
 * /api/confessions: nicknames, the feed, posting, reactions, comments and deletion, signed-in users only.
 * The writes are the outbox's own (sync.ts), each in its own commit, so REST and realtime writes emit the
 * same live changes.
 */
export function confessionRoutes(deps: AppDeps) {
  const env = confessionEnv(deps);
  const { transactor } = env;
  const limit = (action: ConfessionAction, userId: string) => consumeConfessionRate(deps, action, userId);
  const confessionId = (c: Parameters<typeof readId>[0]) => readId(c, 'id', refusals.notFound());
  // Posting, reacting and commenting are taking part under the access policy; reading, choosing a
  // nickname and deleting one's own confession are not.
  const participates = fullAccessOnly(deps.config.verificationPolicy);

  return new Hono<AuthEnv>()
    .use('*', requireUser(deps))
    .get('/nickname', async (c) => {
      const nickname = await nicknameOf(transactor, c.get('user').id);
      if (nickname === null) throw new HttpError(404, CONFESSION_SERVER_MSG.nicknameNotSet);
      return c.json({ nickname });
    })
    .get('/nickname/check/:nickname', async (c) => {
      const userId = c.get('user').id;
      await limit('nicknameCheck', userId);
      const parsed = nicknameSchema.safeParse(c.req.param('nickname'));
      if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid request.');
      return c.json({ available: await isNicknameAvailable(transactor, userId, parsed.data) });
    })
    .post('/nickname/set', async (c) => {
      const { nickname } = await readBody(c, setNicknameBodySchema);
      const userId = c.get('user').id;
      await limit('nicknameSet', userId);
      return c.json({ nickname: await setNickname(transactor, userId, nickname) });
    })
    .get('/feed', async (c) => {
      const query = readQuery(c, feedQuerySchema);
      const user = c.get('user');
      await limit('feed', user.id);
      const request = { viewerId: user.id, viewerCollege: collegeName(user.college), ...query };
      return c.json(await feedPage(transactor, request));
    })
    .post('/post', participates, async (c) => {
      const body = await readBody(c, postConfessionBodySchema);
      const userId = c.get('user').id;
      await limit('post', userId);
      const input = { id: body.id ?? randomUUID(), content: body.content, emotionTag: body.emotionTag };
      return c.json(await transactor.commit((tx) => postConfession(tx, env, userId, input)), 201);
    })
    .post('/:id/react', participates, async (c) => {
      const id = confessionId(c);
      const { reactionType } = await readBody(c, reactBodySchema);
      const userId = c.get('user').id;
      await limit('react', userId);
      const input = { confessionId: id, reactionType };
      return c.json(await transactor.commit((tx) => toggleConfessionReaction(tx, env, userId, input)));
    })
    .post('/:id/comment', participates, async (c) => {
      const id = confessionId(c);
      const body = await readBody(c, commentBodySchema);
      const userId = c.get('user').id;
      await limit('comment', userId);
      const input = { id: body.id ?? randomUUID(), confessionId: id, content: body.content };
      return c.json(await transactor.commit((tx) => addComment(tx, env, userId, input)), 201);
    })
    .get('/:id/comments', async (c) => {
      const id = confessionId(c);
      const { page } = readQuery(c, commentsQuerySchema);
      return c.json(await commentsPage(transactor, c.get('user').id, id, page));
    })
    .delete('/:id', async (c) => {
      const id = confessionId(c);
      const userId = c.get('user').id;
      await transactor.commit((tx) => deleteConfession(tx, env, userId, id));
      return c.json({ ok: true });
    });
}
