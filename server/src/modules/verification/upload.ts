import { randomUUID } from 'node:crypto';
import {
  UPLOAD,
  SERVER_MSG,
  UPLOAD_MSG,
  canUploadDocument,
  isDocumentType,
  type DocumentSignRequest,
  type DocumentSignResponse,
  type DocumentStatus,
  type DocumentSubmitRequest,
  type DocumentSubmitResponse,
} from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { selfUser } from '../../lib/auth/access';
import { HttpError } from '../../lib/http-error';
import { DOCUMENT_KEY_PATTERN, newDocumentKey } from '../../lib/storage';
import { audience } from '../../realtime/audiences';
import type { Tx } from '../../realtime/transaction';
import { toUser, type UserRow } from '../users';
import {
  consumeIntent,
  documentById,
  documentByKey,
  dropStaleIntent,
  insertDecision,
  insertDocument,
  insertIntent,
  intentOf,
  setSubmitted,
  staleIntents,
  userRow,
  wasDecided,
} from './repo';
import { serverCheck } from './server-check';
import { mediaType, type DocumentUploadTarget } from './upload-target';

/**
 * An intent is kept this long past its URL's expiry: an upload finished just in time can still be submitted
 * (after the page's recognition call), and an abandoned one is swept with its file after that.
 */
export const INTENT_GRACE_MS = 60 * 60_000;

const statusOf = (row: UserRow): DocumentStatus => toUser(row).documentStatus;

/** The user's row, fresh (a decision may have landed since the session was read). */
async function freshUser(deps: AppDeps, userId: string): Promise<UserRow> {
  const row = await deps.transactor.read((tx) => userRow(tx, userId));
  if (!row) throw new HttpError(401, SERVER_MSG.unauthorized);
  return row;
}

/** A student who is verified or exempt has nothing to upload. */
function assertMayUpload(row: UserRow): void {
  if (!canUploadDocument(statusOf(row))) throw new HttpError(409, UPLOAD_MSG.alreadyVerified);
}

/**
 * Drops intents abandoned long ago, anyone's (a student who never signs again, or was verified with an
 * upload in flight, leaves theirs too), a bounded batch per sign, and their files. The intent row goes first,
 * in its own commit, and only if it is still there: a submission of the same key meanwhile consumed it, and
 * then the file is a document's and stays.
 */
async function sweepStaleIntents(deps: AppDeps): Promise<void> {
  const before = deps.now() - INTENT_GRACE_MS;
  const stale = await deps.transactor.read((tx) => staleIntents(tx, before));
  try {
    for (const intent of stale) {
      const claimed = await deps.transactor.commit((tx) => dropStaleIntent(tx, intent.storage_key, before));
      if (claimed && intent.uploaded_size !== null) await deps.storage.delete(intent.storage_key);
    }
  } catch (error) {
    // Housekeeping: a file that cannot be removed now stays (its intent is gone); logged for the operator.
    deps.log.error({ err: error }, 'sweeping abandoned document uploads failed');
  }
}

/**
 * A document replaced before any admin decided it is never shown again: its file goes (the history keeps
 * the record). Files of decided documents stay, so the history's evidence is there; a student can only add
 * one undecided file at a time.
 */
async function dropReplacedFile(deps: AppDeps, replaced: string | null): Promise<void> {
  if (!replaced) return;
  const doc = await deps.transactor.read((tx) => documentById(tx, replaced));
  const decided = doc && (await deps.transactor.read((tx) => wasDecided(tx, replaced)));
  if (!doc || decided) return;
  try {
    await deps.storage.delete(doc.storage_key);
  } catch (error) {
    deps.log.error({ err: error }, 'removing a replaced document failed');
  }
}

/**
 * `POST /api/upload/document/sign`: a key of the user's own (`documents/<user id>/<random>`, never the file
 * name) and a URL to PUT the file to, valid for UPLOAD.signedUrlTtlSeconds. A student whose document is
 * waiting for review may replace it; a verified or exempt one may not (409).
 */
