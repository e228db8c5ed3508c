import type { AppDeps } from '../deps';
import { sql } from '../realtime/transaction';
import { sendDirectMessage, sendGroupMessage } from '../modules/chat';
import { createGroup } from '../modules/groups';
import { findUserByEmail } from '../modules/users';

/** Fixed ids make the demo idempotent: the chat writes return an already stored message unchanged. */
const DIRECT: { id: string; from: 'alex' | 'priya'; content: string }[] = [
  {
    id: '5eed0001-0000-4000-8000-000000000001',
    from: 'alex',
    content: 'Hey Priya! Are you going to the hackathon on Saturday?',
  },
  {
    id: '5eed0001-0000-4000-8000-000000000002',
    from: 'priya',
    content: 'Yes! Still looking for a team though 😅',
  },
  {
    id: '5eed0001-0000-4000-8000-000000000003',
    from: 'alex',
    content: 'Join ours, we need someone who knows data viz.',
  },
  {
    id: '5eed0001-0000-4000-8000-000000000004',
    from: 'priya',
    content: 'Deal. Sharing my notes here: https://example.edu/notes',
  },
];

const GROUP_NAME = 'Hackathon Team';
const GROUP: { id: string; from: 'alex' | 'priya' | 'sam'; content: string }[] = [
  { id: '5eed0002-0000-4000-8000-000000000001', from: 'alex', content: 'Welcome to the team, everyone 🎉' },
  { id: '5eed0002-0000-4000-8000-000000000002', from: 'sam', content: 'Hi all! I can do the backend.' },
  {
    id: '5eed0002-0000-4000-8000-000000000003',
    from: 'priya',
    content: 'I will take the charts. Meeting at the library at 5?',
  },
];

export interface DemoChatResult {
  created: number;
}

/**
 * A demo direct conversation (Alex ↔ Priya) and a demo group (Alex, Priya, Sam) with a few messages, written
 * through the chat writes and createGroup so the change log has them. Messages are spread over the last
 * hour through `clock`. Missing demo students skip the demo chat.
 */
export async function seedDemoChat(
  deps: AppDeps,
  clock: { advance(ms: number): void },
): Promise<DemoChatResult> {
  const [alex, priya, sam] = await Promise.all(
    ['alex', 'priya', 'sam'].map((name) => findUserByEmail(deps.db, `${name}@campustalk.test`)),
  );
  if (!alex || !priya || !sam) return { created: 0 };
  const ids = { alex: alex.id, priya: priya.id, sam: sam.id };
  const start = await logSize(deps);

  for (const message of DIRECT) {
    clock.advance(4 * 60_000);
    const to = message.from === 'alex' ? ids.priya : ids.alex;
    await sendDirectMessage(deps, ids[message.from], { id: message.id, to, content: message.content });
  }

  let group = await deps.db
    .selectFrom('groups')
    .select('id')
    .where('name', '=', GROUP_NAME)
    .where('created_by', '=', ids.alex)
    .executeTakeFirst();
  if (!group) {
    clock.advance(60_000);
    group = await createGroup(deps, ids.alex, { name: GROUP_NAME, memberIds: [ids.priya, ids.sam] });
  }
  for (const message of GROUP) {
    clock.advance(3 * 60_000);
    await sendGroupMessage(deps, ids[message.from], {
      id: message.id,
      groupId: group.id,
      content: message.content,
    });
  }
  return { created: (await logSize(deps)) - start };
}

const logSizeSql = sql<{ n: number }>('SELECT count(*) AS n FROM change_log');

async function logSize(deps: AppDeps): Promise<number> {
  return Number((await deps.transactor.read((tx) => tx.first(logSizeSql)))?.n ?? 0);
}
