import type { ReadTx, Transactor, Tx } from '../../realtime/transaction';
import { refusals } from './errors';
import { nicknameKey } from './mappers';
import { q } from './queries';
import { nicknameSkeleton } from './skeleton';

/** The user's nickname, or null before they chose one. */
export function nicknameOf(transactor: Transactor, userId: string): Promise<string | null> {
  return transactor.read(async (tx) => (await tx.first(q.nicknameOf, userId))?.nickname ?? null);
}

interface NameOwner {
  user_id: string;
  by_key: number | boolean;
}

/**
 * Free, or already the asking user's own (in any case): they may set it again. A name someone signed a
 * confession or comment with stays theirs after they rename, so nobody can pass as that author. A name that
 * looks like someone else's (same skeleton: 'nіght_owl', 'night_owI' for 'night_owl') is taken too.
 *
 * Before migration 0007 two users could hold look-alikes; both keep theirs: a user who holds the name itself
 * (its key) may set it again whoever else holds the look. Nobody else can get either.
 */
function availableAmong(owners: readonly NameOwner[], userId: string): boolean {
  const byKey = (owner: NameOwner) => Number(owner.by_key) === 1;
  const others = owners.filter((owner) => owner.user_id !== userId);
  if (others.some(byKey)) return false;
  const holdsName = owners.some((owner) => owner.user_id === userId && byKey(owner));
  return holdsName || others.length === 0;
}

/** The availability check route (a read; setting the name checks again inside its commit). */
export function isNicknameAvailable(
  transactor: Transactor,
  userId: string,
  nickname: string,
): Promise<boolean> {
  return transactor.read((tx) => isAvailableIn(tx, userId, nickname));
}

async function isAvailableIn(tx: ReadTx, userId: string, nickname: string): Promise<boolean> {
  const key = nicknameKey(nickname);
  const skeleton = nicknameSkeleton(nickname);
  const owners = await tx.all(q.nicknameOwners, key, key, skeleton, key, key, skeleton);
  return availableAmong(owners, userId);
}

/** Keeps a name that signed something with its user, by key and by look (called in the signing write). */
export async function claimNickname(tx: Tx, userId: string, nickname: string): Promise<void> {
  await tx.run(q.claimNickname, nicknameKey(nickname), userId, nicknameSkeleton(nickname));
}

/** SQLite's and PostgreSQL's codes for a UNIQUE violation. */
function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error) || !('code' in error)) return false;
  return error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === '23505';
}

/**
 * Sets or changes the user's nickname (already validated: controls stripped, trimmed, 2–20 characters, one
 * script). Unique ignoring case by the UNIQUE key, and by look through the check: both run in one commit
 * (on SQLite an IMMEDIATE transaction), so two users racing for one name or two look-alikes cannot both
 * get it.
 */
export async function setNickname(transactor: Transactor, userId: string, nickname: string): Promise<string> {
  try {
    await transactor.commit(async (tx) => {
      if (!(await isAvailableIn(tx, userId, nickname))) throw refusals.nicknameTaken();
      const key = nicknameKey(nickname);
      await tx.run(
        q.upsertNickname,
        userId,
        nickname,
        key,
        nicknameSkeleton(nickname),
        new Date(tx.now).toISOString(),
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw refusals.nicknameTaken();
    throw error;
  }
  return nickname;
}
