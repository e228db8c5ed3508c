import { useEffect, useState } from 'react';
import { CHAT_MSG, type UserListEntry } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { fetchUsers, usersErrorText } from '../talk/users-api';

export type DirectoryState =
  { kind: 'loading' } | { kind: 'ready'; users: UserListEntry[] } | { kind: 'error'; message: string };

/** The whole directory once (the server caps it); Create Group's search then filters it locally. */
export function useDirectory(selfId: string): DirectoryState {
  const api = useApi();
  const [state, setState] = useState<DirectoryState>({ kind: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    fetchUsers(api, selfId, '', controller.signal).then(
      (users) => setState({ kind: 'ready', users }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = usersErrorText(error, CHAT_MSG.usersFetchFailed, CHAT_MSG.usersLoadFailed);
        setState({ kind: 'error', message });
      },
    );
    return () => controller.abort();
  }, [api, selfId]);
  return state;
}
