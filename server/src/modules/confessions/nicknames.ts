import type { AppDeps } from '../../lib/deps';
import { refusals } from './errors';
import { nicknameKey } from './mappers';
import { confessionStatements } from './statements';

export function nicknameOf(deps: AppDeps, userId: string): string | null {
  return confessionStatements(deps.sqlite).nicknameOf.get(userId)?.nickname ?? null;
}

/**
 * Free, or already the asking user's own (in any case): they may set it again. A name someone signed a
 * confession or comment with stays theirs after they rename, so nobody can pass as that author.
 */
export function isNicknameAvailable(deps: AppDeps, userId: string, nickname: string): boolean {
  const key = nicknameKey(nickname);
  return confessionStatements(deps.sqlite)
    .nicknameOwner.all(key, key)
    .every((owner) => owner.user_id === userId);
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Sets or changes the user's nickname (already validated: trimmed, 2–20 characters). Unique ignoring
 * case: the UNIQUE key decides, so two users racing for one name cannot both get it.
 */
export function setNickname(deps: AppDeps, userId: string, nickname: string): string {
  const s = confessionStatements(deps.sqlite);
  try {
    deps.realtime.commit(() => {
      if (!isNicknameAvailable(deps, userId, nickname)) throw refusals.nicknameTaken();
      s.upsertNickname.run(userId, nickname, nicknameKey(nickname), new Date(deps.now()).toISOString());
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw refusals.nicknameTaken();
    throw error;
  }
  return nickname;
}
