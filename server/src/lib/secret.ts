import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** A per-installation secret kept in DATA_DIR (created once, readable only by the server's user). */
export function loadOrCreateSecret(dataDir: string, name: string): Buffer {
  const file = path.join(dataDir, 'keys', `${name}.key`);
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32);
  fs.writeFileSync(file, secret.toString('base64'), { mode: 0o600 });
  return secret;
}
