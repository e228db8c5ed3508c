import { sendFriendRequestResponseSchema, type SendFriendRequestResponse } from '@campus/protocol';
import type { ApiClient } from '../../lib/api';

/** `POST /api/users/friends/requests`: online only, since the answer (sent, or theirs accepted) is shown. */
export function sendFriendRequest(api: ApiClient, to: string): Promise<SendFriendRequestResponse> {
  return api.post('/api/users/friends/requests', { to }, sendFriendRequestResponseSchema);
}
