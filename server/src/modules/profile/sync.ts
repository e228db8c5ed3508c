import type { User, VerificationPolicy } from '@campus/protocol';
import { selfUser } from '../../lib/auth/access';
import type { ChangeHooks } from '../../realtime/registry';
import { audience } from '../../realtime/audiences';
import type { Tx } from '../../realtime/transaction';
import { contactAudiences } from '../chat';
import { toUserRef, type UserRefRow, type UserRefs, type UserRow } from '../users';

/**
 * The profile feature's entries in the engine's tables (server/src/features.ts). It has no mutation: the
 * profile is saved over REST, and what the other devices and the contacts must learn goes out as a change.
 */

/** Nothing happens on a connection when it arrives: the client applies it. */
export const profileChangeHooks: Pick<ChangeHooks, 'user_updated' | 'me_updated'> = {
  user_updated: {},
  me_updated: {},
};

/**
 * Inside the commit that changed what the user's card shows (their picture; name fields are not editable):
 * `user_updated` with the public card only, to the user's own devices and to their contacts (direct chat
 * partners and the groups they are in). The server's user-ref cache forgets the old card here, inside the
 * commit (which holds the write lock, so no other commit can cache the old card meanwhile), and the caller
 * forgets it again once committed.
 */
export async function emitUserUpdated(tx: Tx, refs: UserRefs, row: UserRefRow): Promise<void> {
  refs.forget(row.id);
  const contacts = await contactAudiences(tx, row.id);
  tx.emit({ type: 'user_updated', user: toUserRef(row) }, [audience.user(row.id), ...contacts]);
}

/**
 * Inside the commit that saved the user's profile: `me_updated` with the user as shown to themselves (access
 * level included), to their own devices only, so every device's profile screen and badge follow the save.
 * Answers that same user for the route's response.
 */
export function emitMeUpdated(tx: Tx, row: UserRow, policy: VerificationPolicy): User {
  const user = selfUser(row, policy);
  tx.emit({ type: 'me_updated', user }, [audience.user(row.id)]);
  return user;
}
