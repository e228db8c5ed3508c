/**
 * Who may see a change: the change log stores each change's audiences, a connection subscribes to its own.
 * Built only here, so the key format has one definition.
 */
export type Audience = string & { readonly __audience?: true };

export const audience = {
  /** One user, on all their devices. */
  user: (userId: string): Audience => `u:${userId}`,
  /** Every member of a group. */
  group: (groupId: string): Audience => `g:${groupId}`,
  /** Every signed-in student (confessions: every card is visible to everyone). */
  allStudents: 'all' as Audience,
} as const;

/** The group id of a group audience, or undefined. */
export function groupOfAudience(key: string): string | undefined {
  return key.startsWith('g:') ? key.slice(2) : undefined;
}
