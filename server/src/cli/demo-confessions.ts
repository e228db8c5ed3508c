import type { AppDeps } from '../lib/deps';
import {
  addComment,
  confessionEnv,
  nicknameOf,
  postConfession,
  setConfessionReaction,
  setNickname,
} from '../modules/confessions';
import { findUserByEmail } from '../modules/users/repo';

const NICKNAMES = { alex: 'night_owl', priya: 'chai_and_charts' } as const;

/** Fixed ids keep the demo idempotent: posting or commenting an id again returns the stored one. */
const CONFESSIONS = [
  {
    id: '5eed0003-0000-4000-8000-000000000001',
    by: 'priya',
    emotionTag: '😍',
    content: 'The person who lends me a charger in the library every Tuesday: thank you, you are a legend.',
  },
  {
    id: '5eed0003-0000-4000-8000-000000000002',
    by: 'alex',
    emotionTag: '😏',
    content: 'Started the assignment two hours before the deadline. Again. Character development is coming.',
  },
] as const;

const COMMENT = {
  id: '5eed0004-0000-4000-8000-000000000001',
  on: '5eed0003-0000-4000-8000-000000000002',
  by: 'priya',
  content: 'Same energy every semester 😅',
} as const;

/** Demo nicknames, two confessions, a reaction and a comment, written through the real confession writes. */
export async function seedDemoConfessions(deps: AppDeps, clock: { advance(ms: number): void }) {
  const alex = await findUserByEmail(deps.db, 'alex@campustalk.test');
  const priya = await findUserByEmail(deps.db, 'priya@campustalk.test');
  if (!alex || !priya) return;
  const ids = { alex: alex.id, priya: priya.id };
  const env = confessionEnv(deps);
  const { transactor } = env;
  for (const who of ['alex', 'priya'] as const)
    if (!(await nicknameOf(transactor, ids[who]))) await setNickname(transactor, ids[who], NICKNAMES[who]);
  for (const confession of CONFESSIONS) {
    clock.advance(60_000);
    await transactor.commit((tx) => postConfession(tx, env, ids[confession.by], confession));
  }
  await transactor.commit((tx) =>
    setConfessionReaction(tx, env, ids.alex, {
      confessionId: CONFESSIONS[0].id,
      reactionType: 'relatable',
      on: true,
    }),
  );
  const comment = { id: COMMENT.id, confessionId: COMMENT.on, content: COMMENT.content };
  await transactor.commit((tx) => addComment(tx, env, ids[COMMENT.by], comment));
  // The seed exits soon after: the posts are announced, the notices and the counts sent now, not seconds later.
  await env.publisher.flush();
  await env.notices.flush();
  await env.counts.flush();
}
