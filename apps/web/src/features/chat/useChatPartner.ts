import { useEffect, useState } from 'react';
import { useLiveRows } from '../../lib/useLiveRows';
import { publicProfileSchema, type UserRef } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { useSync } from '../sync/sync-context';

export interface ChatPartner {
  ref: UserRef;
  name: string;
  lastActiveAt: string | null;
}

function splitName(name: string): Pick<UserRef, 'firstName' | 'lastName'> {
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

/**
 * The partner as the cache knows them (users seen, then the conversation row); only when neither has them
 * (a chat opened from a link) is their profile fetched.
 */
export function useChatPartner(partnerId: string): ChatPartner | null | undefined {
  const { db } = useSync();
  const api = useApi();
  const cached = useLiveRows(async (): Promise<ChatPartner | null> => {
    const user = await db.users.get(partnerId);
    if (user) {
      const { id, firstName, lastName, profilePictureUrl } = user;
      return {
        ref: { id, firstName, lastName, profilePictureUrl },
        name: `${firstName} ${lastName}`.trim(),
        lastActiveAt: user.lastActiveAt,
      };
    }
    const conversation = await db.conversations.get(partnerId);
    if (conversation && !conversation.isGroup) {
      return {
        ref: { id: partnerId, ...splitName(conversation.name), profilePictureUrl: conversation.avatarUrl },
        name: conversation.name,
        lastActiveAt: conversation.lastActiveAt,
      };
    }
    return null;
  }, [db, partnerId]);
  const [fetched, setFetched] = useState<ChatPartner | null | undefined>(undefined);

  useEffect(() => {
    if (cached !== null) return;
    const controller = new AbortController();
    api
      .get(`/api/users/${encodeURIComponent(partnerId)}`, publicProfileSchema, { signal: controller.signal })
      .then(
        (profile) => {
          // Remembered in the cache, so the chat still knows who this is after an offline reload.
          void db.users
            .put({
              id: profile.id,
              firstName: profile.firstName,
              lastName: profile.lastName,
              profilePictureUrl: profile.profilePictureUrl,
              lastActiveAt: profile.lastActiveAt,
            })
            .catch(() => {});
          setFetched({
            ref: {
              id: profile.id,
              firstName: profile.firstName,
              lastName: profile.lastName,
              profilePictureUrl: profile.profilePictureUrl,
            },
            name: `${profile.firstName} ${profile.lastName}`.trim(),
            lastActiveAt: profile.lastActiveAt,
          });
        },
        () => {
          if (!controller.signal.aborted) setFetched(null);
        },
      );
    return () => controller.abort();
  }, [api, cached, db, partnerId]);

  if (cached === undefined) return undefined;
  return cached ?? fetched;
}
