import { describe, expect, expectTypeOf, it } from 'vitest';
import { CHANGE_TYPES, MUTATION_TYPES, type ChangeType, type MutationType } from '@campus/protocol';
import type { ChangeAppliers, MutationClients } from '../src/feature-contract';
import { chatChanges } from '../src/features/chat/changes';
import { chatMutations } from '../src/features/chat/mutations';
import { confessionChanges } from '../src/features/confessions/changes';
import { confessionMutations } from '../src/features/confessions/mutations';
import { notificationChanges } from '../src/features/notifications/changes';
import { notificationMutations } from '../src/features/notifications/mutations';
import { userChanges } from '../src/features/users/changes';
import { friendChanges } from '../src/features/friends/changes';
import { friendMutations } from '../src/features/friends/mutations';

/**
 * The client's tables are checked against the protocol's lists by the compiler: these assertions run in
 * `pnpm typecheck` (tsc covers packages/sync/test), and each @ts-expect-error fails the typecheck if the
 * missing entry were ever accepted.
 */
const mutations = {
  ...chatMutations,
  ...confessionMutations,
  ...notificationMutations,
  ...friendMutations,
};
const changes = {
  ...chatChanges({ openGroupId: null }),
  ...confessionChanges,
  ...notificationChanges,
  ...userChanges,
  ...friendChanges,
};

describe('the client registry', () => {
  it('the features cover every mutation and change type, and nothing else', () => {
    expectTypeOf<keyof typeof mutations>().toEqualTypeOf<MutationType>();
    expectTypeOf<keyof typeof changes>().toEqualTypeOf<ChangeType>();
    expect(Object.keys(mutations).sort()).toEqual([...MUTATION_TYPES].sort());
    expect(Object.keys(changes).sort()).toEqual([...CHANGE_TYPES].sort());
  });

  it('a mutation or change type without its client handler does not compile', () => {
    const { confession_delete: _delete, ...withoutDelete } = mutations;
    // @ts-expect-error confession_delete has no client side
    const missingMutation: MutationClients = withoutDelete;
    const { confession_counts: _counts, ...withoutCounts } = changes;
    // @ts-expect-error confession_counts has no applier
    const missingChange: ChangeAppliers = withoutCounts;
    expect([missingMutation, missingChange]).toHaveLength(2);
  });
});
