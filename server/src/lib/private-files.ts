import fs from 'node:fs';
import { StartupRefused } from './mail/mail-policy';

/**
 * DATA_DIR holds password hashes, sessions, private messages, files of direct chats and the installation's
 * keys: only the server's user may read any of it. These make new folders and files private and tighten
 * ones an earlier version left 0755/0644, since a mode given at creation does nothing to what exists.
 * Not through process.umask, which worker threads (the test runner's) may not change.
 *
 * A node of a deployment may get DATA_DIR/keys as a read-only mount (docs/deploying.md), where no mode can
 * be changed: that is fine when it is private already (files 0600 or tighter), and refused with a message
 * saying so when a key could be read by other users.
 */

/** Creates the folder (and missing parents) 0700, and makes it 0700 if it was already there. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir, 0o700, 'folder');
}

/** Makes an existing file 0600; a file that is not there yet is left to be created 0600. */
export function keepFilePrivate(file: string): void {
  tighten(file, 0o600, 'file');
}

function tighten(target: string, mode: number, kind: 'file' | 'folder'): void {
  try {
    fs.chmodSync(target, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code !== 'EROFS' && code !== 'EPERM') throw error;
    // A folder's mode guards only the names in it: the files' own modes guard what they hold.
    if (kind === 'folder') return;
    const current = fs.statSync(target).mode & 0o777;
    if ((current & 0o077) === 0) return;
    throw new StartupRefused(
      `${target} can be read by other users (mode ${current.toString(8).padStart(4, '0')}) and cannot be ` +
        `made private here (${code}: a read-only mount?). Give the server's user alone access to it, e.g. ` +
        'chmod 600 before mounting it read-only, or a Kubernetes secret volume with defaultMode 0400.',
    );
  }
}