export async function signUpload(
  deps: AppDeps,
  target: DocumentUploadTarget,
  userId: string,
  body: DocumentSignRequest,
): Promise<DocumentSignResponse> {
  const contentType = mediaType(body.contentType);
  if (!isDocumentType(contentType)) throw new HttpError(400, UPLOAD_MSG.fileType);
  assertMayUpload(await freshUser(deps, userId));
  await sweepStaleIntents(deps);
  const key = newDocumentKey(userId);
  const expiresAt = deps.now() + UPLOAD.signedUrlTtlSeconds * 1000;
  await deps.transactor.commit((tx) => insertIntent(tx, { key, userId, contentType, expiresAt }));
  return {
    url: target.uploadUrl(key, contentType, Math.floor(expiresAt / 1000)),
    bucket: target.bucket,
    key,
  };
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** The submit answer for a student whose document waits for review. */
const pending = (): DocumentSubmitResponse => ({ ok: true, documentStatus: 'pending_verification' });

/**
 * `POST /api/upload/document/submit`. The key must be an upload this server signed for this user (403
 * otherwise, whoever's it is) and its file stored; the server reads the document itself (server-check.ts,
 * before the write), then in one commit records the submission and its history entry, moves the student to
 * pending_verification and tells their devices (`me_updated`). Submitting the same key again answers the
 * same without a second record. A replaced document no admin decided loses its file (dropReplacedFile).
 */
export async function submitDocument(
  deps: AppDeps,
  target: DocumentUploadTarget,
  userId: string,
  body: DocumentSubmitRequest,
): Promise<DocumentSubmitResponse> {
  const key = body.key;
  if (
    body.bucket !== target.bucket ||
    !DOCUMENT_KEY_PATTERN.test(key) ||
    !key.startsWith(`documents/${userId}/`)
  )
    throw new HttpError(403, UPLOAD_MSG.keyNotYours);
  const user = await freshUser(deps, userId);
  const already = await deps.transactor.read((tx) => documentByKey(tx, key));
  if (already) return resubmitted(user, already.id);

  const intent = await deps.transactor.read((tx) => intentOf(tx, key));
  if (!intent || intent.user_id !== userId) throw new HttpError(403, UPLOAD_MSG.keyNotYours);
  if (intent.uploaded_size === null || intent.uploaded_size < 0) {
    const expired = deps.now() > intent.expires_at;
    throw new HttpError(400, expired ? UPLOAD_MSG.uploadExpired : UPLOAD_MSG.uploadMissing);
  }
  assertMayUpload(user);
  const file = await deps.storage.get(key);
  if (!file) throw new HttpError(400, UPLOAD_MSG.uploadMissing);
  const bytes = await readAll(file.body);
  const check = await serverCheck(deps, {
    bytes,
    contentType: intent.content_type,
    manual: body.manual,
    firstName: user.first_name,
  });

  let replaced: string | null = null;
  const answer = await deps.transactor.commit(async (tx) => {
    // A submission of the same key that committed meanwhile: the same answer, one record.
    if (!(await consumeIntent(tx, key, userId))) {
      const doc = await documentByKey(tx, key);
      const now = await userRow(tx, userId);
      if (doc && now) return resubmitted(now, doc.id);
      throw new HttpError(400, UPLOAD_MSG.uploadMissing);
    }
    const before = await userRow(tx, userId);
    if (!before) throw new HttpError(401, SERVER_MSG.unauthorized);
    if (before.document_status === 'pending_verification') replaced = before.current_document_id;
    const documentId = randomUUID();
    const at = new Date(tx.now).toISOString();
    await insertDocument(tx, {
      id: documentId,
      user_id: userId,
      storage_key: key,
      content_type: intent.content_type,
      size: bytes.length,
      manual: body.manual ? 1 : 0,
      client_recognized: body.recognized ? JSON.stringify(body.recognized) : null,
      server_check: JSON.stringify(check),
      submitted_at: at,
    });
    // An admin's exemption or verification may have landed while the document was being read.
    if (!(await setSubmitted(tx, userId, documentId, at)))
      throw new HttpError(409, UPLOAD_MSG.alreadyVerified);
    await insertDecision(tx, {
      id: randomUUID(),
      userId,
      documentId,
      actorId: userId,
      action: 'submit',
      reason: null,
      fromStatus: before.document_status,
      toStatus: 'pending_verification',
    });
    await emitMe(tx, deps, userId);
    return pending();
  });
  await dropReplacedFile(deps, replaced);
  return answer;
}

/** The same key submitted again: fine while it is the document under review, stale otherwise. */
function resubmitted(user: UserRow, documentId: string): DocumentSubmitResponse {
  if (user.current_document_id === documentId && statusOf(user) === 'pending_verification') return pending();
  throw new HttpError(400, UPLOAD_MSG.uploadMissing);
}

/** `me_updated` with the student as shown to themselves, to their own devices, in the caller's commit. */
export async function emitMe(tx: Tx, deps: AppDeps, userId: string): Promise<void> {
  const row = await userRow(tx, userId);
  if (row)
    tx.emit({ type: 'me_updated', user: selfUser(row, deps.config.verificationPolicy) }, [
      audience.user(userId),
    ]);
}
