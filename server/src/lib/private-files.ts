import fs from 'node:fs';

/**
 * DATA_DIR holds password hashes, sessions, private messages, files of direct chats and the installation's
 * keys: only the server's user may read any of it. These make new folders and files private and tighten
 * ones an earlier version left 0755/0644, since a mode given at creation does nothing to what exists.
 * Not through process.umask, which worker threads (the test runner's) may not change.
 */

/** Creates the folder (and missing parents) 0700, and makes it 0700 if it was already there. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/** Makes an existing file 0600; a file that is not there yet is left to be created 0600. */
export function keepFilePrivate(file: string): void {
  try {
    fs.chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
