import { stat } from 'node:fs/promises';
import path from 'node:path';
import { isAppUrl } from './app-origin';

export type AppFile = { kind: 'file'; path: string } | { kind: 'forbidden' } | { kind: 'not-found' };

const INDEX_HTML = 'index.html';

async function isFile(candidate: string): Promise<boolean> {
  try {
    return (await stat(candidate)).isFile();
  } catch {
    return false;
  }
}

function decodePathname(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

/** Lexical containment: `candidate` is `root` itself or below it, never beside or above it. */
function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  if (relative === '') return true;
  return !path.isAbsolute(relative) && relative.split(path.sep)[0] !== '..';
}

/**
 * Maps an app:// request URL to a file of the built renderer in `rendererDir`.
 *
 * The URL parser already folds `..` and `%2e%2e`, but `%2f` and `%5c` survive it and only become
 * separators after decoding, so containment is checked again on the decoded, resolved path. Backslash, colon
 * and NUL are refused outright: on Windows a backslash is a separator and a colon names a drive or an NTFS
 * stream; NUL truncates paths. No file of the build and no in-app route contains them.
 *
 * Client-side routes (`/confessions`, `/chat/abc`) have no file, so an extension-less miss is answered
 * with index.html and the router takes over; a miss that names a file (`/assets/x.js`) stays a 404 so a
 * broken asset is not silently replaced by HTML.
 */
export async function resolveAppFile(rendererDir: string, requestUrl: string): Promise<AppFile> {
  if (!isAppUrl(requestUrl)) return { kind: 'forbidden' };
  const decoded = decodePathname(new URL(requestUrl).pathname);
  if (decoded === null || /[\\:\0]/.test(decoded)) return { kind: 'forbidden' };

  const root = path.resolve(rendererDir);
  const candidate = path.resolve(root, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  if (!isInside(root, candidate)) return { kind: 'forbidden' };

  if (candidate !== root && (await isFile(candidate))) return { kind: 'file', path: candidate };

  const lastSegment = decoded.split('/').pop() ?? '';
  if (path.extname(lastSegment) !== '') return { kind: 'not-found' };

  const index = path.join(root, INDEX_HTML);
  return (await isFile(index)) ? { kind: 'file', path: index } : { kind: 'not-found' };
}
