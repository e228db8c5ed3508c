import fs from 'node:fs';
import path from 'node:path';
import type { Context, Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';

/**
 * Serves the built web app from the same origin as the API, so one URL is the whole product.
 * Hashed assets are cached for a year; index.html never, so a deploy is picked up on the next load.
 * Unknown non-API paths get index.html and the client router decides (SPA fallback), except under /assets/.
 */
export function mountWebApp(app: Hono, webDist: string): boolean {
  const indexFile = path.join(webDist, 'index.html');
  if (!fs.existsSync(indexFile)) return false;
  app.use(
    '/assets/*',
    serveStatic({
      root: webDist,
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  app.use('*', serveStatic({ root: webDist, onFound: (_p, c) => c.header('Cache-Control', 'no-cache') }));
  app.get('*', (c) => {
    if (c.req.path.startsWith('/api/') || c.req.path === '/api') return c.json({ error: 'Not found' }, 404);
    if (c.req.path.startsWith('/assets/')) return missingAsset(c);
    c.header('Cache-Control', 'no-cache');
    return c.html(fs.readFileSync(indexFile, 'utf8'));
  });
  return true;
}

/**
 * A hashed asset this node does not have is a 404, never the SPA shell: in a rolling deploy a browser that got
 * the new index.html from a new node asks an old node for the new build's files, and HTML with 200 there is
 * run as the script (or kept by the service worker under the asset's name): a blank page. Not stored
 * anywhere, since the same URL is found once this node (or the next one asked) has the build.
 */
function missingAsset(c: Context): Response {
  c.header('Cache-Control', 'no-store');
  return c.text('Not found', 404);
}
