import type { EphemeralHooks } from '../../feature-contract';

/** What chat keeps of presence: the last-active time `user_offline` brings is shown on the conversation. */
export const chatEphemeral = {
  user_offline: async ({ db }, frame) => {
    const { lastActiveAt } = frame;
    if (lastActiveAt) await db.conversations.update(frame.userId, { lastActiveAt });
  },
} satisfies EphemeralHooks;
