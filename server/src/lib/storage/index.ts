import path from 'node:path';
import { makePrivateDir } from '../private-files';
import { loadOrCreateSecret } from '../secret';
import { LocalStorage } from './local-storage';
import type { Storage } from './storage';
import { createUrlSigner } from './url-signer';

export type { Storage, StoredFile } from './storage';
export type { SignatureCheck } from './url-signer';
export { newFileKey, newDocumentKey, DOCUMENT_KEY_PATTERN } from './storage';
export { LocalStorage } from './local-storage';

/** The storage driver for this installation. Only the local disk driver exists so far (STORAGE=local). */
export function createStorage(dataDir: string, now: () => number): Storage {
  const signer = createUrlSigner(loadOrCreateSecret(dataDir, 'files'), now);
  const root = path.join(dataDir, 'uploads');
  // Made (or tightened) at start to 0700, like DATA_DIR and keys/: files of direct chats are not for other users.
  makePrivateDir(root);
  return new LocalStorage(root, signer);
}
