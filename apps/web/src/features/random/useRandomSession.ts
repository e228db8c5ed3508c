import { useContext, useEffect, useState, useSyncExternalStore } from 'react';
import type { FocusedFilters, RandomKind } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { usePlatform } from '../../platform';
import { CallDepsContext } from '../calls/call-deps';
import { loadRtcConfig } from '../calls/rtc-config';
import { useSignedInUser } from '../session/session-context';
import { onSignOut } from '../session/sign-out-hooks';
import { useSync } from '../sync/sync-context';
import { RandomController } from './random-controller';
import { RandomDepsContext } from './random-deps';

/**
 * One random screen's session: its controller, fed with the server's frames and the connection's status.
 * Leaving the screen (unmount, another route), closing the tab or signing out leaves the queue or room.
 */
export function useRandomSession(kind: RandomKind, filters: FocusedFilters | null) {
  const client = useSync();
  const platform = usePlatform();
  const api = useApi();
  const { id: userId } = useSignedInUser();
  const callDeps = useContext(CallDepsContext);
  const { blurVideo } = useContext(RandomDepsContext);
  const [controller] = useState(
    () =>
      new RandomController(
        {
          signals: client,
          connectionStatus: () => client.getState().status,
          networkDown: () => typeof navigator !== 'undefined' && navigator.onLine === false,
          platform,
          getUserMedia: callDeps.getUserMedia,
          loadRtcConfig: () => loadRtcConfig(api, userId),
          createPeer: callDeps.createPeer,
          blurVideo,
          now: callDeps.now,
        },
        kind,
        filters,
      ),
  );

  useEffect(() => client.onRandomFrame(controller.receive), [client, controller]);
  useEffect(() => client.onMessageError(controller.refused), [client, controller]);
  useEffect(
    () => client.subscribe(() => controller.connectionChanged(client.getState().status)),
    [client, controller],
  );
  useEffect(() => onSignOut(() => controller.leave()), [controller]);
  useEffect(() => {
    const leave = () => controller.leave();
    window.addEventListener('pagehide', leave);
    window.addEventListener('beforeunload', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('beforeunload', leave);
      controller.dispose();
    };
  }, [controller]);

  const state = useSyncExternalStore(controller.subscribe, controller.getState, controller.getState);
  return { state, controller };
}
