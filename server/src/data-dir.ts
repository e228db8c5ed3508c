import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root: the nearest folder above `from` holding pnpm-workspace.yaml. Walking up (rather than a
 * fixed '../..') works from server/src, server/dist and the bundled server/dist/cli alike. Outside a checkout
 * (the bundle copied elsewhere) there is no such folder and the working directory stands in.
 */
export function findRepoRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

/**
 * DATA_DIR, absolute. A relative value is taken from the repository root, not the working directory: pnpm
 * runs the server and the seed from server/, and the README promises ./data at the root, where every command
 * (server, seed, admin:grant) must find the same database.
 */
export function resolveDataDir(value: string | undefined, root: string = findRepoRoot()): string {
  return path.resolve(root, value || 'data');
}
