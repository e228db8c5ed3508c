import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CHANGE_TYPES,
  MUTATION_TYPES,
  callServerFrameSchemas,
  randomServerFrameSchemas,
  type ChangeType,
  type MutationType,
} from '@campus/protocol';
import type {
  ChangeAppliers,
  MutationClients,
  SessionFrame,
  SessionFrameHandlers,
} from '../src/feature-contract';
import { callChanges } from '../src/features/calls/changes';
import { CallSignals } from '../src/features/calls/signals';
import { chatChanges } from '../src/features/chat/changes';
import { RandomSignals } from '../src/features/random/signals';
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
  ...callChanges,
};
const frames = {
  ...new CallSignals(() => false).handlers(),
  ...new RandomSignals(() => false).handlers(),
};

describe('the client registry', () => {
  it('the features cover every mutation and change type, and nothing else', () => {
    expectTypeOf<keyof typeof mutations>().toEqualTypeOf<MutationType>();
    expectTypeOf<keyof typeof changes>().toEqualTypeOf<ChangeType>();
    expect(Object.keys(mutations).sort()).toEqual([...MUTATION_TYPES].sort());
    expect(Object.keys(changes).sort()).toEqual([...CHANGE_TYPES].sort());
    // Session frames (call signalling, random talk) are the server frames that are neither sync nor
    // presence/typing.
    expectTypeOf<keyof typeof frames>().toEqualTypeOf<SessionFrame['type']>();
    expect(Object.keys(frames).sort()).toEqual(
      [...callServerFrameSchemas, ...randomServerFrameSchemas].map((s) => s.shape.type.value).sort(),
    );
  });

  it('a mutation or change type without its client handler does not compile', () => {
    const { confession_delete: _delete, ...withoutDelete } = mutations;
    // @ts-expect-error confession_delete has no client side
    const missingMutation: MutationClients = withoutDelete;
    const { confession_counts: _counts, ...withoutCounts } = changes;
    // @ts-expect-error confession_counts has no applier
    const missingChange: ChangeAppliers = withoutCounts;
    const { 'call:end': _end, ...withoutEnd } = frames;
    // @ts-expect-error call:end has no handler
    const missingFrame: SessionFrameHandlers = withoutEnd;
    const { 'partner-found': _found, ...withoutFound } = frames;
    // @ts-expect-error partner-found has no handler
    const missingRandom: SessionFrameHandlers = withoutFound;
    expect([missingMutation, missingChange, missingFrame, missingRandom]).toHaveLength(4);
  });
});
