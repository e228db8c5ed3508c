import {
  CHAT_SERVER_MSG,
  attachmentContent,
  directRoomId,
  type DirectMessage,
  type GroupMessage,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { HttpError } from '../../lib/http-error';
import { newFileKey } from '../../lib/storage';
import { ChatRefusal, storeDirectMessage, storeGroupMessage } from '../chat/writes';
import { fileUrlPath } from '../chat/mappers';
import { deleteAttachment, groupScope, insertAttachment, pairScope } from './repo';
import type { Upload } from './upload';

/** A refusal of the chat rules as an HTTP answer, with the same words the realtime channel uses. */
export function refusalToHttp(error: unknown): unknown {
  if (!(error instanceof ChatRefusal)) return error;
  switch (error.reason) {
    case 'notGroupMember':
      return new HttpError(403, error.message);
    case 'unknownUser':
      return new HttpError(404, CHAT_SERVER_MSG.userNotFound);
    case 'rateLimited':
    case 'tooManyConversations':
      return new HttpError(429, error.message);
    case 'awaitingReply':
      // Not a matter of time: only the recipient's reply lifts it, so no 429 that invites a retry.
      return new HttpError(403, error.message);
    default:
      return new HttpError(400, error.message);
  }
}

/**
 * Stores the file, records who may see it, then writes the message through the chat writes (one change
 * in the log, fanned out live). A retried upload with the same message id stores nothing new and returns
 * the message already written. If the message is refused, the file is removed again.
 */
async function storeWithMessage<M extends { attachmentUrl: string | null }>(
  deps: AppDeps,
  userId: string,
  upload: Upload,
  scope: string,
  alreadyStored: () => Promise<boolean>,
  write: (attachment: { key: string; type: 'image' | 'file' } | undefined, content: string) => M,
): Promise<M> {
  const content = attachmentContent(upload.type.kind, upload.fileName);
  if (await alreadyStored()) {
    try {
      return write(undefined, content);
    } catch (error) {
      throw refusalToHttp(error);
    }
  }
  const key = newFileKey();
  let message: M;
  await deps.storage.put(key, upload.bytes, upload.type.contentType);
  try {
    await insertAttachment(deps.db, {
      key,
      ownerId: userId,
      scope,
      contentType: upload.type.contentType,
      size: upload.bytes.byteLength,
      fileName: upload.fileName,
      createdAt: new Date(deps.now()).toISOString(),
    });
    message = write({ key, type: upload.type.kind }, content);
  } catch (error) {
    await discard(deps, key);
    throw refusalToHttp(error);
  }
  // Two uploads of the same message raced: the first one's file is the message's, this copy is not needed.
  if (message.attachmentUrl !== fileUrlPath(key)) await discard(deps, key);
  return message;
}

async function discard(deps: AppDeps, key: string): Promise<void> {
  await deleteAttachment(deps.db, key).catch(() => {});
  await deps.storage.delete(key).catch(() => {});
}

export function storeGroupAttachment(
  deps: AppDeps,
  userId: string,
  groupId: string,
  upload: Upload,
): Promise<GroupMessage> {
  return storeWithMessage(
    deps,
    userId,
    upload,
    groupScope(groupId),
    async () =>
      (await deps.db
        .selectFrom('group_messages')
        .select('id')
        .where('id', '=', upload.id)
        .executeTakeFirst()) !== undefined,
    (attachment, content) => storeGroupMessage(deps, userId, { id: upload.id, groupId, content, attachment }),
  );
}

export function storeDirectAttachment(
  deps: AppDeps,
  userId: string,
  partnerId: string,
  upload: Upload,
): Promise<DirectMessage> {
  return storeWithMessage(
    deps,
    userId,
    upload,
    pairScope(directRoomId(userId, partnerId)),
    async () =>
      (await deps.db
        .selectFrom('direct_messages')
        .select('id')
        .where('id', '=', upload.id)
        .executeTakeFirst()) !== undefined,
    (attachment, content) =>
      storeDirectMessage(deps, userId, { id: upload.id, to: partnerId, content, attachment }),
  );
}
