import { SESSION_REFRESH_MS, SESSION_TTL_MS } from '@campus/protocol';
import type { DB } from '../db/database';
import type { UserRow } from './session-user';
import type { LiveSockets } from './live-sockets';
import { generateSessionToken, sessionIdFromToken } from './session-token';

export interface Session {
  id: string;
  userId: string;
  expiresAt: number;
}

export async function createSession(
  db: DB,
  userId: string,
  now: number,
): Promise<{ token: string; session: Session }> {
  const token = generateSessionToken();
  const session = { id: sessionIdFromToken(token), userId, expiresAt: now + SESSION_TTL_MS };
  await db
    .insertInto('sessions')
    .values({ id: session.id, user_id: userId, expires_at: session.expiresAt, created_at: now })
    .execute();
  return { token, session };
}

/** What validateSessionToken reads: the user, the session's id and expiry, and the suspension in force. */
export type SessionLookupRow = UserRow & {
  session_id: string;
  session_expires_at: number;
  suspended_until: string | null;
};

/**
 * validateSessionToken's lookup as SQL text, for a caller that runs it as a cached prepared statement (the
 * /ws hello: 1,000 clients sign in at once after a restart, and compiling and preparing the Kysely query
 * each time cost more than running it). Its three parameters are each the session id. Primary-key lookups
 * in scalar subqueries rather than the join of sessions and users: SQLite ran that join about ten times
 * slower (~100 µs against ~10 µs on the benchmark's database).
 */
export const SESSION_LOOKUP_SQL = `SELECT users.*, ? AS session_id,
       (SELECT expires_at FROM sessions WHERE id = ?) AS session_expires_at,
       (SELECT account_suspended_until FROM user_restrictions WHERE user_id = users.id) AS suspended_until
  FROM users
 WHERE users.id = (SELECT user_id FROM sessions WHERE id = ?)`;

/**
 * Looks the token up; an expired session is deleted, one in the second half of its life slides forward.
 * One query joins the user (and their restrictions, by primary key) so authenticating a request costs a
 * single indexed lookup. A suspended account's sessions are refused: a suspension deletes them too, but a
 * token checked while it commits must not get through either (every door, REST, /ws and /notes, reads here).
 * `lookup` runs SESSION_LOOKUP_SQL some cheaper way than Kysely; the writes always go through `db`.
 */
export async function validateSessionToken(
  db: DB,
  token: string,
  now: number,
  lookup?: (sessionId: string) => Promise<SessionLookupRow | undefined>,
): Promise<{ session: Session; user: UserRow } | null> {
  const id = sessionIdFromToken(token);
  const row: SessionLookupRow | undefined = lookup
    ? await lookup(id)
    : await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .leftJoin('user_restrictions', 'user_restrictions.user_id', 'sessions.user_id')
        .selectAll('users')
        .select([
          'sessions.id as session_id',
          'sessions.expires_at as session_expires_at',
          'user_restrictions.account_suspended_until as suspended_until',
        ])
        .where('sessions.id', '=', id)
        .executeTakeFirst();
  if (!row) return null;
  const { session_id, session_expires_at, suspended_until, ...user } = row;
  if (isSuspended(suspended_until, now)) return null;
  if (now >= session_expires_at) {
    await db.deleteFrom('sessions').where('id', '=', session_id).execute();
    return null;
  }
  let expiresAt = session_expires_at;
  if (now >= expiresAt - SESSION_REFRESH_MS) {
    expiresAt = now + SESSION_TTL_MS;
    await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', session_id).execute();
    await db
      .updateTable('users')
      .set({ last_active_at: new Date(now).toISOString() })
      .where('id', '=', user.id)
      .execute();
  }
  return { session: { id: session_id, userId: user.id, expiresAt }, user };
}

/** Whether an account suspension (an ISO instant, or NULL for none) is still in force at `now`. */
export function isSuspended(until: string | null | undefined, now: number): until is string {
  return !!until && Date.parse(until) > now;
}

/** The end of the user's account suspension when one is in force (sign-in refuses them), else null. */
export async function accountSuspension(db: DB, userId: string, now: number): Promise<string | null> {
  const row = await db
    .selectFrom('user_restrictions')
    .select('account_suspended_until')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const until = row?.account_suspended_until;
  return isSuspended(until, now) ? until : null;
}

/** What a revocation needs: the sessions table and the live sockets it must close. */
export interface RevocationDeps {
  db: DB;
  liveSockets: LiveSockets;
}

/**
 * Logout: deletes the session, then closes its live sockets (4401). The close runs here, right after the
 * delete commits, so no caller can revoke a session and leave its sockets running.
 */
export async function invalidateSession(deps: RevocationDeps, sessionId: string): Promise<void> {
  await deps.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  deps.liveSockets.revokeSession(sessionId);
}

/**
 * Ends every session of a user (password reset or change, suspension) and then all of the user's live
 * sockets. `alongside` runs in the same transaction (e.g. the new password hash), so the sockets close only
 * once the whole change has committed. `deps.db` must not be a transaction: this one commits its own.
 */
export async function invalidateUserSessions(
  deps: RevocationDeps,
  userId: string,
  alongside?: (trx: DB) => Promise<void>,
): Promise<void> {
  const revoked = await deps.db.transaction().execute(async (trx) => {
    await alongside?.(trx);
    return trx.deleteFrom('sessions').where('user_id', '=', userId).returning('id').execute();
  });
  // By session too: a socket whose token lookup is still running is not yet known under its user.
  for (const { id } of revoked) deps.liveSockets.revokeSession(id);
  deps.liveSockets.revokeUser(userId);
}

export async function deleteExpiredSessions(db: DB, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}
