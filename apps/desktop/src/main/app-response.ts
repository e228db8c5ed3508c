import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { resolveAppFile } from './app-files';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

function plain(status: number, text: string, csp: string): Response {
  return new Response(text, {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/**
 * Answers one app:// request from the built renderer. Kept free of Electron so it can be tested with the
 * Fetch API's own Request and Response.
 */
export async function serveAppRequest(request: Request, rendererDir: string, csp: string): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed', csp);

  const file = await resolveAppFile(rendererDir, request.url);
  if (file.kind === 'forbidden') return plain(403, 'Forbidden', csp);
  if (file.kind === 'not-found') return plain(404, 'Not found', csp);

  let body: Buffer;
  try {
    body = await readFile(file.path);
  } catch {
    return plain(404, 'Not found', csp);
  }
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
    status: 200,
    headers: {
      'Content-Type': contentTypeFor(file.path),
      'Content-Length': String(body.byteLength),
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      // The files are local and cheap to read; revalidating means an app update is never mixed with
      // cached files of the previous build (index.html, theme-init.js and favicon.svg are not hashed).
      'Cache-Control': 'no-cache',
    },
  });
}
