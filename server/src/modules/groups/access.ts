import { CHAT_SERVER_MSG, REALTIME_ERRORS } from '@campus/protocol';
import type { Context } from 'hono';
import type { DB } from '../../lib/db/database';
import { HttpError } from '../../lib/http-error';
import { readId } from '../../lib/http/request';
import { groupMembership } from './repo';

export const groupNotFound = () => new HttpError(404, CHAT_SERVER_MSG.groupNotFound);

/**
 * The `:groupId` of a group route, once we know the caller is a member: 404 for no such group,
 * 403 with the realtime wording for a non-member (every group route, event and the notes room say the same).
 */
export async function memberGroupId(c: Context, db: DB, userId: string): Promise<string> {
  const groupId = readId(c, 'groupId', groupNotFound());
  const membership = await groupMembership(db, groupId, userId);
  if (membership === 'no_group') throw groupNotFound();
  if (membership === 'not_member') throw new HttpError(403, REALTIME_ERRORS.notGroupMember);
  return groupId;
}
