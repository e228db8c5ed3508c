import {
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useNavigate } from 'react-router-dom';
import { useApi } from '../../lib/ApiContext';
import { usePlatform } from '../../platform';
import { useSignedInUser } from '../session/session-context';
import { onSignOut } from '../session/sign-out-hooks';
import { useSync } from '../sync/sync-context';
import { CallContext, type CallApi } from './call-context';
import { CallController } from './call-controller';
import { CallDepsContext } from './call-deps';
import { IncomingCallPrompt } from './IncomingCallPrompt';
import { OngoingCallBar } from './OngoingCallBar';
import { OutgoingCallOverlay } from './OutgoingCallOverlay';
import { forgetRtcConfig, loadCallRtcConfig } from './rtc-config';
import './calls.css';

/**
 * The global call layer, mounted once in the signed-in shell: the call state for every screen, the
 * outgoing overlay and the incoming prompt. It lives as long as the shell (one sync client, one user).
 */
export function CallLayer({ children }: { children: ReactNode }) {
  const client = useSync();
  const platform = usePlatform();
  const api = useApi();
  const { id: userId } = useSignedInUser();
  const deps = useContext(CallDepsContext);
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);

  const [controller] = useState(
    () =>
      new CallController({
        signals: client,
        connectionStatus: () => client.getState().status,
        platform,
        loadRtcConfig: () => loadCallRtcConfig(api, userId),
        createPeer: deps.createPeer,
        getUserMedia: deps.getUserMedia,
        ringtone: deps.createRingtone(),
        isHidden: deps.isHidden,
        now: deps.now,
      }),
  );

  useEffect(() => client.onCallFrame(controller.receive), [client, controller]);
  useEffect(() => client.onMessageError(controller.refused), [client, controller]);
  useEffect(
    () => client.subscribe(() => controller.connectionChanged(client.getState().status)),
    [client, controller],
  );
  // Signing out hangs up first, and drops the user's TURN credentials; leaving the shell any other way
  // (another account) hangs up too.
  useEffect(
    () =>
      onSignOut(() => {
        controller.dispose();
        forgetRtcConfig(api);
      }),
    [controller, api],
  );
  useEffect(() => () => controller.dispose(), [controller]);

  const state = useSyncExternalStore(controller.subscribe, controller.getState, controller.getState);
  // Accepted here, or answered by the callee: the call screen.
  useEffect(() => {
    if (state.phase === 'active') void navigateRef.current('/call');
  }, [state.phase]);
  const value = useMemo<CallApi>(
    () => ({
      state,
      startCall: (user, callType) => void controller.startCall(user, callType),
      accept: () => void controller.accept(),
      reject: () => controller.reject(),
      end: () => controller.end(),
      toggleMute: () => controller.toggleMute(),
      toggleCamera: () => controller.toggleCamera(),
    }),
    [state, controller],
  );

  return (
    <CallContext value={value}>
      {children}
      <OutgoingCallOverlay />
      <IncomingCallPrompt />
      <OngoingCallBar />
    </CallContext>
  );
}
