import { createMiddleware } from 'hono/factory';
import { SERVER_MSG, type User } from '@campus/protocol';
import type { AppDeps } from '../deps';
import { HttpError } from '../http-error';
import { toUser } from './session-user';
import { validateSessionToken, type Session } from './sessions';

export interface AuthEnv {
  Variables: { user: User; session: Session };
}

/** Reads `Authorization: Bearer <token>`; tokens never travel in URLs or cookies. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer ([A-Za-z0-9]{16,128})$/.exec(header.trim());
  return match?.[1] ?? null;
}

export function requireUser(deps: AppDeps) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    const found = token ? await validateSessionToken(deps.db, token, deps.now()) : null;
    if (!found) throw new HttpError(401, SERVER_MSG.unauthorized);
    c.set('user', toUser(found.user));
    c.set('session', found.session);
    await next();
  });
}

export function requireAdmin() {
  return createMiddleware<AuthEnv>(async (c, next) => {
    if (c.get('user').role !== 'admin') throw new HttpError(403, SERVER_MSG.forbidden);
    await next();
  });
}
