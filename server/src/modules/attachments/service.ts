import {
  CHAT_SERVER_MSG,
  attachmentContent,
  directRoomId,
  type DirectMessage,
  type GroupMessage,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { HttpError } from '../../lib/http-error';
import { Refusal } from '../../lib/refusal';
import { newFileKey } from '../../lib/storage';
import type { Tx } from '../../realtime/transaction';
import { fileUrlPath, storeDirectMessage, storeGroupMessage, type AttachmentInput } from '../chat';
import { userRefsOf } from '../users';
import { deleteAttachment, groupScope, insertAttachment, pairScope } from './repo';
import type { Upload } from './upload';

/**
 * A refusal of the chat rules answers with its own status and the realtime wording; only an unknown user
 * keeps the REST routes' "User not found." (the same words as the route's own check).
 */
function asHttp(error: unknown): unknown {
  if (error instanceof Refusal && error.code === 'unknownUser')
    return new HttpError(404, CHAT_SERVER_MSG.userNotFound);
  return error;
}

type WriteMessage<M> = (tx: Tx, attachment: AttachmentInput | undefined, content: string) => Promise<M>;

/**
 * Stores the file, then records who may see it and writes the message through the chat writes in one
 * transaction (one change in the log, fanned out live). A retried upload with the same message id stores
 * nothing new and returns the message already written. If the message is refused, the file is removed.
 */
async function storeWithMessage<M extends { attachmentUrl: string | null }>(
  deps: AppDeps,
  userId: string,
  upload: Upload,
  scope: string,
  alreadyStored: () => Promise<boolean>,
  write: WriteMessage<M>,
): Promise<M> {
  const content = attachmentContent(upload.type.kind, upload.fileName);
  if (await alreadyStored()) {
    return deps.transactor
      .commit((tx) => write(tx, undefined, content))
      .catch((error: unknown) => {
        throw asHttp(error);
      });
  }
  const key = newFileKey();
  let message: M;
  await deps.storage.put(key, upload.bytes, upload.type.contentType);
  try {
    message = await deps.transactor.commit(async (tx) => {
      await insertAttachment(tx, {
        key,
        ownerId: userId,
        scope,
        contentType: upload.type.contentType,
        size: upload.bytes.byteLength,
        fileName: upload.fileName,
        createdAt: new Date(tx.now).toISOString(),
      });
      return write(tx, { key, type: upload.type.kind }, content);
    });
  } catch (error) {
    // The attachment row went with the refused transaction; only the file is left.
    await deps.storage.delete(key).catch(() => {});
    throw asHttp(error);
  }
  // Two uploads of the same message raced: the first one's file is the message's, this copy is not needed.
  if (message.attachmentUrl !== fileUrlPath(key)) await discard(deps, key);
  return message;
}

async function discard(deps: AppDeps, key: string): Promise<void> {
  await deps.transactor.commit((tx) => deleteAttachment(tx, key)).catch(() => {});
  await deps.storage.delete(key).catch(() => {});
}

export function storeGroupAttachment(
  deps: AppDeps,
  userId: string,
  groupId: string,
  upload: Upload,
): Promise<GroupMessage> {
  const refs = userRefsOf(deps);
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
    (tx, attachment, content) =>
      storeGroupMessage(tx, refs, userId, { id: upload.id, groupId, content, attachment }),
  );
}

export function storeDirectAttachment(
  deps: AppDeps,
  userId: string,
  partnerId: string,
  upload: Upload,
): Promise<DirectMessage> {
  const refs = userRefsOf(deps);
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
    (tx, attachment, content) =>
      storeDirectMessage(tx, refs, userId, { id: upload.id, to: partnerId, content, attachment }),
  );
}
