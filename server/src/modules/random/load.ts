import type { RandomTalkRestriction, VerificationPolicy } from '@campus/protocol';
import type { ReadTx } from '../../realtime/transaction';
import { toUser } from '../users';
import { blockedEitherWaySql, userSql } from './repo';
import { restrictionOf } from './safety';
import { studentOf, type Student } from './students';

/**
 * The student as random talk needs them, read fresh: their profile and card, and whether random talk is
 * closed to them now. Two primary-key reads; undefined when the account is gone.
 */
export async function readStudent(
  tx: Pick<ReadTx, 'first' | 'now'>,
  userId: string,
  policy: VerificationPolicy,
): Promise<{ student: Student; restriction: RandomTalkRestriction | null } | undefined> {
  const row = await tx.first(userSql, userId);
  if (!row) return undefined;
  const restriction = await restrictionOf(tx, userId);
  return { student: studentOf(toUser(row), policy, restriction !== null), restriction };
}

/** Everyone with a block between them and the user, either way. */
export async function blockedOf(tx: Pick<ReadTx, 'all'>, userId: string): Promise<Set<string>> {
  return new Set((await tx.all(blockedEitherWaySql, userId, userId, userId, userId)).map((r) => r.id));
}
