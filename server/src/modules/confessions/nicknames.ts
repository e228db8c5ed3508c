import type { AppDeps } from '../../lib/deps';
import { refusals } from './errors';
import { nicknameKey } from './mappers';
import { nicknameSkeleton } from './skeleton';
import { confessionStatements, type ConfessionStatements } from './statements';

export function nicknameOf(deps: AppDeps, userId: string): string | null {
  return confessionStatements(deps.sqlite).nicknameOf.get(userId)?.nickname ?? null;
}

/**
 * Free, or already the asking user's own (in any case): they may set it again. A name someone signed a
 * confession or comment with stays theirs after they rename, so nobody can pass as that author. A name that
 * looks like someone else's (same skeleton: 'nіght_owl', 'night_owI' for 'night_owl') is taken too.
 *
 * Before migration 0007 two users could hold look-alikes; both keep theirs: a user who holds the name itself
 * (its key) may set it again whoever else holds the look. Nobody else can get either.
 */
export function isNicknameAvailable(deps: AppDeps, userId: string, nickname: string): boolean {
  const owners = confessionStatements(deps.sqlite).nicknameOwners.all({
    key: nicknameKey(nickname),
    skeleton: nicknameSkeleton(nickname),
  });
  const others = owners.filter((owner) => owner.user_id !== userId);
  if (others.some((owner) => owner.by_key === 1)) return false;
  const holdsName = owners.some((owner) => owner.user_id === userId && owner.by_key === 1);
  return holdsName || others.length === 0;
}

/** Keeps a name that signed something with its user, by key and by look (called in the signing write). */
export function claimNickname(s: ConfessionStatements, userId: string, nickname: string): void {
  s.claimNickname.run(nicknameKey(nickname), userId, nicknameSkeleton(nickname));
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Sets or changes the user's nickname (already validated: controls stripped, trimmed, 2–20 characters, one
 * script). Unique ignoring case by the UNIQUE key, and by look through the check: both run in the commit's
 * IMMEDIATE transaction, so two users racing for one name or two look-alikes cannot both get it.
 */
export function setNickname(deps: AppDeps, userId: string, nickname: string): string {
  const s = confessionStatements(deps.sqlite);
  try {
    deps.realtime.commit(() => {
      if (!isNicknameAvailable(deps, userId, nickname)) throw refusals.nicknameTaken();
      s.upsertNickname.run(
        userId,
        nickname,
        nicknameKey(nickname),
        nicknameSkeleton(nickname),
        new Date(deps.now()).toISOString(),
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw refusals.nicknameTaken();
    throw error;
  }
  return nickname;
}
