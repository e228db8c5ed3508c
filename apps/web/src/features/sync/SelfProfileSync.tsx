import { useEffect, useRef } from 'react';
import { userSchema, type User } from '@campus/protocol';
import { SELF_META_KEY, type SyncClient } from '@campus/sync';
import { useLiveRows } from '../../lib/useLiveRows';
import { useSession } from '../session/session-context';

/** The `meta` row the sync client writes for `me_updated`: the server's seq and the user as it sent it. */
function readSelfRow(value: unknown): { seq: number; user: User } | null {
  if (typeof value !== 'object' || value === null) return null;
  const { seq, user } = value as { seq?: unknown; user?: unknown };
  const parsed = userSchema.safeParse(user);
  return typeof seq === 'number' && parsed.success ? { seq, user: parsed.data } : null;
}

/**
 * One read of the row: the seq now applied, and the user to give the session (null: nothing to do).
 * `applied` null is the first read, which only sets the baseline (see useSelfProfileSync).
 */
export function selfRowStep(
  applied: number | null,
  value: unknown,
  selfId: string | undefined,
): { applied: number; user: User | null } {
  const row = readSelfRow(value);
  if (applied === null) return { applied: row?.seq ?? 0, user: null };
  if (!row || row.seq <= applied) return { applied, user: null };
  return { applied: row.seq, user: row.user.id === selfId ? row.user : null };
}

/**
 * Keeps the signed-in user (badge, access, profile) in step with the server on every device: when the sync
 * client stores a newer `me_updated` (an admin's decision, a save on another device), the session takes it.
 *
 * The row is compared by seq, not content. The first read only sets the baseline: it is a local read made as
 * the client starts, before its first pull (which needs the network), so the row it finds was written in an
 * earlier session, before this start-up's `GET /api/auth/me` whose answer the session holds. Taking it would
 * put an older user back (say, access from before a policy change). A profile save updates the session
 * directly, and its own `me_updated` follows through sync with a higher seq.
 */
export function useSelfProfileSync(client: SyncClient): void {
  const { user, updateUser } = useSession();
  const userId = user?.id;
  // null: no row (or none readable); undefined from useLiveRows: not read yet.
  const row = useLiveRows(async () => (await client.db.meta.get(SELF_META_KEY))?.value ?? null, [client]);
  const appliedSeq = useRef<number | null>(null);

  useEffect(() => {
    if (row === undefined) return;
    const step = selfRowStep(appliedSeq.current, row, userId);
    appliedSeq.current = step.applied;
    if (step.user) updateUser(step.user);
  }, [row, userId, updateUser]);
}

/** For the signed-in tree (inside SyncProvider): renders nothing. */
export function SelfProfileSync({ client }: { client: SyncClient }) {
  useSelfProfileSync(client);
  return null;
}
