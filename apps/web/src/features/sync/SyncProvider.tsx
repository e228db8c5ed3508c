import { useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { SyncClient } from '@campus/sync';
import { readSession } from '../../lib/session-storage';
import { usePlatform } from '../../platform';
import { registerServiceWorker } from '../offline/service-worker';
import { useSignedInUser } from '../session/session-context';
import { trackClient } from './running-clients';
import { SelfProfileSync } from './SelfProfileSync';
import { SessionRefusal } from './SessionRefusal';
import { SyncContext } from './sync-context';
import { SyncFactoryContext, websocketUrl } from './sync-factory';
import { confessionRefusalsOf } from '../confessions/refusal-inbox';

/**
 * Runs the signed-in user's sync client for as long as the signed-in shell is shown: started on mount,
 * stopped on unmount (logout, another account). Children render once the client exists.
 */
export function SyncProvider({ children }: { children: ReactNode }) {
  const user = useSignedInUser();
  const platform = usePlatform();
  const factory = useContext(SyncFactoryContext);
  const [client, setClient] = useState<SyncClient | null>(null);
  // The client is made per account: a profile edit must not reconnect it, so the latest profile is read here.
  const userRef = useRef(user);
  useEffect(() => {
    userRef.current = user;
  }, [user]);

  useEffect(() => {
    const token = readSession()?.token;
    if (!token) return;
    const { id, firstName, lastName, profilePictureUrl } = userRef.current;
    const created = factory({
      self: { id, firstName, lastName, profilePictureUrl },
      token,
      baseUrl: platform.serverUrl,
      wsUrl: websocketUrl(platform.serverUrl),
    });
    const untrack = trackClient(created);
    // Listening before any write goes out: a confession write refused while the feed is closed is kept.
    confessionRefusalsOf(created);
    created.start();
    // Logging out unregistered the offline shell; a new sign-in in the same page brings it back.
    registerServiceWorker();
    setClient(created);
    return () => {
      setClient(null);
      if (untrack()) void created.stop();
    };
  }, [factory, platform.serverUrl, user.id]);

  if (!client || client.userId !== user.id) return null;
  return (
    <SyncContext value={client}>
      <SessionRefusal client={client} />
      <SelfProfileSync client={client} />
      {children}
    </SyncContext>
  );
}
