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
import { requireUser, type AuthEnv } from '../../lib/auth/middleware';
import { HttpError } from '../../lib/http-error';
import { RateLimiter, type RateRule } from '../../lib/rate-limit';
import { readBody } from '../../lib/validate';
import { readId, readQuery } from '../conversations/request';
import { refusals } from './errors';
import { commentsPage, feedPage } from './feed';
import { collegeName } from './mappers';
import { isNicknameAvailable, nicknameOf, setNickname } from './nicknames';
import { addComment, deleteConfession, postConfession, toggleConfessionReaction } from './writes';

const MINUTE = 60_000;
/** Per user: generous for a person, too few to flood the feed or someone's notifications. */
export const CONFESSION_RATES = {
  post: { limit: 20, windowMs: 60 * MINUTE },
  comment: { limit: 30, windowMs: 5 * MINUTE },
  react: { limit: 120, windowMs: MINUTE },
  nicknameCheck: { limit: 60, windowMs: MINUTE },
  nicknameSet: { limit: 10, windowMs: 10 * MINUTE },
} satisfies Record<string, RateRule>;

const commentsQuerySchema = pageQuerySchema.pick({ page: true });

/** /api/confessions: nicknames, the feed, posting, reactions, comments and deletion, signed-in users only. */
export function confessionRoutes(deps: AppDeps) {
  const limiters = {
    post: new RateLimiter(CONFESSION_RATES.post, deps.now),
    comment: new RateLimiter(CONFESSION_RATES.comment, deps.now),
    react: new RateLimiter(CONFESSION_RATES.react, deps.now),
    nicknameCheck: new RateLimiter(CONFESSION_RATES.nicknameCheck, deps.now),
    nicknameSet: new RateLimiter(CONFESSION_RATES.nicknameSet, deps.now),
  };
  const confessionId = (c: Parameters<typeof readId>[0]) => readId(c, 'id', refusals.notFound());

  return new Hono<AuthEnv>()
    .use('*', requireUser(deps))
    .get('/nickname', (c) => {
      const nickname = nicknameOf(deps, c.get('user').id);
      if (nickname === null) throw new HttpError(404, CONFESSION_SERVER_MSG.nicknameNotSet);
      return c.json({ nickname });
    })
    .get('/nickname/check/:nickname', (c) => {
      const userId = c.get('user').id;
      limiters.nicknameCheck.consume(userId);
      const parsed = nicknameSchema.safeParse(c.req.param('nickname'));
      if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid request.');
      return c.json({ available: isNicknameAvailable(deps, userId, parsed.data) });
    })
    .post('/nickname/set', async (c) => {
      const { nickname } = await readBody(c, setNicknameBodySchema);
      const userId = c.get('user').id;
      limiters.nicknameSet.consume(userId);
      return c.json({ nickname: setNickname(deps, userId, nickname) });
    })
    .get('/feed', (c) => {
      const query = readQuery(c, feedQuerySchema);
      const user = c.get('user');
      return c.json(
        feedPage(deps, { viewerId: user.id, viewerCollege: collegeName(user.college), ...query }),
      );
    })
    .post('/post', async (c) => {
      const body = await readBody(c, postConfessionBodySchema);
      const userId = c.get('user').id;
      limiters.post.consume(userId);
      const input = { id: body.id ?? randomUUID(), content: body.content, emotionTag: body.emotionTag };
      return c.json(postConfession(deps, userId, input), 201);
    })
    .post('/:id/react', async (c) => {
      const id = confessionId(c);
      const { reactionType } = await readBody(c, reactBodySchema);
      const userId = c.get('user').id;
      limiters.react.consume(userId);
      return c.json(toggleConfessionReaction(deps, userId, { confessionId: id, reactionType }));
    })
    .post('/:id/comment', async (c) => {
      const id = confessionId(c);
      const body = await readBody(c, commentBodySchema);
      const userId = c.get('user').id;
      limiters.comment.consume(userId);
      const input = { id: body.id ?? randomUUID(), confessionId: id, content: body.content };
      return c.json(addComment(deps, userId, input), 201);
    })
    .get('/:id/comments', (c) => {
      const id = confessionId(c);
      const { page } = readQuery(c, commentsQuerySchema);
      return c.json(commentsPage(deps, c.get('user').id, id, page));
    })
    .delete('/:id', (c) => {
      deleteConfession(deps, c.get('user').id, confessionId(c));
      return c.json({ ok: true });
    });
}
