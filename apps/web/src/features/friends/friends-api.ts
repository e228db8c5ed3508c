import { messageResponse } from '@campus/protocol';
import type { ApiClient } from '../../lib/api';

/** Unfriending has no outbox mutation: it goes straight to the server, whose friendship_changed updates the cache. */
export function unfriend(api: ApiClient, userId: string) {
  return api.delete(`/api/users/friends/${encodeURIComponent(userId)}`, messageResponse);
}
