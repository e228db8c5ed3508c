import {
  CHAT,
  CHAT_MSG,
  directMessageSchema,
  groupMessageSchema,
  type DirectMessage,
  type GroupMessage,
} from '@campus/protocol';
import type { RestContext } from '../../feature-contract';
import { insertMissingDirect, insertMissingGroup } from './message-store';

/** The spec's texts: a refused request 'Failed to fetch …', a request that never completed 'Error loading …'. */
function directErrors(page: number): { failed: string; error: string } {
  return page === 1
    ? { failed: CHAT_MSG.initialMessagesFailed, error: CHAT_MSG.historyError }
    : { failed: CHAT_MSG.olderMessagesFailed, error: CHAT_MSG.olderMessagesError };
}

async function getPage(
  ctx: RestContext,
  path: string,
  page: number,
  errors: { failed: string; error: string },
) {
  const url = `${ctx.baseUrl}${path}?page=${page}&limit=${CHAT.pageSize}`;
  let res: Response;
  try {
    res = await ctx.fetchImpl(url, { headers: { Authorization: `Bearer ${ctx.token}` } });
  } catch {
    throw new Error(errors.error);
  }
  if (!res.ok) throw new Error(errors.failed);
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new Error(errors.error);
  }
  // The spec's routes answer an array of messages, newest first.
  if (!Array.isArray(body)) throw new Error(errors.error);
  return body as unknown[];
}

function parseAll<T>(
  items: unknown[],
  schema: { safeParse(v: unknown): { success: boolean; data?: T } },
  error: string,
) {
  return items.map((item) => {
    const parsed = schema.safeParse(item);
    if (!parsed.success || parsed.data === undefined) throw new Error(error);
    return parsed.data;
  });
}

/** A page of a direct chat through REST: its messages this device does not have yet are stored. */
export async function loadDirectPage(ctx: RestContext, partnerId: string, page: number): Promise<number> {
  const errors = directErrors(page);
  const items = await getPage(ctx, `/api/chat/${encodeURIComponent(partnerId)}`, page, errors);
  const messages: DirectMessage[] = parseAll(items, directMessageSchema, errors.error);
  await ctx.db.transaction('rw', ctx.db.messages, () => insertMissingDirect(ctx.db, ctx.selfId, messages));
  return messages.length;
}

export async function loadGroupPage(ctx: RestContext, groupId: string, page: number): Promise<number> {
  const errors = { failed: CHAT_MSG.groupHistoryError, error: CHAT_MSG.groupHistoryError };
  const items = await getPage(ctx, `/api/groups/${encodeURIComponent(groupId)}/messages`, page, errors);
  const messages: GroupMessage[] = parseAll(items, groupMessageSchema, errors.error);
  await ctx.db.transaction('rw', ctx.db.groupMessages, () => insertMissingGroup(ctx.db, messages));
  return messages.length;
}
