import type { UserRef } from '@campus/protocol';

export const fullName = (user: UserRef): string => `${user.firstName} ${user.lastName}`.trim();

/** The spec's name sort, then the search (case-insensitive, on the full name) and the online-only filter. */
export function visibleFriends(
  friends: readonly UserRef[],
  query: string,
  onlineOnly: boolean,
  online: ReadonlySet<string>,
): UserRef[] {
  const needle = query.trim().toLowerCase();
  return [...friends]
    .sort((a, b) => fullName(a).localeCompare(fullName(b)))
    .filter((f) => !needle || fullName(f).toLowerCase().includes(needle))
    .filter((f) => !onlineOnly || online.has(f.id));
}

/** The count badge: 'N total', or 'Showing X / N' when search or the toggle narrows the list. */
export function countText(shown: number, total: number, filtered: boolean): string {
  return filtered ? `Showing ${shown} / ${total}` : `${total} total`;
}
