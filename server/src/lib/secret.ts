import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { keepFilePrivate, makePrivateDir } from './private-files';

/**
 * A per-installation secret kept in DATA_DIR (created once, readable only by the server's user). keys/ and
 * the file are tightened at every start too: an earlier version may have left them 0755/0644.
 */
export function loadOrCreateSecret(dataDir: string, name: string): Buffer {
  const file = path.join(dataDir, 'keys', `${name}.key`);
  makePrivateDir(path.dirname(file));
  keepFilePrivate(file);
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32);
  fs.writeFileSync(file, secret.toString('base64'), { mode: 0o600 });
  return secret;
}
