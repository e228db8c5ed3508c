import { Hono } from 'hono';
import type { ClientConfig } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { storageOrigin } from '../../lib/storage';

/** Clients may keep the answer a few minutes: it changes only with the server's configuration. */
const CACHE = { 'Cache-Control': 'public, max-age=300' };

/**
 * `GET /api/client-config` (CLIENT_CONFIG_PATH): public, no token. The desktop app builds its own CSP and
 * frame guard and must learn where presigned downloads point (STORAGE=s3: the bucket's origin). That origin
 * is no secret: every page's CSP already names it and every presigned URL carries it.
 */
export function clientConfigRoutes(deps: Pick<AppDeps, 'config'>) {
  return new Hono().get('/', (c) => {
    const origin = storageOrigin(deps.config.storage);
    const body: ClientConfig = { fileOrigins: origin ? [origin] : [] };
    return c.json(body, 200, CACHE);
  });
}
