import { describe, expect, expectTypeOf, it } from 'vitest';
import { CHANGE_TYPES, MUTATION_TYPES, type ChangeType, type MutationType } from '@campus/protocol';
import type { ChangeHooks, MutationHandlers } from '../src/realtime/registry';
import type { chatChangeHooks, chatMutationHandlers } from '../src/modules/chat/sync';
import type { confessionChangeHooks, confessionMutationHandlers } from '../src/modules/confessions/sync';
import type {
  notificationChangeHooks,
  notificationMutationHandlers,
} from '../src/modules/notifications/sync';
import type { profileChangeHooks } from '../src/modules/profile/sync';
import type { friendChangeHooks, friendMutationHandlers } from '../src/modules/friends/sync';
import type { callChangeHooks } from '../src/modules/calls/sync';
import { createFeatures } from '../src/features';
import { startTestServer } from './support/test-server';

/**
 * The server's tables are checked against the protocol's lists by the compiler: these assertions run in
 * `pnpm typecheck` (tsc covers server/test), and each @ts-expect-error fails the typecheck if the missing
 * entry were ever accepted.
 */
type ModuleMutations = ReturnType<typeof chatMutationHandlers> &
  ReturnType<typeof confessionMutationHandlers> &
  ReturnType<typeof notificationMutationHandlers> &
  ReturnType<typeof friendMutationHandlers>;
type ModuleChanges = ReturnType<typeof chatChangeHooks> &
  typeof confessionChangeHooks &
  typeof notificationChangeHooks &
  typeof profileChangeHooks &
  typeof friendChangeHooks &
  typeof callChangeHooks;

describe('the server registry', () => {
  it('the modules cover every mutation and change type, and nothing else', () => {
    expectTypeOf<keyof ModuleMutations>().toEqualTypeOf<MutationType>();
    expectTypeOf<keyof ModuleChanges>().toEqualTypeOf<ChangeType>();
  });

  it('a mutation or change type without its handler does not compile', () => {
    const withoutDelete = {} as Omit<ModuleMutations, 'confession_delete'>;
    // @ts-expect-error confession_delete has no server handler
    const mutations: MutationHandlers = withoutDelete;
    const withoutCounts = {} as Omit<ModuleChanges, 'confession_counts'>;
    // @ts-expect-error confession_counts has no change hook
    const changes: ChangeHooks = withoutCounts;
    // A type the protocol gains is a key the table lacks: the same error.
    type Grown = { [T in MutationType | 'a_new_mutation']: MutationHandlers[MutationType] };
    // @ts-expect-error the grown list needs an entry the modules do not give
    const grown: Grown = {} as ModuleMutations;
    expect([mutations, changes, grown]).toHaveLength(3);
  });

  it('a mutation handler that does not declare its access does not compile', () => {
    // @ts-expect-error `access` is required: every mutation says who may send it (the access policy)
    const undeclared: MutationHandlers['confession_post'] = { apply: async () => undefined };
    expect(undeclared).toBeDefined();
  });

  it('the running server holds a handler for every mutation and a hook for every change', async () => {
    const server = await startTestServer();
    try {
      const { mutations, changes } = createFeatures(server.deps);
      expect(Object.keys(mutations).sort()).toEqual([...MUTATION_TYPES].sort());
      expect(Object.keys(changes).sort()).toEqual([...CHANGE_TYPES].sort());
    } finally {
      await server.close();
    }
  });
});
